/**
 * The header row of a results table and the columns it defines. Labs name their columns in many ways
 * (Test / Tests / Test Name / Analyte / Component; Result / Current Result and Flag / In Range / Out Of
 * Range / Value; Units; Reference Range / Reference Interval / Standard Range; Lab / Site), so the words
 * are matched by meaning, in any order. A header is one signal: cells are then read by what they hold
 * (cell-kind.ts) as much as by where they sit.
 */
import type { Cell } from '../pdf/layout.js';
import type { LineView } from './line.js';
import { memoByText } from './text-memo.js';

/**
 * name: the test name; value: the result (with its flag, if printed together); flag, unit, range: their
 * own columns; previous: an earlier result and its date (history, never read as a result); lab: the
 * performing-site code; ignore: anything else a header names (footnotes, method, status); unknown: a
 * column inferred from content that holds none of these.
 */
export type ColumnRole =
  | 'name'
  | 'value'
  | 'flag'
  | 'unit'
  | 'range'
  | 'previous'
  | 'lab'
  | 'ignore'
  | 'unknown';

export interface Column {
  role: ColumnRole;
  /** Left edge: the header cell's x, less a little slack for text set slightly left of its header. */
  start: number;
}

export interface TableHeader {
  columns: Column[];
  /** x of the name column's header. */
  nameX: number;
  /** Where the first result column starts: text left of it belongs to the test name. */
  dataStart: number;
  /** A risk summary ("Result & Risk", bands per column): its rows repeat results printed elsewhere. */
  riskSummary: boolean;
}

/** Points of slack between a header's x and the text printed under it. */
export const COLUMN_SLACK = 4;

/** First match wins: "Previous Result" is history before it is a result, "In Range" a result. */
const VOCABULARY: ReadonlyArray<readonly [RegExp, ColumnRole | 'risk']> = [
  [/\b(previous|prior|last|historical|history)\b/, 'previous'],
  [/\brisk\b/, 'risk'],
  [/^(in range|out of range|out range|within range|outside range)$/, 'value'],
  [/\b(reference|normal|interval|expected|standard|ref)\b/, 'range'],
  [/\b(result|results|value|values|finding|findings|current|outcome)\b/, 'value'],
  [/\b(flag|flags|abnormal|abn|indicator)\b/, 'flag'],
  [/\b(unit|units|uom)\b/, 'unit'],
  [/\brange\b/, 'range'],
  [
    /\b(test|tests|analyte|analytes|component|components|description|name|examination|exam|biomarker|biomarkers|parameter|parameters|assay|determination|investigation|procedure|marker)\b/,
    'name',
  ],
  [/\b(lab|labs|site|performed|performing|location)\b/, 'lab'],
  [/\b(date|status|code|footnotes?|notes?|method|comments?|specimen)\b/, 'ignore'],
];

/** Header cells are short labels; a cell of more words is a sentence that happens to hold one. */
const MAX_LABEL_WORDS = 5;

export function columnRole(label: string): ColumnRole | 'risk' | null {
  return memoRole(label);
}

const memoRole = memoByText(roleOf);

function roleOf(label: string): ColumnRole | 'risk' | null {
  const key = labelKey(label);
  if (key === '' || key.split(' ').length > MAX_LABEL_WORDS) return null;
  return VOCABULARY.find(([pattern]) => pattern.test(key))?.[1] ?? null;
}

/** Words that join column labels ("Previous Result and Date") without naming a column themselves. */
const LABEL_JOINERS = new Set(['and', 'or', 'of', 'the', 'in', 'to', 'out', 'within', 'outside']);

/**
 * A cell that is a column's label, not a test: a label the vocabulary gives a role other than the name's,
 * every word of it a heading word ("Reference Range", "Abnormal Flag"). One heading word among others does
 * not make a label: "ABNORMAL CELLS" is a blood smear's finding, "Flag" alone a column.
 */
