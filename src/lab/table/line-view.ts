/**
 * Lines of a page with what the text layer says beyond their text: the size of their main font and the
 * small raised marks printed on them (Labcorp's performing-lab code, footnote numbers). Vendor parsers use
 * the font to tell panel headings and comments from result rows, and drop the raised marks from names.
 */
import type { Cell } from '../layout.js';
import type { PageLayout } from '../pdf-text.js';

export interface LineView {
  pageNumber: number;
  y: number;
  cells: Cell[];
  /** Size of the line's largest text; null when the layout carries no text items (e.g. rebuilt by OCR). */
  font: number | null;
  /** Text of small marks printed above the baseline. */
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
  for (const item of page.items) itemsByLine[nearestLine(views, item.y)]?.push(item);
  views.forEach((view, i) => {
    const items = itemsByLine[i] ?? [];
    if (items.length === 0) return;
    const font = Math.max(...items.map((item) => item.fontSize));
    view.font = font;
    view.raised = items
      .filter((item) => item.fontSize < RAISED_SIZE * font && item.y < view.y - RAISED_LIFT * font)
      .map((item) => item.str.trim());
  });
  return views;
}

function nearestLine(views: readonly LineView[], y: number): number {
  let best = 0;
  views.forEach((view, i) => {
    if (Math.abs(view.y - y) < Math.abs((views[best]?.y ?? 0) - y)) best = i;
  });
  return best;
}
