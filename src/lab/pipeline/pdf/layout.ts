/**
 * Rebuilds lines and table cells from positioned text items. Lab reports are tables drawn as loose text;
 * pdf.js returns the pieces with their positions but not the rows and columns, so rows are recovered by
 * baseline and columns by horizontal gaps. Pure geometry, no PDF access: easy to test and safe to run in a
 * worker thread.
 *
 * Coordinates are PDF points with the origin at the page's top-left corner; `y` is the text baseline.
 */
export interface TextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fontSize: number;
  /** OCR only: the reader's confidence in the word, 0-100. */
  confidence?: number;
  /** OCR only: the word was repaired from a misreading (ocr-repair.ts). */
  repaired?: boolean;
  /** OCR only: a small mark printed above the baseline, told by its characters' boxes (hocr-words.ts). */
  raised?: boolean;
}

export interface Cell {
  x: number;
  text: string;
  /** Right edge; absent on cells made by hand without widths. */
  right?: number;
  /** OCR only: the lowest confidence of the cell's words. */
  confidence?: number;
  /** OCR only: a word of the cell was repaired. */
  repaired?: boolean;
}

export interface Line {
  y: number;
  text: string;
  cells: Cell[];
}

export interface LayoutOptions {
  /** Items whose baselines differ by at most this fraction of the font size share a line. */
  lineTolerance?: number;
  /** A horizontal gap wider than this fraction of the font size starts a new cell. */
  cellGap?: number;
}

const DEFAULTS: Required<LayoutOptions> = { lineTolerance: 0.5, cellGap: 0.8 };

/** Pieces closer than this fraction of the font size are parts of one word, joined without a space. */
const TOUCHING = 0.1;

interface LineDraft {
  y: number;
  fontSize: number;
  items: TextItem[];
}

export function buildLines(items: readonly TextItem[], options: LayoutOptions = {}): Line[] {
  const opts = { ...DEFAULTS, ...options };
  const visible = items.filter((item) => item.str.trim() !== '');
  const sorted = [...visible].sort((a, b) => a.y - b.y || a.x - b.x);
  const drafts: LineDraft[] = [];
  for (const item of sorted) {
    const line = drafts.at(-1);
    if (line && Math.abs(item.y - line.y) <= opts.lineTolerance * Math.max(item.fontSize, line.fontSize)) {
      join(line, item);
    } else {
      drafts.push({ y: item.y, fontSize: item.fontSize, items: [item] });
    }
  }
  return drafts.flatMap(unstacked).map((draft) => toLine(draft, opts.cellGap));
}

/** Two stacked lines are this many of the smaller text's font sizes apart at least. */
const STACKED_GAP = 0.35;

/**
 * A scan's line made of two stacked lines of text: a letterhead's name in display type beside a slogan in
 * small type (`Vita Diagnostics Center` over `Modern, Reliable, Accessible`), whose baselines lie within the
 * large type's tolerance. Their words overlap across: read as one line they interleave ("Diagnostics
 * Modern, Center"). Split where the baselines part most, while words of the two parts overlap. Only OCR'd
 * words: a text layer's overlapping pieces are one word drawn twice (a bold face faked), not two lines.
 */
function unstacked(draft: LineDraft): LineDraft[] {
  if (draft.items.length < 2 || draft.items.some((item) => item.confidence === undefined)) return [draft];
  const byY = [...draft.items].sort((a, b) => a.y - b.y);
  let cut = 0;
  let widest = 0;
  for (let i = 1; i < byY.length; i++) {
    const gap = (byY[i] as TextItem).y - (byY[i - 1] as TextItem).y;
    if (gap > widest) [cut, widest] = [i, gap];
  }
  const [above, below] = [byY.slice(0, cut), byY.slice(cut)];
  const smaller = Math.min(...draft.items.map((item) => item.fontSize));
  if (cut === 0 || widest < STACKED_GAP * smaller || !above.some((a) => below.some((b) => overlap(a, b))))
    return [draft];
  return [above, below].flatMap((part) => unstacked(draftOf(part)));
}

/** The two items share more than half the narrower one's width. */
function overlap(a: TextItem, b: TextItem): boolean {
  const shared = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  return shared > 0.5 * Math.min(a.width, b.width);
}

function draftOf(items: TextItem[]): LineDraft {
  const largest = items.reduce((big, item) => (item.fontSize > big.fontSize ? item : big));
  return { y: largest.y, fontSize: largest.fontSize, items };
}

/**
 * The line keeps the baseline of its largest text, so a small raised mark (a footnote number, a lab code)
 * that sorts first does not pull the line off its real baseline.
 */
function join(line: LineDraft, item: TextItem): void {
  line.items.push(item);
  if (item.fontSize > line.fontSize) {
    line.fontSize = item.fontSize;
    line.y = item.y;
  }
}

function toLine(draft: LineDraft, cellGap: number): Line {
  const cells = cellsOf(draft.items, cellGap);
  return { y: round(draft.y), text: cells.map((cell) => cell.text).join(' '), cells };
}

/** The cells of one line's items: pieces closer than `cellGap` font sizes apart are one cell. */
export function cellsOf(lineItems: readonly TextItem[], cellGap = DEFAULTS.cellGap): Cell[] {
  const items = [...lineItems].sort((a, b) => a.x - b.x);
  const cells: Cell[] = [];
  let end = Number.NEGATIVE_INFINITY;
  let spaced = false;
  let current: Cell | undefined;
  for (const item of items) {
    const size = Math.max(item.fontSize, 1);
    const gap = item.x - end;
    const text = item.str.trim();
    if (current && gap <= cellGap * size) {
      // Two OCR'd words that overlap were read on two stacked lines of text, not as halves of one word.
      const apart = item.confidence !== undefined && gap < 0;
      const glued = gap < TOUCHING * size && !apart && !spaced && !/^\s/.test(item.str);
      item.confidence === undefined && gap < TOUCHING * size && !spaced && !/^\s/.test(item.str);
      current.text += glued ? text : ` ${text}`;
    } else {
      current = { x: round(item.x), text };
      cells.push(current);
    }
    end = Math.max(end, item.x + item.width);
    current.right = round(end);
    if (item.confidence !== undefined)
      current.confidence = Math.min(current.confidence ?? 100, item.confidence);
    if (item.repaired) current.repaired = true;
    spaced = /\s$/.test(item.str);
  }
  return cells;
}

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}
