import type { BiomarkerRow } from '../model/biomarkers.js';
import type { ReportModel } from '../model/model.js';
import type { OptimalRange } from '../model/optimal-ranges.js';
import { displayUnit, formatSigned, formatValue, formatWhen, ordinal } from './format.js';
import { addPage, type Doc, sectionTitle, spaceLeft } from './layout.js';
import { drawRangeBar } from './range-bar.js';
import { COLOR, CONTENT_WIDTH, FONT, PAGE, SIZE } from './theme.js';

const COLUMNS = [
  { title: 'Biomarker', w: 150 },
  { title: 'Latest', w: 92 },
  { title: 'Against range', w: 150 },
  { title: 'Range', w: 64 },
  { title: 'Change', w: 60 },
] as const;
const ROW_H = 29;

function columnX(index: number): number {
  return PAGE.margin + COLUMNS.slice(0, index).reduce((sum, c) => sum + c.w, 0);
}

/** The range a row is drawn against: the published optimal range, else the lab's own reference range. */
export function shownRange(row: BiomarkerRow): OptimalRange | null {
  if (row.optimal) return row.optimal;
  return row.lab_range ? { ...row.lab_range, source: 'lab' } : null;
}

/** '< 170', 'at least 50', '40-60' ('lab 3.6-5.1' for a lab's range): how a range reads. */
export function rangeText(row: BiomarkerRow): string {
  const r = shownRange(row);
  if (!r) return 'none given';
  const prefix = r.source === 'lab' ? 'lab ' : '';
  if (r.low !== null && r.high !== null) return `${prefix}${formatValue(r.low)}-${formatValue(r.high)}`;
  if (r.high !== null) return `${prefix}up to ${formatValue(r.high)}`;
  return `${prefix}${formatValue(r.low)} or more`;
}

/** The latest value as the row prints it: '<0.2', '63', with a mark when extraction doubted it. */
export function latestText(row: BiomarkerRow): string {
  return `${row.latest_upper_bound ? '<' : ''}${formatValue(row.latest)}${row.latest_doubtful ? ' (?)' : ''}`;
}

/** The line under a value: its unit, its date when older than the latest visit, its percentile. */
function valueCaption(row: BiomarkerRow): string {
  const parts = [displayUnit(row.unit)];
  if (!row.latest_is_current) parts.push(formatWhen(row.latest_date, row.latest_age));
  else if (row.percentile !== null) parts.push(`${ordinal(row.percentile)} pct`);
  return parts.filter(Boolean).join('  ·  ');
}

function headerRow(doc: Doc): void {
  const y = doc.y;
  doc.rect(PAGE.margin, y, CONTENT_WIDTH, 18).fill(COLOR.panel);
  doc.font(FONT.bold).fontSize(SIZE.tiny).fillColor(COLOR.muted);
  COLUMNS.forEach((c, i) => {
    doc.text(c.title.toUpperCase(), columnX(i) + 6, y + 6, { width: c.w - 8, lineBreak: false });
  });
  doc.y = y + 22;
}

function bodyRow(doc: Doc, row: BiomarkerRow, shaded: boolean): void {
  const y = doc.y;
  if (shaded) doc.rect(PAGE.margin, y - 2, CONTENT_WIDTH, ROW_H).fill('#fafbfc');
  doc
    .font(FONT.bold)
    .fontSize(SIZE.body)
    .fillColor(COLOR.ink)
    .text(row.label, columnX(0) + 6, y + 2, { width: COLUMNS[0].w - 10, height: 24, ellipsis: true });
  doc
    .font(FONT.bold)
    .fontSize(SIZE.body)
    .fillColor(row.latest_doubtful ? COLOR.warn : COLOR.ink)
    .text(latestText(row), columnX(1) + 6, y + 2, { lineBreak: false });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.tiny)
    .fillColor(COLOR.muted)
    .text(valueCaption(row), columnX(1) + 6, y + 14, { width: COLUMNS[1].w - 4, lineBreak: false });
  drawRangeBar(
    doc,
    { x: columnX(2) + 6, y: y + 2, w: COLUMNS[2].w - 16, h: 20 },
    { ...row, optimal: shownRange(row) },
  );
  doc
    .font(FONT.regular)
    .fontSize(SIZE.small)
    .fillColor(shownRange(row) ? COLOR.ink : COLOR.faint)
    .text(rangeText(row), columnX(3) + 6, y + 4, { width: COLUMNS[3].w - 8, lineBreak: false });
  const change = row.latest !== null && row.previous !== null ? row.latest - row.previous : null;
  doc
    .fillColor(COLOR.ink)
    .text(formatSigned(change, change !== null && Math.abs(change) < 1 ? 2 : 1), columnX(4) + 6, y + 4, {
      width: COLUMNS[4].w - 8,
      lineBreak: false,
    });
  doc.y = y + ROW_H;
}

/** The biomarker table, one row per biomarker, continuing on new pages with the header repeated. */
export function drawBiomarkerPages(doc: Doc, model: ReportModel): void {
  addPage(doc, model, 'Biomarkers');
  sectionTitle(
    doc,
    'Your biomarkers',
    `Each biomarker's most recent value in the units the models use, dated when older than your latest visit; (?) marks a doubted value. Shaded: the optimal range where published, else the lab's own; hollow marker: your previous value.`,
  );
  if (model.biomarkers.length === 0) {
    doc
      .font(FONT.regular)
      .fontSize(SIZE.body)
      .fillColor(COLOR.muted)
      .text('No biomarker the models use was found.');
    return;
  }
  headerRow(doc);
  model.biomarkers.forEach((row, i) => {
    if (spaceLeft(doc) < ROW_H) {
      addPage(doc, model, 'Biomarkers (continued)');
      headerRow(doc);
    }
    bodyRow(doc, row, i % 2 === 1);
  });
  const note =
    'Optimal ranges are published guideline cut-points (sources on the Methods page); where none is published, the range the lab printed is shown ("lab"), and none is invented. "pct" is the percentile of your value among people of your sex and age in NHANES.';
  doc.font(FONT.italic).fontSize(SIZE.tiny);
  // A note that does not fit would spill onto a page of its own, without the running header.
  if (spaceLeft(doc) < doc.heightOfString(note, { width: CONTENT_WIDTH }) + 8)
    addPage(doc, model, 'Biomarkers (continued)');
  doc.moveDown(0.6).fillColor(COLOR.muted).text(note, PAGE.margin, doc.y, { width: CONTENT_WIDTH });
}
