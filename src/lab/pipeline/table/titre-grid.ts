/**
 * Titre grids: an agglutination test (the Widal test above all) printed as a grid, one antigen per line
 * and one column per dilution (1:20, 1:40 ... 1:320), each cell a mark: `+` where the serum agglutinated,
 * `-` where it did not. The result a reader takes from the grid is each antigen's titre, the highest
 * dilution marked positive, and that is the row's value; an antigen positive at no dilution reads
 * `<1:20` (below the lowest dilution tested). The general reader sees only a name and loose marks here, so
 * these lines have their own reader, opened by a header line of dilutions.
 *
 * A line is read only when it has exactly one mark under every dilution and its positives run unbroken
 * from the lowest dilution: anything else (a mark lost to OCR, a grid that reads `+ - +`) is no titre
 * anyone could state, and the line is reported as seen and not read.
 */

import type { ParsedPanel, ParsedRow } from '../../types.js';
import type { Cell } from '../pdf/layout.js';
import type { LineView } from './line.js';
import { ocrReadingOf } from './ocr-reading.js';
import { centreOf, lineBox } from './row-box.js';

export interface TitreGrids {
  panels: ParsedPanel[];
  /** Lines read here, which the general reader must not read again. */
  read: Set<LineView>;
  /** Antigen lines whose marks give no titre: seen, not read. */
  unread: LineView[];
}

/** A dilution as printed in a grid's header: `1:20`, `1/40`, `1 : 80`. */
const DILUTION = /^1\s*[:/]\s*(\d{2,5})$/;
/** Fewer columns than this is a titre printed as a value, which the general reader reads. */
const MIN_DILUTIONS = 3;
/** `+`, `(+)`, and the brackets as a scan may read them (`{+)`). */
const POSITIVE = /^(?:[({[]?\+{1,4}[)}\]]?|\+\s*ve|pos(?:itive)?|reactive)$/i;
const NEGATIVE = /^(?:[({[]?[-–—][)}\]]?|-\s*ve|neg(?:ative)?|nil|non[-\s]?reactive)$/i;
/** The heading word over a grid, taken as the panel's name when the line above the header says it. */
const GRID_HEADING = /\b(?:widal|agglutination|weil[-\s]?felix|brucella|titre|titer)\b/i;

