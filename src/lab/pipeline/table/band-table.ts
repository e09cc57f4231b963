/**
 * Band tables: each result printed in the column of the band it falls in (`Optimal | Borderline |
 * Increased Risk`, `Low | Normal | High`), with each band's bounds on the line below it and the unit after
 * the last (Boston Heart's layout). Read as ordinary columns, the value sits under a range heading and the
 * bounds line looks like a row of its own; and such reports set two of these tables side by side on a page,
 * which a line-by-line reader mixes into one. So these tables have their own reader, opened by a header
 * whose columns are bands: each page is cut into the side-by-side tables its headers start, and a row is
 * its name (wrapped names included), its one value, and the bounds lines under it.
 *
 * The row's reference range is the band a laboratory calls reference (`Optimal`, `Normal`): the other bands
 * are risk categories beyond it. Its flag says on which side of that range the value lies, as the band it
 * is printed in shows. Bands of a population's thirds (`Low | Mid | High`) have no reference: no range,
 * no flag. Lines of a band table that look like a result but make no row (a chart's markers beside a
 * value) are reported as seen and not read.
 */

import type { ParsedPanel, ParsedRow } from '../../types.js';
import type { Cell } from '../pdf/layout.js';
import { parseReferenceRange } from '../results/ranges.js';
import { type BandHeader, bandHeader, bandsIn, headerOf, nearestBand, tableStarts } from './band-header.js';
import { type BandTables, claimSummaryCopies, isValue } from './band-summary.js';
import { cellKind, isUnit, startsName } from './cell-kind.js';
import { readHeader } from './header.js';
import type { LineView } from './line.js';
import { ocrReadingOf } from './ocr-reading.js';
import { splitRangeAndUnit } from './range-unit.js';
import { centreOf, lineBox, unionBox } from './row-box.js';
import { looksLikeResult } from './table-lines.js';

export type { BandTables } from './band-summary.js';

/** Headings are a few words ("Boston Heart Fatty Acid Balance Test"); a column's caption runs longer. */
const MAX_HEADING_WORDS = 6;
/** A wrapped name is printed within this many font sizes of its value's line. */
const NAME_REACH = 1.3;

/** One table's part of a printed line. */
interface Part {
  view: LineView;
  cells: Cell[];
}

export function readBandTables(pages: readonly (readonly LineView[])[]): BandTables {
  const out: BandTables = { panels: [], read: new Set(), unread: [] };
  for (const views of pages) readPage(views, out);
  if (out.read.size > 0) claimSummaryCopies(pages, out);
  return out;
}

function readPage(views: readonly LineView[], out: BandTables): void {
  const starts = tableStarts(views);
  if (starts.length === 0) return;
  const claimed = new Map<LineView, Set<number>>();
  starts.forEach((start, i) => {
    const end = starts[i + 1] ?? Number.POSITIVE_INFINITY;
    const parts = views.map((view) => ({ view, cells: view.cells.filter((c) => c.x >= start && c.x < end) }));
    for (const part of readStream(parts, out)) {
      const sides = claimed.get(part.view) ?? new Set<number>();
      sides.add(i);
      claimed.set(part.view, sides);
    }
  });
  for (const [view, sides] of claimed) {
    out.read.add(view);
    // The other table's part of a claimed line, where that table is no band table: seen, not read.
    starts.forEach((start, i) => {
      if (sides.has(i)) return;
      const cells = view.cells.filter(
        (c) => c.x >= start && c.x < (starts[i + 1] ?? Number.POSITIVE_INFINITY),
      );
      if (looksLikeResult({ cells })) out.unread.push(view);
    });
  }
}

/** A row being read: its name parts, value, the bounds under it. */
interface OpenRow {
  names: Part[];
  value: Cell;
  valuePart: Part;
  bounds: Part[];
  header: BandHeader;
}

/**
 * One table's parts of the page's lines, top to bottom: rows read into `out`; returns the parts it claimed
 * (every part from a band header to the next header that is not one).
 */
