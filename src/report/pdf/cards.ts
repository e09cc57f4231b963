import type { DomainScore, EventScore } from '../../scoring/types.js';
import { DOMAIN_LABELS, inputLabel, modelLabel } from '../model/labels.js';
import { carriedInputs } from '../model/view.js';
import {
  displayUnit,
  formatAge,
  formatPercent,
  formatRatio,
  formatScore,
  formatValue,
  formatWhen,
} from './format.js';
import type { Box, Doc } from './layout.js';
import { COLOR, DOMAIN_COLOR, FONT, SIZE, scoreColor } from './theme.js';

/** A ring filled clockwise from twelve o'clock in proportion to a 0-100 score, the score in its middle. */
export function drawScoreRing(doc: Doc, cx: number, cy: number, r: number, score: number | null): void {
  const width = Math.max(3, r * 0.22);
  doc.circle(cx, cy, r).lineWidth(width).stroke(COLOR.rule);
  if (score !== null && score > 0) {
    const color = scoreColor(score);
    if (score >= 99.95) {
      doc.circle(cx, cy, r).lineWidth(width).stroke(color);
    } else {
      const angle = (score / 100) * 2 * Math.PI;
      const endX = cx + r * Math.sin(angle);
      const endY = cy - r * Math.cos(angle);
      const large = angle > Math.PI ? 1 : 0;
      doc
        .path(`M ${cx} ${cy - r} A ${r} ${r} 0 ${large} 1 ${endX.toFixed(3)} ${endY.toFixed(3)}`)
        .lineWidth(width)
        .lineCap('round')
        .stroke(color);
      doc.lineCap('butt');
    }
  }
  const size = Math.max(9, r * 0.62);
  doc
    .font(FONT.bold)
    .fontSize(size)
    .fillColor(COLOR.ink)
    .text(formatScore(score), cx - r, cy - size * 0.38, { width: 2 * r, align: 'center', lineBreak: false });
}

function cardFrame(doc: Doc, box: Box, domain: DomainScore): void {
  doc.roundedRect(box.x, box.y, box.w, box.h, 6).lineWidth(0.8).fillAndStroke(COLOR.white, COLOR.rule);
  doc.rect(box.x, box.y + 6, 3, box.h - 12).fill(DOMAIN_COLOR[domain.domain]);
}

function figure(doc: Doc, label: string, value: string, x: number, y: number, w: number): void {
  doc.font(FONT.regular).fontSize(SIZE.tiny).fillColor(COLOR.muted).text(label.toUpperCase(), x, y, {
    width: w,
    lineBreak: false,
  });
  doc
    .font(FONT.bold)
    .fontSize(SIZE.subheading)
    .fillColor(COLOR.ink)
    .text(value, x, y + 9, { width: w, lineBreak: false });
}

/** What a card says when the domain has no score: its value and category, or which inputs are missing. */
function unscoredBody(
  doc: Doc,
  domain: DomainScore,
  x: number,
  y: number,
  w: number,
  compact: boolean,
  missingLabel: (input: string) => string,
): void {
  if (domain.value !== null) {
    const unit = displayUnit(domain.unit);
    doc
      .font(FONT.bold)
      .fontSize(compact ? 13 : 18)
      .fillColor(COLOR.ink)
      .text(formatValue(domain.value), x, y, { width: w, lineBreak: false });
    doc.font(FONT.regular).fontSize(SIZE.tiny).fillColor(COLOR.muted);
    if (unit) doc.text(unit, x, doc.y + 1, { width: w, lineBreak: false });
    if (domain.category) {
      doc
        .font(FONT.bold)
        .fontSize(SIZE.small)
        .fillColor(COLOR.brand)
        .text(`Category ${domain.category}`, x, doc.y + 3, { width: w, lineBreak: false });
    }
    if (!compact) {
      doc
        .font(FONT.italic)
        .fontSize(SIZE.tiny)
        .fillColor(COLOR.muted)
        .text('A measured value: no risk score applies.', x, doc.y + 3, { width: w });
    }
    return;
  }
  if (domain.chosen_model) {
    // Its model applies but a value lies outside the range it was built on: more data would not help.
    doc.font(FONT.bold).fontSize(SIZE.body).fillColor(COLOR.muted).text('Not scored', x, y, { width: w });
    doc
      .font(FONT.regular)
      .fontSize(SIZE.tiny)
      .fillColor(COLOR.muted)
      .text('A value is outside the range its model was built on (see Methods).', x, doc.y + 2, { width: w });
    return;
  }
  doc.font(FONT.bold).fontSize(SIZE.body).fillColor(COLOR.muted).text('Not enough data', x, y, { width: w });
  if (domain.inputs_missing.length > 0) {
    const missing = domain.inputs_missing.map(missingLabel).join(', ');
    doc
      .font(FONT.regular)
      .fontSize(SIZE.tiny)
      .fillColor(COLOR.muted)
      .text(`Missing: ${missing}`, x, doc.y + 2, { width: w, height: compact ? 40 : 50, ellipsis: true });
  }
}

