/**
 * Where a result row is printed: the box around the lines it was read from, in PDF points from the page's
 * top-left corner (the layout's coordinates), so a reviewer can be shown the row on the page image.
 */
import type { RowBox } from '../../types.js';
import type { Cell } from '../pdf/layout.js';
import type { LineView } from './line.js';

/** Lines carry their baseline; text rises about one font size above it and descends a quarter below. */
const ASCENT = 1;
const DESCENT = 0.25;
/** A line with no text items (rebuilt by hand) is taken as 10 pt type. */
const DEFAULT_FONT = 10;

/** The box of one line: its cells from the first's left edge to the last's right edge. */
export function lineBox(view: LineView): RowBox {
  const font = view.font ?? DEFAULT_FONT;
  const left = Math.min(...view.cells.map((c) => c.x));
  const right = Math.max(...view.cells.map((c) => c.right ?? c.x + c.text.length * font * 0.5));
  const top = view.y - ASCENT * font;
  return {
    page: view.pageNumber,
    x: round(left),
    y: round(top),
    width: round(right - left),
    height: round((ASCENT + DESCENT) * font),
  };
}

/** The smallest box holding both (the first's page: rows never span pages). */
export function unionBox(a: RowBox, b: RowBox): RowBox {
  if (a.page !== b.page) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    page: a.page,
    x,
    y,
    width: round(Math.max(a.x + a.width, b.x + b.width) - x),
    height: round(Math.max(a.y + a.height, b.y + b.height) - y),
  };
}

/** A cell's horizontal centre; a cell made by hand without its width is taken as 5 pt a character. */
export function centreOf(cell: Cell): number {
  return cell.right === undefined ? cell.x + cell.text.trim().length * 2.5 : (cell.x + cell.right) / 2;
}

const round = (n: number) => Math.round(n * 10) / 10;