function readStream(parts: readonly Part[], out: BandTables): Part[] {
  const claimed: Part[] = [];
  let header: BandHeader | null = null;
  let panel: ParsedPanel | null = null;
  let row: OpenRow | null = null;
  let before: Part[] = [];
  let tableParts: Part[] = [];
  let used = new Set<LineView>();
  const finish = () => {
    if (row) {
      const read = rowOf(row);
      if (read) {
        panel ??= {
          panelName: 'Results',
          pageNumber: row.valuePart.view.pageNumber,
          rows: [],
          untitled: true,
        };
        if (!out.panels.includes(panel)) out.panels.push(panel);
        panel.rows.push(read);
        for (const part of [...row.names, row.valuePart, ...row.bounds]) used.add(part.view);
      }
    }
    row = null;
  };
  const close = () => {
    finish();
    for (const part of tableParts) if (!used.has(part.view) && seenResult(part)) out.unread.push(part.view);
    tableParts = [];
    used = new Set();
  };
  for (const whole of parts) {
    if (whole.cells.length === 0) continue;
    const opened = bandHeader(whole.cells);
    if (opened) {
      // A new header over the same column continues its panel until a heading says otherwise.
      close();
      header = opened;
      before = [];
      claimed.push(whole);
      continue;
    }
    if (header === null) continue;
    if (readHeader({ ...whole.view, cells: whole.cells }) !== null) {
      close();
      header = null;
      continue;
    }
    claimed.push(whole);
    tableParts.push(whole);
    // Interpretations and footnotes printed beside the rows are no part of them.
    const part = {
      view: whole.view,
      cells: whole.cells.filter((cell) => centreOf(cell) < (header as BandHeader).end),
    };
    if (part.cells.length === 0) {
      used.add(whole.view);
      continue;
    }
    const thirds = subHeader(part, header);
    if (thirds) {
      finish();
      header = thirds;
      used.add(part.view);
      continue;
    }
    const kind = kindOf(part, header);
    if (row !== null && row.bounds.length === 0 && kind !== 'text') {
      row.bounds.push(part);
    } else if (row !== null && row.bounds.length > 0 && kind === 'bounds') {
      row.bounds.push(part);
    } else if (
      row !== null &&
      kind === 'text' &&
      row.bounds.length === 0 &&
      near(part, row.valuePart) &&
      wrapsInto(part, row.valuePart, row.header)
    ) {
      row.names.push(part);
    } else if (kind === 'value') {
      finish();
      const names = before.filter((p) => near(p, part) && wrapsInto(p, part, header as BandHeader));
      const heading = headingOf(
        before.filter((p) => !names.includes(p)),
        header,
        part.view.font,
      );
      if (heading !== null) {
        panel = { panelName: heading.text, pageNumber: part.view.pageNumber, rows: [] };
        used.add(heading.part.view);
      }
      const value = bandCells(part, header)[0] as Cell;
      row = { names: [...names, part], value, valuePart: part, bounds: [], header };
      before = [];
    } else {
      finish();
      // Whole, ignored columns and all: a chart's row is told by the values beside it.
      before.push(whole);
    }
  }
  close();
  return claimed;
}

/** A name with numbers beside it (a chart's values, two values to a row) that made no row. */
function seenResult(part: Part): boolean {
  if (looksLikeResult(part)) return true;
  const [first, ...rest] = part.cells;
  return (
    first !== undefined &&
    startsName(first.text) &&
    /[A-Za-z]{2}/.test(first.text) &&
    rest.some((cell) => cellKind(cell.text) === 'number')
  );
}

/** A line of band words alone under a band header: the same columns, now of a population's thirds. */
function subHeader(part: Part, header: BandHeader): BandHeader | null {
  const found = part.cells.flatMap(bandsIn);
  if (found.length < 2 || found.length !== part.cells.length) return null;
  const next = headerOf(found, part.cells);
  return next ? { ...next, start: header.start, end: header.end } : null;
}

type PartKind = 'value' | 'bounds' | 'text';

function kindOf(part: Part, header: BandHeader): PartKind {
  const cells = bandCells(part, header);
  if (cells.length === 0) return 'text';
  const texts = cells.map((cell) => cell.text.trim());
  if (texts.length === 1 && isValue(texts[0] as string)) return 'value';
  return texts.every(isBound) ? 'bounds' : 'text';
}

/** Cells starting under the bands (a name may run long to the right: it starts left of them). */
function bandCells(part: Part, header: BandHeader): Cell[] {
  return part.cells.filter((cell) => cell.x >= header.start && centreOf(cell) < header.end);
}

function nameCells(part: Part, header: BandHeader): Cell[] {
  return part.cells.filter((cell) => cell.x < header.start);
}

/** A band's bounds (`<200`, `200-240`, `<70 or >125`), with the unit after the last, or the unit alone. */
function isBound(text: string): boolean {
  const kind = cellKind(text);
  if (kind === 'bounded' || kind === 'interval' || kind === 'rangeUnit' || kind === 'unit') return true;
  if (/^\S+\s+or\s+\S+$/i.test(text)) return text.split(/\s+or\s+/i).every(isBound);
  return isUnit(text) || /^m²$/.test(text);
}

/**
 * A line just above or below a value's line is part of its name where the value's line prints none
 * ("Saturated Fatty Acid" over "31.4" over "Index"), or where it ends where that name ends (names set flush
 * right): a heading just above ("Other Tests" over "CoQ10") or a chart's caption below is neither.
 */
