/**
 * A page of tesseract's hOCR as the layout the text layer would give: words with their boxes in PDF
 * points, on baselines straightened, sorted into lines and cells. Which words are marks, flags, names,
 * dashes or specks is hocr-words.ts's business.
 */
import { buildLines, type Line, round, type TextItem } from '../pdf/layout.js';
import type { PageLayout } from '../pdf/pdf-text.js';
import { withoutColonMark } from './colon-mark.js';
import { type Box, type HocrLine, type HocrPage, type HocrWord, parseHocr } from './hocr.js';
import {
  boxOf,
  continuesName,
  heightOf,
  isPenMark,
  isRangeDash,
  isSpeck,
  RAISED_HEIGHT,
  splitFlagLetter,
  splitRaised,
  standsApart,
  withoutRules,
  withPowers,
} from './hocr-words.js';
import { RASTER_DPI } from './images.js';
import { median } from './median.js';
import { withNarrowFoursAsOnes } from './narrow-four.js';
import { repairOcrWord } from './repair.js';
import { withSpacedDashes } from './spaced-dash.js';
import { withSplitRangesJoined } from './split-ranges.js';

/** Words tesseract is less sure of than this (0-100) are dropped as noise. */
const MIN_CONFIDENCE = 30;

/**
 * A page of tesseract's hOCR (hocr.ts) as text items in PDF points, the baseline of each at its
 * line's, straightened. A word's confidence is its least sure character's. Small marks raised above a
 * line's baseline are split from the word they are glued to and kept as raised items, as the text layer
 * keeps Labcorp's footnote marks apart from the names they follow.
 */
export function pageFromHocr(
  hocr: string | HocrPage,
  pageNumber: number,
  dpi = RASTER_DPI,
  turned: readonly Box[] = [],
): PageLayout {
  const scale = 72 / dpi;
  const parsed = withSpacedDashes(typeof hocr === 'string' ? parseHocr(hocr) : hocr);
  const body = median(parsed.lines.filter((l) => l.words.length >= 2).map((l) => l.size));
  const words: OcrWord[] = [];
  // Values set after colons ("Name : 16900"), the layout narrow fours were measured in (narrow-four.ts).
  const colonLayout = parsed.lines.reduce((n, line) => n + valuesAfterColons(line), 0) >= COLON_LAYOUT;
  parsed.lines.forEach((line, n) => {
    const size = body !== null && Math.abs(line.size - body) <= SAME_SIZE * body ? body : line.size;
    const printed = median(line.words.filter((w) => w.chars.length >= 2).map(heightOf));
    line.words.forEach((word, at) => {
      if (at < line.words.length - 1 && isPenMark(word, line.words[at - 1], printed)) return;
      const afterName = continuesName(line.words[at - 1], word, line);
      // The first word of a line marks nothing before it: a name raised whole is a line's bent baseline.
      const apart = at === 0 || standsApart(line.words[at - 1], word, line);
      for (const split of splitRaised(word, line, afterName, apart).flatMap((p) =>
        splitFlagLetter(p, line),
      )) {
        const colonless = split.raised ? null : withoutColonMark(split.chars, colonLayout);
        const ones = split.raised || !colonLayout ? null : withNarrowFoursAsOnes(colonless ?? split.chars);
        const part = ones || colonless ? { ...split, chars: ones ?? colonless ?? split.chars } : split;
        const read = withoutRules(withPowers(part, line).trim());
        const box = boxOf(part.chars);
        const least = Math.min(...part.chars.map((c) => c.conf));
        const conf = turned.some((fill) => holds(fill, box)) ? Math.min(least, TURNED_CONFIDENCE) : least;
        const rangeDash = isRangeDash(read, line.words[at - 1], line.words[at + 1], line.size);
        const text = rangeDash && read === '=' ? '-' : read;
        if (text === '' || conf < MIN_CONFIDENCE || (!part.raised && isSpeck(text) && !rangeDash)) continue;
        const [left, top] = [box.left, box.top];
        const [w, h] = [box.right - box.left, box.bottom - box.top];
        words.push({
          text,
          line: String(n),
          left,
          top,
          w,
          h,
          conf,
          size,
          raised: part.raised,
          colonDropped: !!colonless || !!ones,
          inName: afterName,
        });
      }
    });
  });
  const straight = straighten(words, parsed.width, parsed.height);
  const items: TextItem[] = words.map((word, i) => {
    // A name's own word is as printed: "Vitamin D3" is no "Vitamin 03", "O2 Saturation" no "02".
    const repair =
      word.raised || word.inName ? { text: word.text, repaired: false } : repairOcrWord(word.text);
    return {
      str: repair.text,
      confidence: Math.round(word.conf),
      ...(repair.repaired || word.colonDropped ? { repaired: true } : {}),
      ...(word.raised ? { raised: true } : {}),
      x: round((straight.x[i] ?? word.left) * scale),
      y: round((straight.baseline[i] ?? word.top + word.h) * scale),
      width: round(word.w * scale),
      height: round(word.h * scale),
      fontSize: round((word.raised ? word.h / RAISED_HEIGHT : word.size) * scale),
    };
  });
  return {
    pageNumber,
    width: round(parsed.width * scale),
    height: round(parsed.height * scale),
    items,
    lines: ocrLines(items),
  };
}

