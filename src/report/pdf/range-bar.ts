import type { RangeStatus } from '../model/biomarkers.js';
import type { OptimalRange } from '../model/optimal-ranges.js';
import { formatValue } from './format.js';
import type { Box, Doc } from './layout.js';
import { COLOR, FONT, SIZE } from './theme.js';

export interface RangeBarInput {
  latest: number | null;
  previous: number | null;
  optimal: OptimalRange | null;
  status: RangeStatus | null;
}

/** The axis a bar spans: every value and bound it shows, with room either side so markers never sit on an end. */
export function barScale(input: RangeBarInput): { lo: number; hi: number } {
  const points = [
    input.latest,
    input.previous,
    input.optimal?.low ?? null,
    input.optimal?.high ?? null,
  ].filter((v): v is number => v !== null && Number.isFinite(v));
  if (points.length === 0) return { lo: 0, hi: 1 };
  const min = Math.min(...points);
  const max = Math.max(...points);
  const pad = Math.max((max - min) * 0.4, Math.abs(max) * 0.15, 1e-6);
  const lo = min >= 0 ? Math.max(0, min - pad) : min - pad;
  return { lo, hi: max + pad };
}

const STATUS_COLOR: Record<RangeStatus, string> = {
  optimal: COLOR.good,
  above: COLOR.warn,
  below: COLOR.warn,
};

/**
 * A horizontal bar: the optimal zone shaded, the previous value as a hollow marker and the latest as a filled
 * one coloured by where it falls. Without a range the bar still places the value against its own history.
 */
export function drawRangeBar(doc: Doc, box: Box, input: RangeBarInput): void {
  const { lo, hi } = barScale(input);
  const xOf = (v: number) => box.x + ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * box.w;
  const trackY = box.y + 3;
  const trackH = 6;
  doc.roundedRect(box.x, trackY, box.w, trackH, 3).fill(COLOR.rule);
  const range = input.optimal;
  if (range) {
    const from = xOf(range.low ?? lo);
    const to = xOf(range.high ?? hi);
    doc.rect(from, trackY, Math.max(1, to - from), trackH).fill(COLOR.goodLight);
    doc.font(FONT.regular).fontSize(SIZE.tiny).fillColor(COLOR.muted);
    for (const bound of [range.low, range.high]) {
      if (bound === null) continue;
      const x = xOf(bound);
      doc
        .moveTo(x, trackY - 2)
        .lineTo(x, trackY + trackH + 2)
        .lineWidth(0.8)
        .stroke(COLOR.good);
      doc.text(formatValue(bound), x - 20, trackY + trackH + 3, {
        width: 40,
        align: 'center',
        lineBreak: false,
      });
    }
  }
  if (input.previous !== null) {
    doc
      .circle(xOf(input.previous), trackY + trackH / 2, 3)
      .lineWidth(1)
      .stroke(COLOR.faint);
  }
  if (input.latest !== null) {
    const color = input.status ? STATUS_COLOR[input.status] : COLOR.brand;
    doc.circle(xOf(input.latest), trackY + trackH / 2, 4.2).fillAndStroke(color, COLOR.white);
  }
}
