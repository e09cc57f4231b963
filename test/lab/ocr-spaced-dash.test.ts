/**
 * Character boxes as tesseract gives them for ranges it read as one word, with the widths and gaps
 * measured on real laboratories' reports printed as 200 dpi scans (digits 19-29 px wide), Labcorp's among
 * them.
 */
import { describe, expect, it } from 'vitest';
import type { HocrChar, HocrWord } from '../../src/lab/pipeline/ocr/hocr.js';
import { pageFromHocr } from '../../src/lab/pipeline/ocr/hocr-page.js';
import { splitSpacedDashes, withSpacedDashes } from '../../src/lab/pipeline/ocr/spaced-dash.js';

/** A word of characters left to right, each `[text, width, gap before it]`. */
function word(...chars: Array<[string, number, number]>): HocrWord {
  let left = 1900;
  const boxed: HocrChar[] = chars.map(([text, w, gap]) => {
    left += gap;
    const box = { left, top: 1170, right: left + w, bottom: 1200 };
    left += w;
    return { text, box, conf: 90 };
  });
  return { chars: boxed, box: { left: 1900, top: 1170, right: left, bottom: 1200 } };
}
const texts = (words: HocrWord[]) => words.map((w) => w.chars.map((c) => c.text).join(''));

describe('splitSpacedDashes', () => {
  it.each([
    // "0 - 190": a space each side of the dash; the 1 is narrow, its gap taken from a digit's width.
    [
      '0 - 190',
      word(['0', 19, 0], ['-', 11, 12], ['1', 8, 18], ['9', 19, 7], ['0', 20, 1]),
      ['0', '-', '190'],
    ],
    ['6 - 40', word(['6', 19, 0], ['-', 11, 12], ['4', 19, 12], ['0', 20, 1]), ['6', '-', '40']],
    [
      '0.02 - 0.1',
      word(
        ['0', 29, 0],
        ['.', 4, 9],
        ['0', 29, 8],
        ['2', 29, 5],
        ['-', 16, 21],
        ['0', 25, 25],
        ['.', 8, 9],
        ['1', 17, 12],
      ),
      ['0.02', '-', '0.1'],
    ],
  ])('splits %s into bound, dash, bound', (_, read, parts) => {
    expect(texts(splitSpacedDashes(read))).toEqual(parts);
  });

  it.each([
    ['40-50', word(['4', 29, 0], ['0', 29, 4], ['-', 17, 8], ['5', 25, 4], ['0', 29, 5])],
    // A 1 after the dash looks apart by its narrow ink alone.
    ['83-101', word(['8', 25, 0], ['3', 29, 4], ['-', 21, 4], ['1', 17, 8], ['0', 30, 8], ['1', 21, 8])],
    // One side spaced, the other tight: no range is printed so.
    [
      '4000-10000',
      word(['4', 29, 0], ['0', 29, 4], ['0', 30, 4], ['0', 25, 4], ['-', 17, 4], ['1', 21, 12], ['0', 25, 8]),
    ],
    ['a dash between letters', word(['H', 29, 0], ['b', 25, 4], ['-', 17, 30], ['A', 29, 30])],
    ['a word without digits to measure by', word(['1', 20, 0], ['-', 17, 30], ['1', 20, 30])],
  ])('keeps %s whole', (_, read) => {
    expect(splitSpacedDashes(read)).toEqual([read]);
  });

  it("measures a space against the face's spacing between digits, read off the page's numbers", () => {
    // Labcorp's face sets its digits 8 px apart (0.42 of a digit's width): a tight dash leaves 9 and 13.
    const tight = word(['0', 20, 0], ['-', 14, 9], ['9', 19, 13], ['9', 19, 8]);
    const single = word(['0', 20, 0], ['-', 14, 9], ['3', 19, 10]);
    expect(texts(splitSpacedDashes(tight, 0.42))).toEqual(['0-99']);
    expect(texts(splitSpacedDashes(single, 0.42))).toEqual(['0-3']);
    // In a tight face (the Indian reports'), the same gaps are spaces, one digit each side or more.
    expect(texts(splitSpacedDashes(single, 0.05))).toEqual(['0', '-', '3']);
    // The page's spacing is measured on its numbers: a count printed in the wide face says 0.42.
    const count = word(
      ['1', 12, 0],
      ['0', 19, 8],
      ['0', 19, 8],
      ['-', 14, 9],
      ['1', 12, 12],
      ['9', 19, 8],
      ['9', 19, 8],
    );
    const page = {
      width: 2550,
      height: 3300,
      lines: [{ box: count.box, size: 34, baselineAt: () => 1200, words: [count, single] }],
    };
    expect(withSpacedDashes(page).lines[0]?.words.map((w) => w.chars.map((c) => c.text).join(''))).toEqual([
      '100-199',
      '0-3',
    ]);
  });

  it('makes the range read with its spaces on the page, each part boxed by its own characters', () => {
    const range = word(['0', 19, 0], ['-', 11, 12], ['1', 8, 18], ['9', 19, 7], ['0', 20, 1]);
    const hocr = [
      "<div class='ocr_page' title='bbox 0 0 2550 3300'>",
      "<span class='ocr_line' title='bbox 70 1167 2040 1217; baseline 0 -10; x_size 39'>",
      ...[
        ['TRIGLYCERIDE', 192, 400],
        ['145', 1124, 1190],
      ].flatMap(([t, l, r]) => [
        `<span class='ocrx_word' title='bbox ${l} 1170 ${r} 1200'>`,
        ...[...String(t)].map((ch, i, all) => {
          const step = (Number(r) - Number(l)) / all.length;
          const x = Math.round(Number(l) + i * step);
          return `<span class='ocrx_cinfo' title='x_bboxes ${x} 1170 ${Math.round(x + step - 2)} 1200; x_conf 95'>${ch}</span>`;
        }),
        '</span>',
      ]),
      `<span class='ocrx_word' title='bbox ${range.box.left} 1170 ${range.box.right} 1200'>`,
      ...range.chars.map(
        (c) =>
          `<span class='ocrx_cinfo' title='x_bboxes ${c.box.left} 1170 ${c.box.right} 1200; x_conf 95'>${c.text}</span>`,
      ),
      '</span>',
      '</span>',
      '</div>',
    ].join('\n');
    const page = pageFromHocr(hocr, 1, 300);
    expect(page.items.map((i) => i.str)).toEqual(['TRIGLYCERIDE', '145', '0', '-', '190']);
    expect(page.lines[0]?.cells.at(-1)?.text).toBe('0 - 190');
  });
});