export function isColumnLabel(text: string): boolean {
  const role = columnRole(text);
  if (role === null || role === 'name') return false;
  return labelKey(text)
    .split(' ')
    .every((word) => LABEL_JOINERS.has(word) || VOCABULARY.some(([pattern]) => pattern.test(word)));
}

/**
 * "Normal | Abnormal": hospital reports print each result in one of two columns by whether it is in range
 * (as Quest prints "In Range | Out Of Range"). Alone, "Normal" heads a range ("Normal Values") and
 * "Abnormal" a flag; side by side, both are results.
 */
function splitResultColumns(cells: readonly Cell[], roles: Array<ColumnRole | 'risk' | null>): void {
  const at = (key: string) => cells.findIndex((cell) => labelKey(cell.text) === key);
  const [normal, abnormal] = [at('normal'), at('abnormal')];
  if (normal < 0 || abnormal < 0 || Math.abs(normal - abnormal) !== 1) return;
  roles[normal] = 'value';
  roles[abnormal] = 'value';
}

export function readHeader(line: LineView): TableHeader | null {
  const roles = line.cells.map((cell) => columnRole(cell.text));
  splitResultColumns(line.cells, roles);
  const known = roles.filter((role) => role !== null);
  // A report of one or two qualitative tests can head its table with two words alone ("Test | Result").
  const twoColumns = line.cells.length === 2 && roles[0] === 'name' && roles[1] === 'value';
  if ((known.length < 3 && !twoColumns) || known.length < line.cells.length - 1) return null;
  if (!known.includes('name') || !(known.includes('value') || known.includes('risk'))) return null;
  const columns: Column[] = [];
  let nameX = Number.POSITIVE_INFINITY;
  let dataStart = Number.POSITIVE_INFINITY;
  line.cells.forEach((cell, i) => {
    const found = roles[i] ?? 'ignore';
    const role: ColumnRole = found === 'risk' ? 'value' : found;
    columns.push({ role, start: cell.x - COLUMN_SLACK });
    if (role === 'name') nameX = Math.min(nameX, cell.x);
    else if (cell.x > nameX) dataStart = Math.min(dataStart, cell.x - COLUMN_SLACK);
  });
  if (!Number.isFinite(nameX) || !Number.isFinite(dataStart)) return null;
  return { columns, nameX, dataStart, riskSummary: known.includes('risk') };
}

/**
 * The role of the column an OCR'd cell lies in: the column its box overlaps most. A scan's header labels
 * are often centred over left-aligned text ("Unit" over "mill/cumm"), and a box's left edge moves a few
 * pixels with the page's skew, so a cell starting a hair left of its column's label still belongs to it.
 * Text from a text layer keeps its exact left edge and is placed by it (roleAt).
 */
export function roleOfSpan(x: number, right: number, header: TableHeader): ColumnRole {
  const columns = header.columns;
  let role: ColumnRole = 'name';
  let most = Math.min(right, columns[0]?.start ?? right) - x;
  columns.forEach((column, i) => {
    const end = columns[i + 1]?.start ?? Number.POSITIVE_INFINITY;
    const overlap = Math.min(end, right) - Math.max(column.start, x);
    if (overlap > most) {
      most = overlap;
      role = column.role;
    }
  });
  return role;
}

/** The role of the column a cell at x falls in: the rightmost column starting at or before it. */
export function roleAt(x: number, header: TableHeader): ColumnRole {
  let role: ColumnRole = 'name';
  for (const column of header.columns) {
    if (column.start <= x) role = column.role;
  }
  return role;
}

/** Header labels compared without case, spacing or punctuation differences. */
export function labelKey(label: string): string {
  return memoKey(label);
}

const memoKey = memoByText(keyOf);

function keyOf(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function joined(cells: readonly Cell[]): string {
  return cells
    .map((cell) => cell.text.trim())
    .filter((text) => text !== '')
    .join(' ');
}
