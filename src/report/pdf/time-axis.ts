import { fixed, formatAge, formatDate, formatMonth } from './format.js';

/** When a chart value was measured: the event's age (years) and, when the request gives one, its date. */
export interface TimePoint {
  age: number;
  /** YYYY-MM-DD, or null. */
  date: string | null;
}

export interface AxisLabel {
  /** Position the label names, pt from the plot's left edge. */
  x: number;
  /** Left edge of the text: centred under x, pulled in at the ends of the plot. */
  left: number;
  text: string;
}

export interface TimeAxis {
  /** Position of an age, pt from the plot's left edge: proportional to time, so gaps between visits show. */
  xOf(age: number): number;
  /** Every distinct event position, for tick marks: events whose label was left out stay marked. */
  marks: number[];
  labels: AxisLabel[];
  /** Positions of round calendar or age labels, for gridlines; empty when the labels name the events. */
  grid: number[];
}

export interface TimeAxisOptions {
  /** Width of a label's text, pt (the chart passes its font's metrics). */
  measure: (text: string) => number;
  /** Least room between two labels, pt. */
  gap?: number;
  /** How far a label may reach past either end of the plot, pt. */
  overhang?: number;
}

/** Below this span, months would name every event alike: label days instead. */
const DAY_LABEL_SPAN_DAYS = 62;
const DAYS_PER_YEAR = 365.2425;
const MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120];
const AGE_STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20];

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const dayMonth = (date: string) => formatDate(date).replace(/ \d{4}$/, '');
const yearOf = (date: string) => date.slice(0, 4);

/** 'Nov 2024' to 'Jun 2025', or whole dates when both ends fall in one month; null without dates. */
export function dateSpan(times: TimePoint[]): { from: string; to: string } | null {
  const first = times[0]?.date;
  const last = times.at(-1)?.date;
  if (!first || !last) return null;
  return formatMonth(first) === formatMonth(last)
    ? { from: formatDate(first), to: formatDate(last) }
    : { from: formatMonth(first), to: formatMonth(last) };
}

interface Layout {
  place(x: number, text: string): AxisLabel;
  /** b starts far enough right of a. */
  fits(a: AxisLabel, b: AxisLabel): boolean;
}

const allFit = (labels: AxisLabel[], layout: Layout) =>
  labels.every((l, i) => i === 0 || layout.fits(labels[i - 1] as AxisLabel, l));

interface EventLabel extends AxisLabel {
  date: string | null;
}

/**
 * One label per event, dropping an event whose label repeats the one before (the same month, the same date,
 * the same rounded age). Dates only when every event has one: dates and ages mixed would not read as one
 * scale. Day labels carry their year here, for measuring; repeated years go once the labels are chosen.
 */
function eventLabels(times: TimePoint[], xOf: (age: number) => number, layout: Layout) {
  const dates = times.flatMap((t) => (t.date ? [t.date] : []));
  const dated = dates.length > 0 && dates.length === times.length;
  const days = dates.map(dayNumber);
  const byDay = dated && Math.max(...days) - Math.min(...days) <= DAY_LABEL_SPAN_DAYS;
  const text = (t: TimePoint) => {
    if (!dated || !t.date) return `age ${formatAge(t.age)}`;
    return byDay ? formatDate(t.date) : formatMonth(t.date);
  };
  const all: EventLabel[] = times.map((t) => ({ ...layout.place(xOf(t.age), text(t)), date: t.date }));
  const labels = all.filter((l, i) => i === 0 || l.text !== all[i - 1]?.text);
  return { labels, dated, byDay };
}

/** Too many events to name each: the first and the last, then as many between as fit, left to right. */
function thinned(labels: EventLabel[], layout: Layout): EventLabel[] {
  const first = labels[0];
  const last = labels.at(-1);
  if (!first || !last || first === last) return labels.slice(0, 1);
  const chosen = [first];
  for (const l of labels.slice(1, -1)) {
    if (layout.fits(chosen.at(-1) as EventLabel, l) && layout.fits(l, last)) chosen.push(l);
  }
  // Only a plot too narrow for two labels gets here: the latest event is the one to name.
  if (layout.fits(chosen.at(-1) as EventLabel, last)) chosen.push(last);
  else chosen[chosen.length - 1] = last;
  return chosen;
}

