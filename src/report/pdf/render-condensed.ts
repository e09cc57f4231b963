import type { BiomarkerRow } from '../model/biomarkers.js';
import type { ReportModel } from '../model/model.js';
import { missingLabel } from '../model/view.js';
import { drawAgeHero } from './age-hero.js';
import { latestText, rangeText, shownRange } from './biomarker-table.js';
import { domainNote, drawDomainCard } from './cards.js';
import { displayUnit, formatAge, formatDate, formatWhen } from './format.js';
import { type Box, createDocument, type Doc, drawFooters, NOT_ADVICE, toBuffer } from './layout.js';
import { drawRangeBar } from './range-bar.js';
import { drawTitleBand } from './summary-page.js';
import { COLOR, CONTENT_WIDTH, FONT, FOOTER_Y, PAGE, SIZE } from './theme.js';

const ROW_H = 25;
const LABEL_W = 116;

function compactRow(doc: Doc, row: BiomarkerRow, box: Box): void {
  doc
    .font(FONT.bold)
    .fontSize(SIZE.small)
    .fillColor(COLOR.ink)
    .text(row.label, box.x, box.y, { width: LABEL_W, height: 10, ellipsis: true });
  const caption = [
    row.latest_is_current ? '' : formatWhen(row.latest_date, row.latest_age),
    shownRange(row) ? `${row.optimal ? 'optimal ' : ''}${rangeText(row)}` : '',
  ]
    .filter(Boolean)
    .join('  ·  ');
  doc
    .font(FONT.regular)
    .fontSize(SIZE.tiny)
    .fillColor(COLOR.muted)
    .text(caption, box.x, box.y + 11, { width: LABEL_W, lineBreak: false, ellipsis: true });
  const value = latestText(row);
  doc
    .font(FONT.bold)
    .fontSize(SIZE.small)
    .fillColor(row.latest_doubtful ? COLOR.warn : COLOR.ink)
    .text(value, box.x + LABEL_W, box.y, {
      width: 40,
      align: 'right',
      lineBreak: false,
    });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.tiny)
    .fillColor(COLOR.muted)
    .text(displayUnit(row.unit), box.x + LABEL_W, box.y + 11, {
      width: 40,
      align: 'right',
      lineBreak: false,
    });
  const barX = LABEL_W + 48;
  drawRangeBar(
    doc,
    { x: box.x + barX, y: box.y + 1, w: box.w - barX - 4, h: 16 },
    { ...row, optimal: shownRange(row) },
  );
}

/** Biomarkers in two columns, as many as fit above the notice; says how many were left out. */
function biomarkerColumns(doc: Doc, rows: BiomarkerRow[], top: number, bottom: number): void {
  const gap = 20;
  const colW = (CONTENT_WIDTH - gap) / 2;
  const perColumn = Math.max(1, Math.floor((bottom - top) / ROW_H));
  const shown = rows.slice(0, perColumn * 2);
  shown.forEach((row, i) => {
    const col = Math.floor(i / perColumn);
    compactRow(doc, row, {
      x: PAGE.margin + col * (colW + gap),
      y: top + (i % perColumn) * ROW_H,
      w: colW,
      h: ROW_H,
    });
  });
  if (rows.length > shown.length) {
    doc
      .font(FONT.italic)
      .fontSize(SIZE.tiny)
      .fillColor(COLOR.muted)
      .text(`${rows.length - shown.length} more biomarkers are in the full report.`, PAGE.margin, bottom, {
        lineBreak: false,
      });
  }
}

/** The condensed report: one page for one event. */
export function renderCondensedReport(model: ReportModel): Promise<Buffer> {
  const doc = createDocument(model, 'Health snapshot');
  doc.addPage();
  const below = drawTitleBand(
    doc,
    model,
    'Your Health Snapshot',
    `${model.latest.event_date ? `Latest visit ${formatWhen(model.latest.event_date, null)}` : 'One health event'}  ·  age ${formatAge(model.chronological_age)}  ·  as of ${formatDate(model.asof)}`,
    92,
  );
  drawAgeHero(doc, { x: PAGE.margin, y: below + 14, w: CONTENT_WIDTH, h: 86 }, model, { compact: true });
  const cardsTop = below + 114;
  // Room under the figures for the line that dates values carried from an earlier visit.
  const cardHeight = model.latest.domains.some((d) => domainNote(model.latest, d, true)) ? 146 : 128;
  const gap = 8;
  const w = (CONTENT_WIDTH - gap * 4) / 5;
  model.latest.domains.forEach((domain, i) => {
    drawDomainCard(doc, { x: PAGE.margin + i * (w + gap), y: cardsTop, w, h: cardHeight }, domain, {
      compact: true,
      note: domainNote(model.latest, domain, true),
      missing: (input) => missingLabel(model, input),
    });
  });
  const listTop = cardsTop + cardHeight + 18;
  doc
    .font(FONT.bold)
    .fontSize(SIZE.subheading)
    .fillColor(COLOR.ink)
    .text('Biomarkers', PAGE.margin, listTop, { lineBreak: false });
  const noticeY = FOOTER_Y - 64;
  biomarkerColumns(doc, model.biomarkers, listTop + 20, noticeY - 14);

  const models = model.methods.map((m) => m.name).join(', ');
  doc
    .font(FONT.regular)
    .fontSize(SIZE.tiny)
    .fillColor(COLOR.muted)
    .text(
      `Models: ${models || 'none computed'}. Scores run from 0 to 100; higher is better.`,
      PAGE.margin,
      noticeY,
      {
        width: CONTENT_WIDTH,
        height: 18,
        ellipsis: true,
      },
    );
  doc.roundedRect(PAGE.margin, noticeY + 20, CONTENT_WIDTH, 28, 5).fill(COLOR.warnLight);
  doc
    .font(FONT.regular)
    .fontSize(SIZE.small)
    .fillColor(COLOR.ink)
    .text(NOT_ADVICE, PAGE.margin + 10, noticeY + 30, { width: CONTENT_WIDTH - 20, lineBreak: false });
  drawFooters(doc, `assay health snapshot  ·  scoring ${model.scoring_version}  ·  Not medical advice.`);
  return toBuffer(doc);
}
