import type { ReportModel } from '../model/model.js';
import { shareStandardFontMetrics } from './font-cache.js';
import { renderCondensedReport } from './render-condensed.js';
import { renderFullReport } from './render-full.js';

// Every thread that renders (the render pool's, or the caller's for inline renders) builds the standard
// fonts' metrics once, not once per report (font-cache.ts).
shareStandardFontMetrics();

/** The PDF of a report model, full or condensed as the model says. */
export function renderReport(model: ReportModel): Promise<Buffer> {
  return model.variant === 'full' ? renderFullReport(model) : renderCondensedReport(model);
}