/** The method printed under the test's heading, "(Slide Agglutination Method)": not the test's name. */
const METHOD = /^\(|\bmethod\b/i;
/** Lines between a grid's heading and its header of dilutions (a method or specimen line between). */
const HEADING_REACH = 3;

interface Column {
  printed: string;
  centre: number;
}

/** Every titre grid of the document, page by page. */
export function readTitreGrids(pages: readonly (readonly LineView[])[]): TitreGrids {
  const out: TitreGrids = { panels: [], read: new Set(), unread: [] };
  for (const views of pages) readPage(views, out);
  return out;
}

function readPage(views: readonly LineView[], out: TitreGrids): void {
  let columns: Column[] | null = null;
  let panel: ParsedPanel | null = null;
  let heading: { text: string; seen: number } | null = null;
  for (const [at, view] of views.entries()) {
    const header = headerColumns(view);
    if (header) {
      columns = header.columns;
      // The test's heading a line or two above ("WIDAL TEST", then its method), else the header's label.
      const named = heading && at - heading.seen <= HEADING_REACH ? heading.text : null;
      panel = { panelName: named ?? header.label ?? 'Titre', pageNumber: view.pageNumber, rows: [] };
      out.read.add(view);
      continue;
    }
    const line = columns ? antigenLine(view, columns) : null;
    if (columns && panel && line) {
      if (line.titre === null) out.unread.push(view);
      else {
        if (panel.rows.length === 0) out.panels.push(panel);
        panel.rows.push(rowOf(line.name, line.titre, view));
      }
      out.read.add(view);
      continue;
    }
    columns = null;
    panel = null;
    const text = view.cells.map((cell) => cell.text.trim()).join(' ');
    if (GRID_HEADING.test(text) && !METHOD.test(text) && view.cells.length <= 2) heading = { text, seen: at };
  }
}

/**
 * A header of dilutions, increasing left to right, after an optional label cell ("Antigen", "Dilution").
 * A header whose dilutions pdf.js set as one cell is split into words spread over the cell's width.
 */
function headerColumns(view: LineView): { columns: Column[]; label: string | null } | null {
  const cells = view.cells.filter((cell) => cell.text.trim() !== '');
  const first = cells.findIndex((cell) => DILUTION.test(cell.text.trim()) || splitDilutions(cell) !== null);
  if (first < 0 || first > 1) return null;
  const columns = withColonsRead(
    cells.slice(first).flatMap((cell) => splitDilutions(cell) ?? [columnOf(cell)]),
  );
  if (columns.length < MIN_DILUTIONS || !columns.every((c) => DILUTION.test(c.printed))) return null;
  const folds = columns.map((c) => Number(DILUTION.exec(c.printed)?.[1]));
  if (folds.some((fold, i) => i > 0 && fold <= (folds[i - 1] as number))) return null;
  // A label is a word ("Antigen"); a speck a scan read before the dilutions is none.
  const printed = first === 1 ? (cells[0]?.text.trim() ?? '') : '';
  const label = /\p{L}{2}/u.test(printed) ? printed : null;
  return { columns, label };
}

/**
 * `1160` between `1:80` and `1:320`: a scan lost the colon of `1:160`. Dilutions double from column to
 * column, so a `1` followed by twice the fold before it is that dilution.
 */
function withColonsRead(columns: readonly Column[]): Column[] {
  return columns.map((column, i) => {
    const lost = /^1(\d{2,5})$/.exec(column.printed);
    const before = DILUTION.exec(columns[i - 1]?.printed ?? '');
    if (!lost || !before || Number(lost[1]) !== 2 * Number(before[1])) return column;
    return { ...column, printed: `1:${lost[1]}` };
  });
}

function columnOf(cell: Cell): Column {
  const text = cell.text.trim();
  return { printed: text.replace(/\s+/g, ''), centre: centreOf(cell) };
}

function splitDilutions(cell: Cell): Column[] | null {
  const words = cell.text.trim().split(/\s+(?=1\s*[:/])/);
  if (words.length < 2 || !words.every((w) => DILUTION.test(w))) return null;
  const width = (cell.right ?? cell.x + cell.text.length * 5) - cell.x;
  return words.map((w, i) => ({
    printed: w.replace(/\s+/g, ''),
    centre: cell.x + ((i + 0.5) * width) / words.length,
  }));
}

/**
 * An antigen's line: its name left of the first dilution, then one mark per dilution. `titre` is null when
 * the marks are all there but give no titre; the whole result is null when the line is no antigen line.
 */
function antigenLine(
  view: LineView,
  columns: readonly Column[],
): { name: string; titre: string | null } | null {
  const firstCentre = columns[0]?.centre ?? 0;
  const cells = view.cells.filter((cell) => cell.text.trim() !== '');
  const nameCells = cells.filter((cell) => cell.x < firstCentre - columnGap(columns) / 2);
  const markCells = cells.slice(nameCells.length);
  // Specks a scan reads before a name (`>. TYPHI`) are no part of it.
  const name = nameCells
    .map((cell) => cell.text.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/^[^A-Za-z]+(?=[A-Za-z])/, '');
  if (!/^[A-Za-z]/.test(name) || markCells.length === 0) return null;
  const marked = markCells.filter((cell) => cell.text.trim().split(/\s+/).every(isMark)).length;
  // A mark a scan misread (`(>)`) among marks: the antigen's line, seen, with no titre to state.
  if (marked < markCells.length) return 2 * marked >= markCells.length ? { name, titre: null } : null;
  const marks = marksByColumn(markCells, columns);
  // Marks and nothing else, but not one under each dilution (a mark lost, two in a column): no titre.
  if (marks === null) return { name, titre: null };
  const positive = marks.map((mark) => POSITIVE.test(mark));
  const last = positive.lastIndexOf(true);
  // Agglutination weakens as the serum is diluted: a positive after a negative is a misread or a misprint.
  if (positive.slice(0, last + 1).includes(false)) return { name, titre: null };
  if (last < 0) return { name, titre: `<${columns[0]?.printed}` };
  return { name, titre: columns[last]?.printed ?? null };
}

function columnGap(columns: readonly Column[]): number {
  const [a, b] = columns;
  return a && b ? b.centre - a.centre : 30;
}

function isMark(text: string): boolean {
  return POSITIVE.test(text) || NEGATIVE.test(text);
}

/** One mark under each dilution, matched by position (or, from a single cell, by count); else null. */
function marksByColumn(cells: readonly Cell[], columns: readonly Column[]): string[] | null {
  if (cells.length === 1) {
    const words = (cells[0] as Cell).text.trim().split(/\s+/);
    return words.length === columns.length && words.every(isMark) ? words : null;
  }
  const marks: Array<string | undefined> = columns.map(() => undefined);
  const reach = columnGap(columns) / 2;
  for (const cell of cells) {
    const text = cell.text.trim();
    const at = nearest(columns, centreOf(cell));
    if (Math.abs((columns[at] as Column).centre - centreOf(cell)) > reach || marks[at] !== undefined)
      return null;
    marks[at] = text;
  }
  return marks.every((mark) => mark !== undefined) ? (marks as string[]) : null;
}

function nearest(columns: readonly Column[], x: number): number {
  let best = 0;
  columns.forEach((column, i) => {
    if (Math.abs(column.centre - x) < Math.abs((columns[best] as Column).centre - x)) best = i;
  });
  return best;
}

function rowOf(name: string, titre: string, view: LineView): ParsedRow {
  const ocr = ocrReadingOf(view.cells);
  return {
    ...(ocr ? { ocr } : {}),
    biomarker: name,
    resultValue: titre,
    resultUnit: null,
    referenceRangeText: null,
    flag: null,
    pageNumber: view.pageNumber,
    ...(view.cells.length > 0 ? { bbox: lineBox(view) } : {}),
  };
}
