import type { ReportModel } from '../model/model.js';
import { renderCondensedReport } from './render-condensed.js';
import { renderFullReport } from './render-full.js';

/** The PDF of a report model, full or condensed as the model says. */
export function renderReport(model: ReportModel): Promise<Buffer> {
  return model.variant === 'full' ? renderFullReport(model) : renderCondensedReport(model);
}
