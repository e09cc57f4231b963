/**
 * A range printed in brackets in its own column (`(12.0 - 15.0)`, `(<5.0)`), as hospital laboratories in
 * India print them. In brackets it read as no range at all: every row lost its range on a text layer, and
 * on a scan the rows were not read. The brackets are dropped before anything reads the line; what is inside
 * must read as a range by itself. Runs after the per-cent and absolute split (percent-absolute.ts), which
 * tells the two ranges of a differential apart by the count's brackets.
 */
import type { Cell } from '../pdf/layout.js';
import { cellKind } from './cell-kind.js';
import type { LineView } from './line.js';

const BRACKETED = /^\(\s*(.+?)\s*\)$/;

export function withBareRanges(view: LineView): LineView {
  if (!view.cells.some((cell) => cell.text.includes('('))) return view;
  const cells = view.cells.map(bare);
  return cells.some((cell, i) => cell !== view.cells[i]) ? { ...view, cells } : view;
}

function bare(cell: Cell): Cell {
  const inside = BRACKETED.exec(cell.text.trim())?.[1];
  if (inside === undefined) return cell;
  const kind = cellKind(inside);
  return kind === 'interval' || kind === 'bounded' ? { ...cell, text: inside } : cell;
}
