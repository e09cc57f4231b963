/**
 * A white-cell differential printed as two results on one line: the per cent, then the absolute count,
 * each with its own range, the absolute's in brackets (`NEUTROPHILS  60.9  %  4.9  40%-80%  (2.0-7.0)`), as
 * laboratories in Sri Lanka and India print it. Read as one row it had two ranges side by side, the mark of
 * an interpretive table, and both results were lost with nothing said. Such a line is cut into two lines
 * before anything reads it: the per cent under the printed name, the count under the name marked `(abs)`.
 * Indian laboratories also print the count as a second set of columns, value, unit and range again
 * (`Neutrophils  62  %  40 - 80  4464  /cumm  2000 - 7000`): cut the same way.
 */
import type { Cell } from '../pdf/layout.js';
import { isPercentRange } from '../results/ranges.js';
import { cellKind, startsName } from './cell-kind.js';
import type { LineView } from './line.js';
import { looksLikePercentSign } from './ocr-units.js';

/** What a differential's per cent can be. */
const MAX_PERCENT = 100;
/** `(2.0-7.0)`: a range in brackets. */
const BRACKETED_RANGE = /^\(\s*([<>]?\s*\d[\d.,]*\s*(?:-|–)\s*\d[\d.,]*)\s*\)$/;
/** `% 4.9`: the per cent sign and the count after it, read as one cell. */
const SIGN_THEN_COUNT = /^%\s+(\d[\d.,]*)$/;

/** The line as printed, or its per-cent and absolute halves. */
export function splitPercentAbsolute(view: LineView): LineView[] {
  const nameEnd = view.cells.findIndex((cell) => cellKind(cell.text) !== 'text');
  if (nameEnd < 1 || !startsName(view.cells[0]?.text ?? '')) return [view];
  const names = view.cells.slice(0, nameEnd);
  const data = view.cells.slice(nameEnd).flatMap(signThenCount);
  const halves = rangesAtTheEnd(data) ?? columnSets(data);
  if (!halves) return [view];
  return [
    { ...view, cells: [...names, ...halves.percent] },
    { ...view, cells: [absoluteName(names), ...halves.count] },
  ];
}

interface Halves {
  percent: Cell[];
  count: Cell[];
}

/** `60.9 % 4.9 40%-80% (2.0-7.0)`: both values first, then the per-cent range and the count's in brackets. */
function rangesAtTheEnd(data: readonly Cell[]): Halves | null {
  const [percentRange, countRange] = data.slice(-2);
  const bracketed = BRACKETED_RANGE.exec(countRange?.text.trim() ?? '');
  if (!percentRange || !countRange || !bracketed || !isPercentRange(percentRange.text)) return null;
  const [value, ...between] = data.slice(0, -2);
  if (!value || !isPercentValue(value)) return null;
  const sign = between[0]?.text.trim() === '%' ? between.slice(0, 1) : [];
  const count = between.slice(sign.length);
  return {
    percent: [value, ...sign, percentRange],
    count: [...count, { ...countRange, text: bracketed[1] as string }],
  };
}

/**
 * `62 % 40 - 80 4464 /cumm 2000 - 7000`: two sets of value, units and range. The first must be a per cent
 * (its unit or its range says so) and the second must not, so results beside previous results (`62 % 40-80
 * 58 % 40-80`) and interpretive tables (ranges with no value between them) are left as they are.
 */
function columnSets(data: readonly Cell[]): Halves | null {
  const ranges = data.flatMap((cell, i) => (isRange(cell) ? [i] : []));
  if (ranges.length !== 2) return null;
  const [firstRange, secondRange] = ranges as [number, number];
  const countAt = data.findIndex((cell, i) => i > firstRange && cellKind(cell.text) === 'number');
  if (countAt < 0 || countAt > secondRange) return null;
  const percent = data.slice(0, countAt);
  const count = data.slice(countAt);
  if (!percent[0] || !isPercentValue(percent[0]) || !onlyUnitsBesides(percent) || !onlyUnitsBesides(count)) {
    return null;
  }
  const perCent = (cells: readonly Cell[]) =>
    cells.slice(1).some((cell) => cell.text.includes('%') || looksLikePercentSign(cell.text));
  return perCent(percent) && !perCent(count) ? { percent, count } : null;
}

function isRange(cell: Cell): boolean {
  const kind = cellKind(cell.text);
  return kind === 'interval' || kind === 'bounded' || kind === 'rangeUnit';
}

/** A value, its range, and nothing besides but units and flags. */
function onlyUnitsBesides(cells: readonly Cell[]): boolean {
  return cells.slice(1).every((cell) => {
    const kind = cellKind(cell.text);
    return isRange(cell) || kind === 'unit' || kind === 'flag' || looksLikePercentSign(cell.text);
  });
}

function isPercentValue(cell: Cell): boolean {
  return cellKind(cell.text) === 'number' && Number(cell.text) <= MAX_PERCENT;
}

function signThenCount(cell: Cell): Cell[] {
  const found = SIGN_THEN_COUNT.exec(cell.text.trim());
  if (!found) return [cell];
  const { right: _, ...sign } = cell;
  return [
    { ...sign, text: '%' },
    { ...cell, text: found[1] as string },
  ];
}

/** The printed name, marked as the absolute count; one cell where the name ran over several. */
function absoluteName(names: readonly Cell[]): Cell {
  const first = names[0] as Cell;
  const last = names[names.length - 1] as Cell;
  const text = names.map((cell) => cell.text.trim()).join(' ');
  return { ...first, text: `${text} (abs)`, ...(last.right === undefined ? {} : { right: last.right }) };
}
