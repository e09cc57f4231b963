/**
 * A range printed with spaces round its dash ("0 - 190") that tesseract read as one word ("0-190"): at 200
 * dpi and below a space is a few pixels, and tesseract keeps a word whole unless the gap is wide. Each
 * character's box still shows the spaces, so the word is split where the dash stands a space apart on both
 * sides, as tesseract does with wider spaces, and the range reads as printed. A space is told against the
 * face's own spacing, measured between the digits of the page's numbers: Labcorp's face sets digits 0.4
 * of a digit's width apart, so its tight `0-99` leaves that much beside the dash, as wide as a spaced dash
 * in the tighter faces of the Indian reports the rule was first measured on (spaced: the spacing plus
 * 0.5-0.9 of a digit's width each side; tight: the spacing plus 0-0.25).
 */
import type { HocrChar, HocrPage, HocrWord } from './hocr.js';
import { median } from './median.js';

/** Both gaps at least the face's spacing and this fraction of a digit's width make the dash spaced. */
const SPACED = 0.35;
/** The spacing taken where a page has no two digits side by side to measure. */
const UNMEASURED_SPACING = 0.1;
const DASH = /^[-\u2010-\u2015]$/u;

const widthOf = (c: HocrChar): number => c.box.right - c.box.left;

/** The page with every spaced dash of a range its own word. */
export function withSpacedDashes(page: HocrPage): HocrPage {
  const words = page.lines.flatMap((line) => line.words);
  const spacing = median(words.flatMap(digitSpacings)) ?? UNMEASURED_SPACING;
  return {
    ...page,
    lines: page.lines.map((line) => ({
      ...line,
      words: line.words.flatMap((word) => splitSpacedDashes(word, spacing)),
    })),
  };
}

/** A word's digits' width, and where each character's ink would end were it a digit of that width. */
function measure(word: HocrWord) {
  const full = median(word.chars.filter((c) => /^[02-9]$/.test(c.text)).map(widthOf));
  // A 1 is narrower than its advance (digits share one width): its edges are where a full digit's would be.
  const edge = (c: HocrChar, side: 'left' | 'right'): number => {
    if (c.text !== '1' || full === null) return c.box[side];
    const centre = (c.box.left + c.box.right) / 2;
    return side === 'left' ? centre - full / 2 : centre + full / 2;
  };
  return { full, edge };
}

/** The gaps between the word's neighbouring digits, as fractions of its digits' width. */
function digitSpacings(word: HocrWord): number[] {
  const { full, edge } = measure(word);
  if (full === null || full <= 0) return [];
  return word.chars.flatMap((c, i) => {
    const next = word.chars[i + 1];
    return next && /\d/.test(c.text) && /\d/.test(next.text)
      ? [(edge(next, 'left') - edge(c, 'right')) / full]
      : [];
  });
}

/**
 * The word split into three (bound, dash, bound) at each spaced dash between digits; the word itself when
 * no dash is spaced. `spacing` is the face's gap between digits, as a fraction of a digit's width.
 */
export function splitSpacedDashes(word: HocrWord, spacing = UNMEASURED_SPACING): HocrWord[] {
  const { chars } = word;
  const { full, edge } = measure(word);
  if (full === null || full <= 0) return [word];
  const cuts: number[] = [];
  chars.forEach((c, i) => {
    const [before, after] = [chars[i - 1], chars[i + 1]];
    if (!DASH.test(c.text) || !before || !after) return;
    if (!/\d/.test(before.text) || !/\d/.test(after.text)) return;
    const gaps = [c.box.left - edge(before, 'right'), edge(after, 'left') - c.box.right];
    if (gaps.every((gap) => gap >= (spacing + SPACED) * full)) cuts.push(i);
  });
  if (cuts.length === 0) return [word];
  const parts: HocrChar[][] = [];
  let start = 0;
  for (const cut of cuts) {
    parts.push(chars.slice(start, cut), [chars[cut] as HocrChar]);
    start = cut + 1;
  }
  parts.push(chars.slice(start));
  return parts.filter((p) => p.length > 0).map(wordOf);
}

function wordOf(chars: HocrChar[]): HocrWord {
  return {
    chars,
    box: {
      left: Math.min(...chars.map((c) => c.box.left)),
      top: Math.min(...chars.map((c) => c.box.top)),
      right: Math.max(...chars.map((c) => c.box.right)),
      bottom: Math.max(...chars.map((c) => c.box.bottom)),
    },
  };
}
