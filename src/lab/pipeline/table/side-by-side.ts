/**
 * Two tables printed side by side (`LIVER FUNCTION TEST` on the left, `KIDNEY FUNCTION TEST` on the right,
 * under one header line `Test  Result  Unit  Range  Test  Result  Unit  Range`). Read line by line, each
 * line held two rows and read as neither: the report ended with no results. A header naming the test
 * column twice cuts the lines under it (and the panel titles just above it) where the second table
 * starts, down to the first line printed across that place; the left table is read first, then the right.
 * Band tables cut themselves (band-table.ts) and are left alone.
 */
import type { Cell } from '../pdf/layout.js';
import { bandHeader } from './band-header.js';
import { readHeader } from './header.js';
import type { LineView } from './line.js';

/** Lines above the header that may hold the two tables' titles. */
const TITLE_LINES = 2;

export function withSideBySideApart(views: readonly LineView[]): LineView[] {
  for (let h = 0; h < views.length; h++) {
    const cut = secondTableAt(views[h] as LineView);
    if (cut === null) continue;
    let start = h;
    while (start > 0 && h - start < TITLE_LINES && fitsEither(views[start - 1] as LineView, cut)) start--;
    let end = h + 1;
    while (end < views.length && fitsEither(views[end] as LineView, cut)) end++;
    const block = views.slice(start, end);
    const left = block.flatMap((view) => part(view, (cell) => cell.x < cut));
    const right = block.flatMap((view) => part(view, (cell) => cell.x >= cut));
    return [...views.slice(0, start), ...left, ...right, ...withSideBySideApart(views.slice(end))];
  }
  return [...views];
}

/** Where the second table starts, when the line is a header naming the test column twice. */
function secondTableAt(view: LineView): number | null {
  if (bandHeader(view.cells)) return null;
  const names = readHeader(view)?.columns.filter((column) => column.role === 'name') ?? [];
  return names.length === 2 ? (names[1]?.start ?? null) : null;
}

/** Nothing printed across the cut: every cell wholly left or right of it. */
function fitsEither(view: LineView, cut: number): boolean {
  return view.cells.every((cell) => cell.x >= cut || (cell.right ?? cell.x) < cut);
}

function part(view: LineView, side: (cell: Cell) => boolean): LineView[] {
  const cells = view.cells.filter(side);
  return cells.length === 0 ? [] : [{ ...view, cells }];
}
