/**
 * Measurements of the results table taken over the whole document before the walk: where result names
 * start, where panel headings start, the rows' font and spacing. Headings, sub-headings, wrapped names and
 * comments are recognised relative to them, so the walk needs no vendor-specific point sizes.
 */
import { COLUMN_SLACK } from './header.js';
import type { TableLine } from './table-lines.js';

export interface TableMetrics {
  /** The usual indent of a result row's name. */
  rowX: number;
  /**
   * The indent of panel headings when they sit left of the rows (Quest, Labcorp's reports); null when
   * headings and rows share one indent. A name-only line at the row indent is then a sub-heading.
   */
  headingX: number | null;
  /** The usual font size of result rows; null when the layout has no font information. */
  rowFont: number | null;
  /**
   * The usual row font of each page that has rows: an appendix or a portal's copy may set its whole table
   * smaller than the rest of the document, and its headings are measured against its own rows.
   */
  pageRowFont: ReadonlyMap<number, number>;
  /** The distance between consecutive result rows: the smallest seen, as rows may be spaced further apart. */
  rowPitch: number;
}

const DEFAULT_PITCH = 12;

export function measureTable(lines: readonly TableLine[], isRow: (line: TableLine) => boolean): TableMetrics {
  const rows = lines.filter(isRow);
  const rowX = mode(rows.map((line) => roundX(line.nameX))) ?? 0;
  const nameOnly = lines.filter((line) => line.name !== '' && line.value === null && line.range === null);
  const headingX = mode(nameOnly.map((line) => roundX(line.nameX)).filter((x) => x <= rowX - COLUMN_SLACK));
  return {
    rowX,
    headingX,
    rowFont: mode(rows.flatMap((line) => (line.view.font === null ? [] : [line.view.font]))),
    pageRowFont: pageFonts(rows),
    rowPitch: smallest(pitches(rows)) ?? DEFAULT_PITCH,
  };
}

function pageFonts(rows: readonly TableLine[]): Map<number, number> {
  const byPage = new Map<number, number[]>();
  for (const row of rows)
    if (row.view.font !== null)
      byPage.set(row.view.pageNumber, [...(byPage.get(row.view.pageNumber) ?? []), row.view.font]);
  const out = new Map<number, number>();
  for (const [page, fonts] of byPage) {
    const font = mode(fonts);
    if (font !== null) out.set(page, font);
  }
  return out;
}

/** Indents compared to the point: sub-point jitter between lines is not an indent. */
function roundX(x: number | null): number {
  return Math.round(x ?? 0);
}

function pitches(rows: readonly TableLine[]): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1];
    const b = rows[i];
    // Lines closer than a point are one line split by the layout, not two rows.
    if (a && b && a.view.pageNumber === b.view.pageNumber && b.view.y - a.view.y >= 1)
      gaps.push(b.view.y - a.view.y);
  }
  return gaps;
}

function mode(values: readonly number[]): number | null {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: number | null = null;
  let bestCount = 0;
  for (const [v, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && v < best)) {
      best = v;
      bestCount = count;
    }
  }
  return best;
}

function smallest(values: readonly number[]): number | null {
  return values.length === 0 ? null : Math.min(...values);
}
