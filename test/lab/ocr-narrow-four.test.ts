/**
 * Character boxes as tesseract gives them for a bold face whose ones it reads as fours, with widths
 * measured on a real scanned pathology report (values made up).
 */
import { describe, expect, it } from 'vitest';
import type { HocrChar } from '../../src/lab/pipeline/ocr/hocr.js';
import { withNarrowFoursAsOnes } from '../../src/lab/pipeline/ocr/narrow-four.js';

/** Characters left to right, each `[text, width]`, one height, on one baseline. */
function word(...chars: Array<[string, number]>): HocrChar[] {
  let left = 100;
  return chars.map(([text, w]) => {
    const box = { left, top: 150, right: left + w, bottom: 200 };
    left += w + 4;
    return { text, box, conf: 90 };
  });
}
const text = (chars: HocrChar[] | null) => chars?.map((c) => c.text).join('') ?? null;

describe('withNarrowFoursAsOnes', () => {
  it.each([
    ['a count', word(['4', 25], ['6', 34], ['9', 29], ['0', 34], ['0', 33]), '16900'],
    ['a last digit, one other to measure by', word(['8', 33], ['4', 25]), '81'],
  ])('reads a four as narrow as a one as a one in %s', (_, chars, read) => {
    expect(text(withNarrowFoursAsOnes(chars))).toBe(read);
  });

  it.each([
    ['a four as wide as its neighbours', word(['4', 33], ['0', 33], ['.', 12], ['1', 25], ['0', 33])],
    // A range in a smaller face: every digit is narrow alike.
    ['a four in a small face', word(['4', 25], ['.', 8], ['5', 26])],
    ['digits whose boxes disagree (a dash boxed with a five)', word(['4', 25], ['5', 80], ['6', 26])],
    ['fours and ones alone, nothing to measure by', word(['4', 25], ['1', 21])],
    [
      'a sliver narrower than a one (a glyph cut by its box)',
      word(['4', 12], ['.', 8], ['7', 33], ['7', 33]),
    ],
    ['a word that is no number', word(['4', 25], ['x', 30])],
  ])('keeps %s', (_, chars) => {
    expect(withNarrowFoursAsOnes(chars)).toBeNull();
  });
});