/**
 * One health domain: score ring, health age and risk ratio; for a value model its value and category; with
 * too little data, what is missing. `compact` is the condensed report's narrower card.
 */
export function drawDomainCard(
  doc: Doc,
  box: Box,
  domain: DomainScore,
  opts: { compact?: boolean; note?: string | null; missing?: (input: string) => string } = {},
): void {
  const compact = opts.compact ?? false;
  cardFrame(doc, box, domain);
  const pad = compact ? 8 : 12;
  const inner = { x: box.x + pad, w: box.w - 2 * pad };
  if (opts.note && domain.model !== null) {
    doc
      .font(FONT.italic)
      .fontSize(SIZE.tiny)
      .fillColor(COLOR.muted)
      .text(opts.note, inner.x, box.y + box.h - pad - (compact ? 15 : 8), {
        width: inner.w,
        height: compact ? 16 : 8,
        ellipsis: true,
      });
  }
  doc
    .font(FONT.bold)
    .fontSize(compact ? SIZE.small : SIZE.subheading)
    .fillColor(DOMAIN_COLOR[domain.domain])
    .text(DOMAIN_LABELS[domain.domain], inner.x, box.y + pad, { width: inner.w, lineBreak: false });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.tiny)
    .fillColor(COLOR.muted)
    .text(modelLabel(domain.model) || 'No model computed', inner.x, doc.y + 1, {
      width: inner.w,
      height: 8,
      ellipsis: true,
    });
  const top = box.y + pad + (compact ? 24 : 32);

  if (domain.health_score === null) {
    unscoredBody(doc, domain, inner.x, top, inner.w, compact, opts.missing ?? inputLabel);
    return;
  }
  if (compact) {
    const r = 19;
    drawScoreRing(doc, box.x + box.w / 2, top + r + 2, r, domain.health_score);
    const y = top + 2 * r + 10;
    figure(doc, 'Health age', formatAge(domain.health_age), inner.x, y, inner.w);
    figure(doc, 'Risk ratio', formatRatio(domain.risk_ratio), inner.x, y + 26, inner.w);
    return;
  }
  const r = 27;
  drawScoreRing(doc, inner.x + r + 2, top + r + 4, r, domain.health_score);
  const fx = inner.x + 2 * r + 16;
  const fw = inner.w - 2 * r - 16;
  figure(doc, 'Modelled risk', formatPercent(domain.risk), fx, top, fw);
  figure(doc, 'Health age', formatAge(domain.health_age), fx, top + 26, fw);
  figure(doc, 'Risk ratio', formatRatio(domain.risk_ratio), fx, top + 52, fw);
}

/**
 * What a card must say about where its numbers came from: values carried from an earlier visit (with their
 * dates), and doubted values used on request. Null when every input was measured at the event and trusted.
 */
export function domainNote(event: EventScore, domain: DomainScore, compact = false): string | null {
  const dates = [
    ...new Set(carriedInputs(event, domain.inputs_used).map((c) => formatWhen(c.date, c.age))),
  ].filter(Boolean);
  const doubted = domain.inputs_used.some((input) => {
    const source = event.input_sources[input];
    return source?.source === 'predictor' && source.doubtful === true;
  });
  const parts = [
    ...(dates.length > 0
      ? [`${compact ? 'Incl. values of' : 'Includes values from'} ${dates.join(', ')}`]
      : []),
    ...(doubted ? ['uses a doubted value'] : []),
  ];
  if (parts.length === 0) return null;
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
