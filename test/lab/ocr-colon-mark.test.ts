/**
 * Character boxes as tesseract gives them for values printed after a colon ("Neutrophils : 78.3"), with
 * the widths and heights measured on a real scanned haemogram (values made up).
 */
import { describe, expect, it } from 'vitest';
import { withoutColonMark } from '../../src/lab/pipeline/ocr/colon-mark.js';
import type { HocrChar } from '../../src/lab/pipeline/ocr/hocr.js';

/** Characters left to right, each `[text, width, height]`, sitting on one baseline. */
function word(...chars: Array<[string, number, number]>): HocrChar[] {
  let left = 100;
  return chars.map(([text, w, h]) => {
    const box = { left, top: 200 - h, right: left + w, bottom: 200 };
    left += w + 4;
    return { text, box, conf: 90 };
  });
}
const text = (chars: HocrChar[] | null) => chars?.map((c) => c.text).join('') ?? null;

describe('withoutColonMark', () => {
  it.each([
    [
      'a colon read as a 7',
      word(['7', 9, 29], ['7', 25, 42], ['8', 29, 42], ['.', 4, 9], ['3', 25, 42]),
      '78.3',
    ],
    [
      'a colon read as a 2',
      word(['2', 12, 29], ['3', 21, 37], ['3', 25, 37], ['.', 8, 8], ['0', 25, 41]),
      '33.0',
    ],
    [
      "a colon's lower dot read as a 2",
      word(['2', 13, 8], ['9', 30, 42], ['9', 25, 42], ['.', 8, 8], ['3', 25, 38]),
      '99.3',
    ],
    [
      'a colon read as itself',
      word([':', 8, 29], ['0', 25, 42], ['.', 9, 8], ['0', 25, 37], ['3', 25, 37]),
      '0.03',
    ],
    ['a colon read as a dash', word(['-', 12, 25], ['0', 29, 37], [',', 8, 8], ['2', 25, 41]), '0,2'],
  ])('drops %s', (_, chars, kept) => {
    expect(text(withoutColonMark(chars))).toBe(kept);
  });

  it('drops a sliver beside one digit only on a page that sets its values after colons', () => {
    const chars = word(['4', 8, 50], ['1', 25, 50], ['5', 33, 50]);
    expect(text(withoutColonMark(chars, true))).toBe('15');
    expect(withoutColonMark(chars)).toBeNull();
  });

  it.each([
    ['a number with no mark in front', word(['7', 25, 38], ['.', 9, 8], ['4', 29, 38])],
    ['a leading 1, narrow by nature', word(['1', 12, 42], ['3', 33, 42], ['.', 13, 13], ['7', 33, 38])],
    ['a minus sign (flat)', word(['-', 12, 4], ['0', 29, 37], ['.', 8, 8], ['2', 25, 41])],
    ['a word that is no number without it', word(['7', 9, 29], ['m', 25, 30], ['g', 25, 40])],
    ['a mark before a number of ones only', word([':', 8, 29], ['1', 12, 42], ['1', 12, 42])],
    // Boxes that disagree (one digit boxed with a rule, another with the next glyph) measure nothing.
    ['a number whose digit boxes disagree', word(['4', 17, 23], ['3', 17, 47], ['6', 33, 24])],
    ['a number with one other digit to measure by', word(['3', 16, 48], ['6', 34, 25])],
  ])('keeps %s', (_, chars) => {
    expect(withoutColonMark(chars)).toBeNull();
  });
});
