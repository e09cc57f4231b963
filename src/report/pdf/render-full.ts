import type { ReportModel } from '../model/model.js';
import { drawBiomarkerPages } from './biomarker-table.js';
import { drawChangesPage } from './changes-page.js';
import { createDocument, drawFooters, toBuffer } from './layout.js';
import { drawMethodsPage } from './methods-page.js';
import { drawSummaryPage } from './summary-page.js';
import { drawTrendsPage } from './trends-page.js';

/** The full report: summary, trends, biomarkers, what changed, methods; numbered pages. */
export function renderFullReport(model: ReportModel): Promise<Buffer> {
  const doc = createDocument(model, 'Health report');
  drawSummaryPage(doc, model);
  drawTrendsPage(doc, model);
  drawBiomarkerPages(doc, model);
  drawChangesPage(doc, model);
  drawMethodsPage(doc, model);
  drawFooters(doc, 'assay health report  ·  Not medical advice or a clinical diagnosis.');
  return toBuffer(doc);
}
