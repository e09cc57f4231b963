import type { Box, Doc } from './layout.js';
import { COLOR, FONT, SIZE } from './theme.js';
import { type TimePoint, timeAxis } from './time-axis.js';

export interface ChartSeries {
  name: string;
  color: string;
  /** One value per time of the chart; null where that event did not measure it. */
  values: Array<number | null>;
  dashed?: boolean;
  /** A guide (chronological age) rather than a measurement: on its own it is no reason to draw a chart. */
  reference?: boolean;
}

export interface LineChartSpec {
  title: string;
  series: ChartSeries[];
  /** When the values were measured: one per value index. */
  times: TimePoint[];
  /** Fixed y range (scores 0-100); otherwise fitted to the data. */
  yDomain?: [number, number];
  yLabel?: string;
}

const isValue = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

export const pointCount = (series: ChartSeries): number => series.values.filter(isValue).length;

/** A line needs two measurements: with fewer in every series, a chart is a lone dot in an empty frame. */
export function worthAChart(series: ChartSeries[]): boolean {
  return series.some((s) => !s.reference && pointCount(s) >= 2);
}

/** Round tick steps (1, 2, 5 x 10^n) giving about `count` ticks over [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

function fittedDomain(series: ChartSeries[]): [number, number] {
  const values = series.flatMap((s) => s.values).filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return [0, 1];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const pad = Math.max((max - min) * 0.15, Math.abs(max) * 0.05, 1e-6);
  const ticks = niceTicks(min - pad, max + pad);
  return [Math.min(ticks[0] ?? min, min - pad), Math.max(ticks.at(-1) ?? max, max + pad)];
}

function legend(doc: Doc, series: ChartSeries[], x: number, y: number, w: number): void {
  let cx = x + w;
  doc.font(FONT.regular).fontSize(SIZE.tiny);
  for (const s of [...series].reverse()) {
    if (!s.name) continue;
    const tw = doc.widthOfString(s.name);
    cx -= tw;
    doc.fillColor(COLOR.muted).text(s.name, cx, y, { lineBreak: false });
    cx -= 12;
    doc.moveTo(cx, y + 3).lineTo(cx + 9, y + 3);
    if (s.dashed) doc.dash(2, { space: 1.5 });
    doc.lineWidth(1.6).stroke(s.color);
    doc.undash();
    cx -= 10;
  }
}

function chartTitle(doc: Doc, title: string, box: Box): void {
  // Narrow charts shrink their title rather than let it run into the next chart.
  doc.font(FONT.bold).fontSize(SIZE.subheading);
  if (doc.widthOfString(title) > box.w) doc.fontSize(SIZE.small);
  doc.fillColor(COLOR.ink).text(title, box.x, box.y, { width: box.w, lineBreak: false, ellipsis: true });
}

function yAxis(doc: Doc, box: Box, plot: Box, [lo, hi]: [number, number], yOf: (v: number) => number): void {
  doc.font(FONT.regular).fontSize(SIZE.tiny);
  const ticks = niceTicks(lo, hi);
  const step = (ticks[1] ?? hi) - (ticks[0] ?? lo);
  // As many decimals as the tick step needs: 0, 20, 40 rather than 0.000, 20.0, 40.0.
  const decimals = Math.max(0, Math.min(3, -Math.floor(Math.log10(step > 0 ? step : 1) + 1e-9)));
  for (const tick of ticks) {
    const y = yOf(tick);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.w, y)
      .lineWidth(0.4)
      .stroke(COLOR.rule);
    doc
      .fillColor(COLOR.muted)
      .text(tick.toFixed(decimals), box.x, y - 3, { width: 30, align: 'right', lineBreak: false });
  }
}

function xAxis(doc: Doc, plot: Box, times: TimePoint[]): (age: number) => number {
  doc.font(FONT.regular).fontSize(SIZE.tiny);
  const axis = timeAxis(times, plot.w, { measure: (text) => doc.widthOfString(text) });
  const bottom = plot.y + plot.h;
  for (const x of axis.grid) {
    doc
      .moveTo(plot.x + x, plot.y)
      .lineTo(plot.x + x, bottom)
      .lineWidth(0.4)
      .stroke(COLOR.rule);
  }
  for (const x of axis.marks) {
    doc
      .moveTo(plot.x + x, bottom)
      .lineTo(plot.x + x, bottom + 3)
      .lineWidth(0.6)
      .stroke(COLOR.faint);
  }
  for (const label of axis.labels) {
    doc.fillColor(COLOR.muted).text(label.text, plot.x + label.left, bottom + 5, { lineBreak: false });
  }
  return (age) => plot.x + axis.xOf(age);
}

/**
 * A line chart in vector graphics: gridlines with round ticks, one polyline per series with markers, x placed
 * by time and labelled by date or age (thinned so labels never collide). The axis spans only the events
 * that measured something here. Text stays text, so it is selectable and searchable.
 */