/** Day labels say the year only at the end and where it changes: '6 Nov', '13 Nov 2024'. */
function dropRepeatedYears(labels: EventLabel[], layout: Layout): AxisLabel[] {
  return labels.map((l, i) => {
    const next = labels[i + 1]?.date;
    const keepYear = !l.date || !next || yearOf(next) !== yearOf(l.date);
    return keepYear ? l : layout.place(l.x, dayMonth(l.date as string));
  });
}

/** The first of every `step` months (every `step / 12` years when a whole year or more) from `lo` to `hi`. */
export function monthTicks(lo: string, hi: string, step: number): string[] {
  const [y, m, d] = lo.split('-').map(Number);
  let month = Math.ceil(((y ?? 0) * 12 + (m ?? 1) - 1 + ((d ?? 1) > 1 ? 1 : 0)) / step) * step;
  const ticks: string[] = [];
  for (;;) {
    const iso = `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`;
    if (iso > hi) return ticks;
    ticks.push(iso);
    month += step;
  }
}

/**
 * Round calendar labels (months, quarters, years), the finest whose labels all fit. A date becomes an age
 * through the events' own date-age pairs, so the labels line up with the points drawn by age.
 */
function calendarLabels(
  times: TimePoint[],
  xOf: (age: number) => number,
  layout: Layout,
): AxisLabel[] | null {
  const dated = times.flatMap((t) => (t.date ? [{ age: t.age, day: dayNumber(t.date) }] : []));
  const offset = dated.reduce((sum, t) => sum + t.age - t.day / DAYS_PER_YEAR, 0) / dated.length;
  const lo = times[0]?.date;
  const hi = times.at(-1)?.date;
  if (!lo || !hi) return null;
  for (const step of MONTH_STEPS) {
    const labels = monthTicks(lo, hi, step).map((iso) =>
      layout.place(xOf(dayNumber(iso) / DAYS_PER_YEAR + offset), step < 12 ? formatMonth(iso) : yearOf(iso)),
    );
    if (labels.length >= 2 && allFit(labels, layout)) return labels;
  }
  return null;
}

/** Round ages (every 0.1 to 20 years), the finest whose labels all fit. */
function ageLabels(lo: number, hi: number, xOf: (age: number) => number, layout: Layout): AxisLabel[] | null {
  for (const step of AGE_STEPS) {
    const ages: number[] = [];
    for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + 1e-9; k++) ages.push(k * step);
    const labels = ages.map((age) => layout.place(xOf(age), `age ${fixed(age, step < 1 ? 1 : 0)}`));
    if (labels.length >= 2 && allFit(labels, layout)) return labels;
  }
  return null;
}

/**
 * An x axis over the events' ages. Positions are proportional to age (exact time, unlike event indexes).
 * Labels name each event (by date when the events have dates, else by age) when they all fit; otherwise
 * round months, years or ages; else as many events as fit. No two labels repeat or overlap.
 */
export function timeAxis(times: TimePoint[], width: number, options: TimeAxisOptions): TimeAxis {
  const { measure, gap = 6, overhang = 6 } = options;
  const sorted = [...times].sort((a, b) => a.age - b.age);
  const lo = sorted[0]?.age ?? 0;
  const hi = sorted.at(-1)?.age ?? 0;
  const xOf = (age: number) => (hi > lo ? ((age - lo) / (hi - lo)) * width : width / 2);
  const layout: Layout = {
    place(x, text) {
      const w = measure(text);
      return { x, text, left: Math.min(Math.max(x - w / 2, -overhang), width + overhang - w) };
    },
    fits: (a, b) => a.left + measure(a.text) + gap <= b.left,
  };
  const marks = [...new Set(sorted.map((t) => xOf(t.age)))];
  const events = eventLabels(sorted, xOf, layout);
  const named = (labels: EventLabel[]) => (events.byDay ? dropRepeatedYears(labels, layout) : labels);
  if (allFit(events.labels, layout)) return { xOf, marks, labels: named(events.labels), grid: [] };
  const round = events.byDay
    ? null
    : events.dated
      ? calendarLabels(sorted, xOf, layout)
      : ageLabels(lo, hi, xOf, layout);
  if (round) return { xOf, marks, labels: round, grid: round.map((l) => l.x) };
  return { xOf, marks, labels: named(thinned(events.labels, layout)), grid: [] };
}
