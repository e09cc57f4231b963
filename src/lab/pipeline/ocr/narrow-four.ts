/**
 * A bold 1 read as a 4: tesseract gives the one's flag and foot the four's shape, but not its width. A
 * four's ink is as wide as the other digits' (1.0-1.15 of them on the fixtures' and real scans' faces),
 * a one's about three quarters; so in a number whose other digits agree, a "4" of a one's width was a one
 * ("46900" for 16900 beside 4000-11000, "84" for 81). Narrower still is no digit at all (a colon's sliver,
 * a glyph cut by the box) and is left as read, as is a number of fours and ones alone. A degraded scan can
 * box a printed four as narrow (0.68-0.71 where its point was lost, "49" for 4.9), so the caller asks this
 * only on pages that set their values after colons, the layout the misreading was seen in.
 */
import { agree, median } from './colon-mark.js';
import type { HocrChar } from './hocr.js';

/** A four this fraction of its word's other digits is a one's width (measured: 0.74-0.76) ... */
const ONE_WIDE = { min: 0.6, max: 0.82 } as const;
const NUMBER = /^\d+(?:[.,]\d+)?$/;

const widthOf = (c: HocrChar): number => c.box.right - c.box.left;

/** The word's characters with each four of a one's width read as a one; null when there is none. */
export function withNarrowFoursAsOnes(chars: readonly HocrChar[]): HocrChar[] | null {
  if (!NUMBER.test(chars.map((c) => c.text).join(''))) return null;
  const widths = chars.filter((c) => /^[02356789]$/.test(c.text)).map(widthOf);
  if (widths.length === 0 || !agree(widths)) return null;
  const full = median(widths);
  const oneWide = (c: HocrChar) =>
    c.text === '4' && widthOf(c) >= ONE_WIDE.min * full && widthOf(c) <= ONE_WIDE.max * full;
  if (!chars.some(oneWide)) return null;
  return chars.map((c) => (oneWide(c) ? { ...c, text: '1' } : c));
}