function wrapsInto(line: Part, valuePart: Part, header: BandHeader): boolean {
  const own = nameCells(valuePart, header);
  if (own.length === 0) return true;
  const rightOf = (cells: Cell[]) => Math.max(...cells.map((cell) => cell.right ?? cell.x));
  const names = nameCells(line, header);
  return names.length > 0 && Math.abs(rightOf(names) - rightOf(own)) <= 2;
}

function near(part: Part, valuePart: Part): boolean {
  const font = valuePart.view.font ?? 10;
  return Math.abs(part.view.y - valuePart.view.y) <= NAME_REACH * font;
}

/**
 * The heading above a table's rows: the last short line before them that is no sentence or label, no line
 * seen as a result (a chart's rows lie between a heading and the next table's rows), and set no smaller
 * than the rows (a column's caption is).
 */
function headingOf(
  lines: readonly Part[],
  header: BandHeader,
  rowFont: number | null,
): { text: string; part: Part } | null {
  for (const part of [...lines].reverse()) {
    if (seenResult(part)) continue;
    if (rowFont !== null && part.view.font !== null && part.view.font < rowFont) continue;
    const text = part.cells
      .filter((cell) => centreOf(cell) < header.end)
      .map((cell) => cell.text.trim())
      .join(' ')
      .replace(/\s+/g, ' ');
    if (
      text !== '' &&
      !/[:.]$|:\s/.test(text) &&
      text.split(' ').length <= MAX_HEADING_WORDS &&
      /^[A-Za-z]/.test(text)
    )
      return { text, part };
  }
  return null;
}

function rowOf(row: OpenRow): ParsedRow | null {
  const { header } = row;
  const name = row.names
    .flatMap((part) => nameCells(part, header))
    .map((cell) => cell.text.trim())
    .join(' ')
    .replace(/\s+/g, ' ');
  if (!/^[\p{L}(]/u.test(name)) return null;
  const value = row.value.text.trim();
  const bounds = boundsByBand(row);
  const reference = header.reference === null ? null : (bounds.ranges.get(header.reference) ?? null);
  const ocr = ocrReadingOf([row.value, ...row.bounds.flatMap((part) => bandCells(part, header))]);
  return {
    ...(ocr ? { ocr } : {}),
    biomarker: name,
    resultValue: value,
    resultUnit: bounds.unit,
    referenceRangeText: reference,
    // A value with no bounds under it is no band's: where it sits says nothing.
    flag:
      row.bounds.length === 0
        ? null
        : flagOf(value, nearestBand(centreOf(row.value), header), reference, header),
    pageNumber: row.valuePart.view.pageNumber,
    bbox: [...row.names, row.valuePart, ...row.bounds]
      .map((part) => lineBox({ ...part.view, cells: rowCells(part, header) }))
      .reduce(unionBox),
  };
}

/** A line's cells that belong to the table's row (not an interpretation printed beside it). */
function rowCells(part: Part, header: BandHeader): Cell[] {
  const cells = part.cells.filter((cell) => centreOf(cell) < header.end);
  return cells.length > 0 ? cells : part.cells;
}

/** Each band's bounds as printed, and the unit printed after the last (or on a line of its own). */
function boundsByBand(row: OpenRow): { ranges: Map<number, string>; unit: string | null } {
  const ranges = new Map<number, string>();
  const units: string[] = [];
  for (const cell of row.bounds.flatMap((part) => bandCells(part, row.header))) {
    const text = cell.text.trim().replace(/\s+/g, ' ');
    const split = /\sor\s/i.test(text) ? { range: text, unit: null } : splitRangeAndUnit(text);
    const range = split.range !== null && /\d/.test(split.range) ? split.range : null;
    const unit = range === null ? text : split.unit;
    if (range !== null) ranges.set(nearestBand(centreOf(cell), row.header), range);
    if (unit !== null) units.push(unit);
  }
  return { ranges, unit: units.length > 0 ? units.join(' ') : null };
}

/** Printed in the reference band: no flag; else the side of the reference range the value lies on. */
function flagOf(value: string, band: number, reference: string | null, header: BandHeader): string | null {
  if (header.reference === null || band === header.reference) return null;
  const number = Number(value.replace(/^[<>]=?\s*/, ''));
  const { min, max } = parseReferenceRange(reference);
  if (Number.isFinite(number) && max !== null && number > max) return 'H';
  if (Number.isFinite(number) && min !== null && number < min) return 'L';
  return band < header.reference ? 'L' : header.bands[header.reference]?.word === 'normal' ? 'H' : 'A';
}
