/**
 * A range whose parts a scan's line split into cells of their own ("4.5" | "- 5.6", "40.0" | "-" |
 * "47.0"): a typewriter or a wide face prints the spaces round the dash wider than the gap that starts a
 * new cell. Read apart, the row looks like two ranges side by side (a table of bands) and is lost; the parts
 * are one cell again when together they make one range.
 */
import type { Cell, Line } from '../pdf/layout.js';

const BOUND = /^[<>]?\d[\d.,]*$/;
const DASH = /^[-\u2010-\u2015~]$/u;
const DASH_THEN_BOUND = /^[-\u2010-\u2015~]\s*\d[\d.,]*$/u;
const BOUND_THEN_DASH = /^[<>]?\d[\d.,]*\s*[-\u2010-\u2015~]$/u;

/** The line with each range split over two or three cells put back in one. */
export function withSplitRangesJoined(line: Line): Line {
  const cells: Cell[] = [];
  for (let i = 0; i < line.cells.length; i++) {
    const span = rangeSpan(line.cells, i);
    if (span === 1) {
      cells.push(line.cells[i] as Cell);
      continue;
    }
    cells.push(joined(line.cells.slice(i, i + span)));
    i += span - 1;
  }
  if (cells.length === line.cells.length) return line;
  return { ...line, cells, text: cells.map((cell) => cell.text).join(' ') };
}

/** How many cells from `i` make one range: 3, 2, or 1 when the cell stands alone. */
function rangeSpan(cells: readonly Cell[], i: number): number {
  const [a, b, c] = [cells[i], cells[i + 1], cells[i + 2]].map((cell) => cell?.text.trim() ?? '');
  const near = (n: number) => close(cells.slice(i, i + n));
  if (!BOUND.test(a as string))
    return BOUND_THEN_DASH.test(a as string) && BOUND.test(b as string) && near(2) ? 2 : 1;
  if (DASH.test(b as string) && BOUND.test(c as string) && near(3)) return 3;
  return DASH_THEN_BOUND.test(b as string) && near(2) ? 2 : 1;
}

/**
 * Each gap no wider than the widest part: the parts of one range sit a space or two apart, a value and
 * the range in the next column a column's width.
 */
function close(parts: readonly Cell[]): boolean {
  const widths = parts.map((cell) => (cell.right === undefined ? null : cell.right - cell.x));
  if (widths.some((w) => w === null)) return false;
  const widest = Math.max(...(widths as number[]));
  return parts.slice(1).every((cell, k) => cell.x - ((parts[k] as Cell).right as number) <= widest);
}

function joined(parts: readonly Cell[]): Cell {
  const first = parts[0] as Cell;
  const last = parts.at(-1) as Cell;
  const confidences = parts.flatMap((cell) => (cell.confidence === undefined ? [] : [cell.confidence]));
  return {
    x: first.x,
    text: parts.map((cell) => cell.text.trim()).join(' '),
    ...(last.right === undefined ? {} : { right: last.right }),
    ...(confidences.length ? { confidence: Math.min(...confidences) } : {}),
    ...(parts.some((cell) => cell.repaired) ? { repaired: true } : {}),
  };
}
