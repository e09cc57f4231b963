import type { ReportModel } from '../model/model.js';
import { domainOf, missingLabel } from '../model/view.js';
import { domainNote } from './cards.js';
import { formatAge } from './format.js';
import type { Box, Doc } from './layout.js';
import { COLOR, FONT, SIZE } from './theme.js';

/** "8.5 years younger" or "2.0 years older" than the calendar says; null when there is nothing to compare. */
export function ageVerdict(model: ReportModel): { text: string; color: string } | null {
  if (model.biological_age === null) return null;
  const diff = model.biological_age - model.chronological_age;
  if (Math.abs(diff) < 0.05) return { text: 'the same as your chronological age', color: COLOR.good };
  const years = `${formatAge(Math.abs(diff))} years`;
  return diff < 0
    ? { text: `${years} younger than your chronological age`, color: COLOR.good }
    : { text: `${years} older than your chronological age`, color: COLOR.warn };
}

function bigFigure(doc: Doc, label: string, value: string, note: string, x: number, y: number, size: number) {
  doc.font(FONT.bold).fontSize(SIZE.tiny).fillColor(COLOR.muted).text(label, x, y, { lineBreak: false });
  doc
    .font(FONT.bold)
    .fontSize(size)
    .fillColor(COLOR.brand)
    .text(value, x, y + 10, { lineBreak: false });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.tiny)
    .fillColor(COLOR.muted)
    .text(note, x, y + 12 + size, { lineBreak: false });
}

/** Biological age against chronological age: the report's headline, on a tinted panel. */
export function drawAgeHero(doc: Doc, box: Box, model: ReportModel, opts: { compact?: boolean } = {}): void {
  const size = opts.compact ? 28 : SIZE.hero;
  doc.roundedRect(box.x, box.y, box.w, box.h, 8).fill(COLOR.brandLight);
  const pad = 16;
  const top = box.y + (box.h - size - 30) / 2;
  const colW = opts.compact ? 120 : 140;
  const bio = model.biological_age;
  bigFigure(doc, 'BIOLOGICAL AGE', formatAge(bio), 'years, PhenoAge', box.x + pad, top, size);
  bigFigure(
    doc,
    'CHRONOLOGICAL AGE',
    formatAge(model.chronological_age),
    'years, at this event',
    box.x + pad + colW,
    top,
    size,
  );
  const textX = box.x + pad + 2 * colW;
  const textW = box.w - (textX - box.x) - pad;
  const verdict = ageVerdict(model);
  if (verdict) {
    doc
      .font(FONT.bold)
      .fontSize(opts.compact ? SIZE.subheading : 13)
      .fillColor(verdict.color)
      .text(`Your body is ${verdict.text}.`, textX, top + 6, { width: textW });
    doc
      .moveDown(0.3)
      .font(FONT.regular)
      .fontSize(SIZE.small)
      .fillColor(COLOR.muted)
      .text(
        `Your blood markers resemble those of a typical person aged ${formatAge(bio)}, by the PhenoAge model (Levine 2018).`,
        { width: textW },
      );
    const overall = domainOf(model.latest, 'overall');
    const note = overall ? domainNote(model.latest, overall) : null;
    if (note) doc.moveDown(0.2).font(FONT.italic).fontSize(SIZE.tiny).text(`${note}.`, { width: textW });
    return;
  }
  const missing = domainOf(model.latest, 'overall')?.inputs_missing ?? [];
  doc
    .font(FONT.bold)
    .fontSize(SIZE.subheading)
    .fillColor(COLOR.muted)
    .text('Biological age could not be computed.', textX, top + 6, { width: textW });
  if (missing.length > 0) {
    doc
      .moveDown(0.3)
      .font(FONT.regular)
      .fontSize(SIZE.small)
      .text(`Missing: ${missing.map((input) => missingLabel(model, input)).join(', ')}.`, {
        width: textW,
        height: box.h - 40,
        ellipsis: true,
      });
  }
}
