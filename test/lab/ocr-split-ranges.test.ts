/**
 * Lines of a typewritten report photographed with a phone, as the layout cut them (cells and widths in
 * points as read; values made up).
 */
import { describe, expect, it } from 'vitest';
import { withSplitRangesJoined } from '../../src/lab/pipeline/ocr/split-ranges.js';
import type { Cell, Line } from '../../src/lab/pipeline/pdf/layout.js';

/** A line of `[text, x, width]` cells read by OCR. */
function line(...cells: Array<[string, number, number]>): Line {
  const read: Cell[] = cells.map(([text, x, w]) => ({ x, text, right: x + w, confidence: 90 }));
  return { y: 700, text: read.map((c) => c.text).join(' '), cells: read };
}
const texts = (l: Line) => l.cells.map((c) => c.text);

describe('withSplitRangesJoined', () => {
  it.each([
    [
      'a bound and a dashed bound',
      line(
        ['RED BLOOD CELLS', 65, 160],
        ['4.92', 467, 36],
        ['10*12/L', 594, 70],
        ['4.5', 764, 27],
        ['- 5.6', 814, 47],
      ),
      ['RED BLOOD CELLS', '4.92', '10*12/L', '4.5 - 5.6'],
    ],
    [
      'a bound, a dash and a bound',
      line(['HAEMATOCRIT', 65, 117], ['43.9', 467, 37], ['40.0', 763, 36], ['-', 812, 7], ['47.0', 832, 36]),
      ['HAEMATOCRIT', '43.9', '40.0 - 47.0'],
    ],
    [
      'a dashed bound and a bound',
      line(['MCH', 65, 40], ['29.8', 466, 37], ['27.0 -', 762, 50], ['33.0', 820, 36]),
      ['MCH', '29.8', '27.0 - 33.0'],
    ],
  ])('puts %s back in one cell', (_, read, cells) => {
    const joined = withSplitRangesJoined(read);
    expect(texts(joined)).toEqual(cells);
    expect(joined.text).toBe(cells.join(' '));
    expect(joined.cells.at(-1)).toMatchObject({ confidence: 90, right: read.cells.at(-1)?.right });
  });

  it.each([
    // A value and the lower bound of a range printed a column's width away.
    [
      'a value and a dashed range a column away',
      line(['Glucose', 65, 60], ['95', 300, 18], ['- 70', 760, 30]),
    ],
    ['two bounds with no dash', line(['MCV', 65, 35], ['4.5', 764, 27], ['5.6', 814, 27])],
    ['a range already whole', line(['MCV', 65, 35], ['89.2', 467, 36], ['76.0 - 96.0', 763, 90])],
  ])('leaves %s as it is', (_, read) => {
    expect(withSplitRangesJoined(read)).toBe(read);
  });

  it('puts back a dash lost altogether between two bounds ending a line that has its value, marked repaired', () => {
    const joined = withSplitRangesJoined(
      line(['Neutrophils', 45, 57], ['67 %', 273, 24], ['40', 387, 11], ['75%', 410, 24]),
    );
    expect(texts(joined)).toEqual(['Neutrophils', '67 %', '40 - 75 %']);
    expect(joined.cells.at(-1)).toMatchObject({ repaired: true, right: 434 });
  });

  it.each([
    ['no value before the two', line(['MCV', 65, 35], ['4.5', 764, 27], ['5.6', 800, 27])],
    [
      'the high bound below the low one',
      line(['MCV', 65, 35], ['89.2', 467, 36], ['96', 763, 18], ['76', 790, 18]),
    ],
    ['bounds a column apart', line(['MCV', 65, 35], ['89.2', 467, 36], ['76', 600, 18], ['96', 763, 18])],
  ])('puts no dash between %s', (_, read) => {
    expect(withSplitRangesJoined(read)).toBe(read);
  });

  it("joins a sex's label to its range a gutter away", () => {
    const joined = withSplitRangesJoined(
      line(
        ['Haemoglobin (Hb)', 44, 92],
        ['12.3 Gms %', 272, 60],
        ['Male', 386, 24],
        ['13.0 - 17.0', 421, 52],
      ),
    );
    expect(texts(joined)).toEqual(['Haemoglobin (Hb)', '12.3 Gms %', 'Male 13.0 - 17.0']);
    expect(texts(withSplitRangesJoined(line(['Female :', 387, 36], ['12.0 - 15.0', 434, 52])))).toEqual([
      'Female : 12.0 - 15.0',
    ]);
  });

  it("gives an interpretive range's category back its colon, so the line reads as the text layer's label", () => {
    expect(
      texts(
        withSplitRangesJoined(
          line(['Total Cholesterol', 50, 90], ['186', 250, 18], ['Desirable', 400, 50], ['< 200', 458, 24]),
        ),
      ),
    ).toEqual(['Total Cholesterol', '186', 'Desirable : < 200']);
    expect(texts(withSplitRangesJoined(line(['Pre-diabetic :', 400, 66], ['5.7 - 6.4', 472, 44])))).toEqual([
      'Pre-diabetic : 5.7 - 6.4',
    ]);
    // A flag a gutter before the range stays the flag.
    const flagged = line(
      ['Haemoglobin', 50, 60],
      ['10.2', 250, 20],
      ['Low', 330, 18],
      ['12.0 - 15.0', 356, 52],
    );
    expect(withSplitRangesJoined(flagged)).toBe(flagged);
  });

  it('joins nothing without widths to measure the gaps by', () => {
    const read: Line = {
      y: 1,
      text: '4.5 - 5.6',
      cells: [
        { x: 764, text: '4.5' },
        { x: 814, text: '- 5.6' },
      ],
    };
    expect(withSplitRangesJoined(read)).toBe(read);
  });
});
