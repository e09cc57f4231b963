/**
 * Lines of a page with what the text layer says beyond their text: the size of their main font and the
 * small raised marks printed on them (Labcorp's performing-lab code and footnote letters, "A, 01"). The
 * marks are taken out of the cells, so a test name never carries them, and kept apart: a name followed
 * by a mark is complete, which tells a sub-heading from the wrapped tail of the row above it.
 */
import { type Cell, cellsOf } from '../pdf/layout.js';
import type { PageLayout } from '../pdf/pdf-text.js';
import { isFlag } from './flags.js';
import { columnRole } from './header.js';
import { MARK } from './labcorp-marks.js';
import type { LineView } from './line.js';

/** A mark is raised when it is this much smaller than the line's text ... */
const RAISED_SIZE = 0.8;
/** ... and its baseline sits at least this fraction of the line's font size above the line's. */
const RAISED_LIFT = 0.1;
/** ... and it is short: a site code, a footnote letter or number ("A, 01"), never a test's name ... */
const MARK_MAX_LENGTH = 8;
/** ... and it follows what it marks, no further from the text before it than this many font sizes. */
const MARK_GAP = 1.5;

/**
 * Labcorp's footnote letter and site code ("A,", "04") carried to the start of the next line when the name
 * they follow fills its own: still marks, though no text precedes them there.
 */
function carriedShape(item: PageLayout['items'][number], font: number): boolean {
  return item.fontSize < RAISED_SIZE * font && MARK.test(item.str.trim());
}

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
    // characters' boxes when it is read (hocr-words.ts), not by the word boxes here.
    const ocr = items.some((item) => item.confidence !== undefined);
    const smallAndHigh = (item: (typeof items)[number]) =>
      item.str.trim().length <= MARK_MAX_LENGTH &&
      item.fontSize < RAISED_SIZE * font &&
      item.y < view.y - RAISED_LIFT * font;
    // A mark follows what it marks: the first text of a line in a smaller font set a little higher is a
    // name printed smaller than the values beside it (Indian in-house layouts), and one set apart in a
    // column of its own is that column's cell (a unit a size smaller, `gm/dL`), not a mark.
    const marked = new Set(items.filter(smallAndHigh));
    const followsText = (item: (typeof items)[number]) => {
      const before = items.filter((other) => !marked.has(other) && other.x < item.x);
      if (before.length === 0) return false;
      return item.x - Math.max(...before.map((other) => other.x + other.width)) <= MARK_GAP * font;
    };
    // First on its line, set at the line's baseline or a hair above it: size and shape say it is a mark.
    const carried = (item: (typeof items)[number]) =>
      carriedShape(item, font) && items.every((other) => other.x >= item.x || carriedShape(other, font));
    const isRaised = (item: (typeof items)[number]) =>
      ocr ? item.raised === true : (marked.has(item) && followsText(item)) || carried(item);
    const raised = items.filter(isRaised).sort((a, b) => a.x - b.x);
    if (raised.length > 0) {
      view.raised = raised.map((item) => item.str.trim());
      view.cells = cellsOf(items.filter((item) => !isRaised(item)));
    }
    if (ocr) view.cells = joinWordCells(withoutArrow(view.cells, font), font);
  });
  return views.filter((view) => view.cells.length > 0);
}

/** How a scan reads Labcorp's out-of-range arrows (a filled triangle up or down) in their own column. */
const ARROW = /^(?:A|a|V|v|Vv|W|w|y)\.?$/;

/**
 * Labcorp prints an arrow left of an out-of-range result's name, a vector mark the text layer never gives
 * as text; a scan reads it as a letter ("A LDL-P", "v MCH"). The row's flag column says High or Low
 * anyway, so a lone arrow letter set apart before a name is no part of it.
 */
function withoutArrow(cells: readonly Cell[], font: number): readonly Cell[] {
  const [first, second] = cells;
  if (!first || !second || !ARROW.test(first.text.trim()) || !/^\p{L}/u.test(second.text)) return cells;
  const width = (first.right ?? first.x) - first.x;
  return width <= font && second.x - (first.right ?? first.x) >= 0.5 * font ? cells.slice(1) : cells;
}

/** OCR cells of words only (no digit) this close are one phrase: "Not" + "Estab.". */
const OCR_PHRASE_GAP = 1.2;
const WORDS_ONLY = /^[\p{L}.,()'/-]+(?: [\p{L}.,()'/-]+)*$/u;

/**
 * A scan's word boxes are tight and its font size is read from the letters' height, so the space in a
 * phrase can measure wider than the text layer's and split it into two cells; two cells of words at a
 * space's distance are joined again. Numbers, units and flags are never joined this way.
 */
function joinWordCells(cells: readonly Cell[], font: number): Cell[] {
  const out: Cell[] = [];
  for (const cell of cells) {
    const last = out.at(-1);
    const gap = last?.right === undefined ? Number.POSITIVE_INFINITY : cell.x - last.right;
    const phrase =
      last && isPhrasePart(last.text) && isPhrasePart(cell.text) && !areLabels(last.text, cell.text);
    if (last && phrase && gap <= OCR_PHRASE_GAP * font) {
      out[out.length - 1] = {
        ...last,
        text: `${last.text} ${cell.text}`,
        right: cell.right ?? last.right,
        ...(cell.confidence !== undefined
          ? { confidence: Math.min(last.confidence ?? 100, cell.confidence) }
          : {}),
        ...(cell.repaired ? { repaired: true } : {}),
      };
    } else out.push(cell);
  }
  return out;
}

const isPhrasePart = (text: string): boolean => WORDS_ONLY.test(text) && !isFlag(text);
/** Two column labels side by side ("Current Result and Flag", "Previous Result and Date") stay two. */
const areLabels = (a: string, b: string): boolean => columnRole(a) !== null && columnRole(b) !== null;

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