/** A scan's words in lines and cells, with ranges the line cut into cells put back together. */
export function ocrLines(items: readonly TextItem[]): Line[] {
  return buildLines(items).map(withSplitRangesJoined);
}

/**
 * Light print turned dark on light (dark-fills.ts) reads less surely than print on paper: on a Boston
 * Heart report printed as a noisy scan, about half the values read from its filled cells were wrong
 * (`101` as `109`, `0.4` as `94`). A word read there counts as read with low confidence, so its row is
 * doubted (under the 80 a value needs to be trusted without a look), never dropped (30).
 */
const TURNED_CONFIDENCE = 60;

/** Whether the word's centre lies in the box. */
function holds(box: Box, word: Box): boolean {
  const [x, y] = [(word.left + word.right) / 2, (word.top + word.bottom) / 2];
  return x >= box.left && x < box.right && y >= box.top && y < box.bottom;
}

/** Lines whose font size is within this fraction of the page's body size are set in it. */
const SAME_SIZE = 0.12;

interface OcrWord {
  text: string;
  /** The line tesseract read the word on. */
  line: string;
  left: number;
  top: number;
  w: number;
  h: number;
  conf: number;
  /** The line's font size, in pixels. */
  size: number;
  raised: boolean;
  /** A colon read into the front of the number was dropped (colon-mark.ts), or a one read as a four put back (narrow-four.ts). */
  colonDropped: boolean;
  /** The word follows a word of letters at a space's distance: a later word of a name. */
  inName: boolean;
}

/** A word that is a colon alone (tesseract boxes the colon before a value apart from it). */
function isColonWord(word: HocrWord): boolean {
  return /^[:;]+$/.test(word.chars.map((c) => c.text).join(''));
}

/** Values after a colon standing alone that make a page a "Name : value" layout. */
const COLON_LAYOUT = 3;

/** How many of the line's numbers follow a colon standing alone (a scan's specks are no such colons). */
function valuesAfterColons(line: HocrLine): number {
  return line.words.filter(
    (word, i) => i > 0 && isColonWord(line.words[i - 1] as HocrWord) && /^\d/.test(word.chars[0]?.text ?? ''),
  ).length;
}

/** Lines shorter than this (pixels) say little about the page's slope. */
const MIN_SLOPE_SPAN = 200;

/**
 * Word positions on a page turned straight: one baseline per line tesseract read, and left edges that do
 * not drift down the page. A scan printed a degree askew drifts a table row by more than a line's height
 * across the page, so grouping words by their own y would split the row (tesseract follows the slant
 * itself), and moves a column's left edge by several points from the top of the page to the bottom, so
 * indents would say nothing. The page's slope (the median of its long lines' slopes) is taken out, and
 * every word of a line gets the line's median baseline.
 */
function straighten(
  words: readonly OcrWord[],
  pageWidth: number,
  pageHeight: number,
): { x: number[]; baseline: number[] } {
  const byLine = new Map<string, number[]>();
  words.forEach((word, i) => {
    byLine.set(word.line, [...(byLine.get(word.line) ?? []), i]);
  });
  const slopes: number[] = [];
  for (const members of byLine.values()) {
    const slope = fittedSlope(members.map((i) => words[i] as OcrWord).filter((w) => !w.raised));
    if (slope !== null) slopes.push(slope);
  }
  const slope = median(slopes) ?? 0;
  const [cx, cy] = [pageWidth / 2, pageHeight / 2];
  const straight = words.map((word) => word.top + word.h - slope * (word.left + word.w / 2 - cx));
  const baseline = new Array<number>(words.length);
  for (const members of byLine.values()) {
    // A raised mark's bottom is above the line's baseline: the line's own words say where that is.
    const printed = members.filter((i) => !(words[i] as OcrWord).raised);
    const line = median((printed.length > 0 ? printed : members).map((i) => straight[i] as number)) ?? 0;
    for (const i of members) baseline[i] = line;
  }
  const x = words.map((word) => word.left + slope * (word.top + word.h / 2 - cy));
  return { x, baseline };
}

/** Least-squares slope of word centres along one line, or null for a short line. */
function fittedSlope(line: readonly OcrWord[]): number | null {
  if (line.length < 3) return null;
  const xs = line.map((w) => w.left + w.w / 2);
  const ys = line.map((w) => w.top + w.h / 2);
  if (Math.max(...xs) - Math.min(...xs) < MIN_SLOPE_SPAN) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] ?? 0) - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? null : num / den;
}
