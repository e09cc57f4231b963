/**
 * Lines of a page with what the text layer says beyond their text: the size of their main font and the
 * small raised marks printed on them (Labcorp's performing-lab code and footnote letters, "A, 01"). The
 * marks are taken out of the cells, so a test name never carries them, and kept apart: a name followed
 * by a mark is complete, which tells a sub-heading from the wrapped tail of the row above it.
 */
import { type Cell, cellsOf } from '../layout.js';
import type { PageLayout } from '../pdf-text.js';

export interface LineView {
  pageNumber: number;
  y: number;
  cells: Cell[];
  /** Size of the line's largest text; null when the layout carries no text items (e.g. rebuilt by OCR). */
  font: number | null;
  /** Text of small marks printed above the baseline, in reading order. */
  raised: string[];
}

/** A mark is raised when it is this much smaller than the line's text ... */
const RAISED_SIZE = 0.8;
/** ... and its baseline sits at least this fraction of the line's font size above the line's. */
const RAISED_LIFT = 0.1;

export function viewLines(page: PageLayout): LineView[] {
  const views: LineView[] = page.lines.map((line) => ({
    pageNumber: page.pageNumber,
    y: line.y,
    cells: line.cells,
    font: null,
    raised: [],
  }));
  if (views.length === 0) return views;
  const itemsByLine = views.map(() => [] as PageLayout['items']);
  for (const item of page.items) {
    if (item.str.trim() !== '') itemsByLine[nearestLine(views, item.y)]?.push(item);
  }
  views.forEach((view, i) => {
    const items = itemsByLine[i] ?? [];
    if (items.length === 0) return;
    const font = Math.max(...items.map((item) => item.fontSize));
    view.font = font;
    // OCR word boxes vary in height with their letters (mg/dL, (BUN)): a scan's marks are told by their
    // characters' boxes when it is read (ocr.ts), not by the word boxes here.
    const ocr = items.some((item) => item.confidence !== undefined);
    const isRaised = (item: (typeof items)[number]) =>
      ocr ? item.raised === true : item.fontSize < RAISED_SIZE * font && item.y < view.y - RAISED_LIFT * font;
    const raised = items.filter(isRaised).sort((a, b) => a.x - b.x);
    if (raised.length === 0) return;
    view.raised = raised.map((item) => item.str.trim());
    view.cells = cellsOf(items.filter((item) => !isRaised(item)));
  });
  return views.filter((view) => view.cells.length > 0);
}

/** Lines are sorted by y: a binary search finds the closest baseline. */
function nearestLine(views: readonly LineView[], y: number): number {
  let lo = 0;
  let hi = views.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((views[mid]?.y ?? 0) < y) lo = mid + 1;
    else hi = mid;
  }
  const before = lo > 0 ? lo - 1 : lo;
  const dLo = Math.abs((views[lo]?.y ?? 0) - y);
  const dBefore = Math.abs((views[before]?.y ?? 0) - y);
  return dBefore < dLo ? before : lo;
}