export function drawLineChart(doc: Doc, box: Box, spec: LineChartSpec): void {
  chartTitle(doc, spec.title, box);
  legend(doc, spec.series, box.x, box.y + 3, box.w);
  const plot = { x: box.x + 34, y: box.y + 22, w: box.w - 40, h: box.h - 40 };
  const shown = measuredOnly(spec);
  const domain = spec.yDomain ?? fittedDomain(shown.series);
  const [lo, hi] = domain;
  const yOf = (v: number) => plot.y + plot.h - ((v - lo) / (hi - lo)) * plot.h;
  yAxis(doc, box, plot, domain, yOf);
  if (spec.yLabel) {
    doc.fillColor(COLOR.faint).text(spec.yLabel, plot.x + 2, plot.y - 9, { lineBreak: false });
  }
  const xOf = xAxis(doc, plot, shown.times);
  for (const s of shown.series) {
    const points = shown.times.flatMap((time, i) => {
      const v = s.values[i];
      return isValue(v) ? [[xOf(time.age), yOf(v)] as const] : [];
    });
    drawSeries(doc, s, points, shown.times.length);
  }
}

/** The events where some measurement was made: a reference line alone does not stretch the axes. */
function measuredOnly(spec: LineChartSpec): Pick<LineChartSpec, 'times' | 'series'> {
  const keep = spec.times.map((_, i) => spec.series.some((s) => !s.reference && isValue(s.values[i])));
  const kept = <T>(xs: T[]) => xs.filter((_, i) => keep[i]);
  return { times: kept(spec.times), series: spec.series.map((s) => ({ ...s, values: kept(s.values) })) };
}

/**
 * One series: a line through its measurements, then a marker on each. Events that did not measure it are
 * skipped rather than breaking the line: with x by time the line between two visits is the same either way.
 */
function drawSeries(
  doc: Doc,
  s: ChartSeries,
  points: ReadonlyArray<readonly [number, number]>,
  n: number,
): void {
  const [first, ...rest] = points;
  if (!first) return;
  if (rest.length > 0) {
    doc.moveTo(first[0], first[1]);
    for (const [x, y] of rest) doc.lineTo(x, y);
    if (s.dashed) doc.dash(3, { space: 2 });
    doc.lineWidth(1.6).lineJoin('round').stroke(s.color);
    doc.undash();
  }
  // A lone measurement among lines is drawn larger, so it is not lost among the markers.
  const radius = rest.length === 0 ? 3.2 : n > 12 ? 1.8 : 2.6;
  for (const [x, y] of points) doc.circle(x, y, radius).lineWidth(0.8).fillAndStroke(s.color, COLOR.white);
}

export interface ValueCard {
  title: string;
  value: string;
  unit: string;
  /** When it was measured: 'on 6 Nov 2024', 'at age 49.0'. */
  when: string;
  color: string;
}

const VALUE_CARD_HEIGHT = 50;
const CARD_GAP = 10;
const CARD_MIN_WIDTH = 140;
const CARD_MAX_WIDTH = 200;

function drawValueCard(doc: Doc, box: Box, card: ValueCard): void {
  doc.roundedRect(box.x, box.y, box.w, box.h, 5).lineWidth(0.8).fillAndStroke(COLOR.white, COLOR.rule);
  doc.rect(box.x, box.y + 5, 3, box.h - 10).fill(card.color);
  const x = box.x + 10;
  const w = box.w - 16;
  doc.font(FONT.bold).fontSize(SIZE.small).fillColor(card.color);
  doc.text(card.title, x, box.y + 7, { width: w, height: 10, lineBreak: false, ellipsis: true });
  doc
    .font(FONT.bold)
    .fontSize(14)
    .fillColor(COLOR.ink)
    .text(card.value, x, box.y + 19, { lineBreak: false });
  const unitX = x + doc.widthOfString(card.value) + 3;
  doc.font(FONT.regular).fontSize(SIZE.small).fillColor(COLOR.muted);
  if (card.unit) {
    doc.text(card.unit, unitX, box.y + 23.5, { width: Math.max(10, x + w - unitX), lineBreak: false });
  }
  doc.fontSize(SIZE.tiny).text(card.when, x, box.y + 37, { width: w, lineBreak: false, ellipsis: true });
}

const cardsPerRow = (width: number) =>
  Math.max(1, Math.floor((width + CARD_GAP) / (CARD_MIN_WIDTH + CARD_GAP)));

/** The height `count` value cards take across `width`. */
export function valueCardsHeight(count: number, width: number): number {
  const rows = Math.ceil(count / cardsPerRow(width));
  return rows * VALUE_CARD_HEIGHT + Math.max(0, rows - 1) * CARD_GAP;
}

/**
 * What stands in for a chart when there is a single measurement: one card each, in rows across `box.w`.
 * Returns the height used.
 */
export function drawValueCards(doc: Doc, box: Omit<Box, 'h'>, cards: ValueCard[]): number {
  const perRow = Math.min(cardsPerRow(box.w), cards.length);
  const w = Math.min(CARD_MAX_WIDTH, (box.w - CARD_GAP * (perRow - 1)) / perRow);
  cards.forEach((card, i) => {
    const x = box.x + (i % perRow) * (w + CARD_GAP);
    const y = box.y + Math.floor(i / perRow) * (VALUE_CARD_HEIGHT + CARD_GAP);
    drawValueCard(doc, { x, y, w, h: VALUE_CARD_HEIGHT }, card);
  });
  return valueCardsHeight(cards.length, box.w);
}
