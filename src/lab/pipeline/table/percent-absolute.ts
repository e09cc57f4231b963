/**
 * A white-cell differential printed as two results on one line: the per cent, then the absolute count,
 * each with its own range, the absolute's in brackets (`NEUTROPHILS  60.9  %  4.9  40%-80%  (2.0-7.0)`), as
 * laboratories in Sri Lanka and India print it. Read as one row it had two ranges side by side, the mark of
 * an interpretive table, and both results were lost with nothing said. Such a line is cut into two lines
 * before anything reads it: the per cent under the printed name, the count under the name marked `(abs)`.
 */
import type { Cell } from '../pdf/layout.js';
import { isPercentRange } from '../results/ranges.js';
import { cellKind, startsName } from './cell-kind.js';
import type { LineView } from './line.js';

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
  const [percentRange, countRange] = data.slice(-2);
  const bracketed = BRACKETED_RANGE.exec(countRange?.text.trim() ?? '');
  if (!percentRange || !countRange || !bracketed || !isPercentRange(percentRange.text)) return [view];
  const [value, ...between] = data.slice(0, -2);
  if (!value || cellKind(value.text) !== 'number' || Number(value.text) > MAX_PERCENT) return [view];
  const sign = between[0]?.text.trim() === '%' ? between.slice(0, 1) : [];
  const count = between.slice(sign.length);
  return [
    { ...view, cells: [...names, value, ...sign, percentRange] },
    {
      ...view,
      cells: [absoluteName(names), ...count, { ...countRange, text: bracketed[1] as string }],
    },
  ];
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
