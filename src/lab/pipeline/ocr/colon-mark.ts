/**
 * Layouts that print "Name : value" set the colon close to the value, and tesseract reads it into the
 * number as a digit, a colon or a dash: ": 78.3" becomes `778.3`, `:0.03` or `-0,2`. The glyph gives it
 * away by its box: a colon is a fraction of a digit's width, and as tall as one (a minus sign is as narrow
 * but flat). Only a word that is a number once the mark is dropped is touched, and never for a `1`, whose
 * box is narrow by nature.
 */
import type { HocrChar } from './hocr.js';

/** A mark this much narrower than the word's digits is no digit. */
const NARROW = 0.5;
/** A mark at least this fraction of their height is a colon or a rule, not a minus sign; a "digit" below it is a speck. */
const TALL = 0.5;
const NUMBER = /^\d+(?:[.,]\d+)?$/;

/** The word's characters without a colon read into its front; null when there is none to drop. */
export function withoutColonMark(chars: readonly HocrChar[], colonLayout = false): HocrChar[] | null {
  const [first, ...rest] = chars;
  if (!first || !NUMBER.test(rest.map((c) => c.text).join(''))) return null;
  if (!/^[-:;|!\d]$/.test(first.text) || first.text === '1') return null;
  const digits = rest.filter((c) => /^[02-9]$/.test(c.text));
  const widths = digits.map((c) => c.box.right - c.box.left);
  const heights = digits.map((c) => c.box.bottom - c.box.top);
  // The digits' boxes are the measure only where they agree: tesseract sometimes boxes a digit with a rule
  // or the next glyph, and one odd box would make a real digit look narrow.
  // One digit to measure by is enough only on a page that sets its values after colons, and only for a
  // mark a third of its width ("415" for ": 15").
  if (
    digits.length === 1 &&
    !(colonLayout && first.box.right - first.box.left <= SLIVER * (widths[0] as number))
  )
    return null;
  if (digits.length === 0 || !agree(widths) || !agree(heights)) return null;
  const width = median(widths);
  const height = median(heights);
  const [w, h] = [first.box.right - first.box.left, first.box.bottom - first.box.top];
  // A flat mark before a number is a minus sign.
  if (first.text === '-') return w <= NARROW * width && h >= TALL * height ? rest : null;
  // A "digit" narrower than the others, or a speck of half their height (a colon's lower dot), is none.
  return w <= NARROW * width || h < TALL * height ? rest : null;
}

/** A mark this much narrower than the one digit beside it is no digit, with nothing else to compare. */
const SLIVER = 0.35;

/** Sizes within this ratio of each other are one font's digits. */
const AGREE = 1.4;

export function agree(values: readonly number[]): boolean {
  return Math.max(...values) <= AGREE * Math.min(...values);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
