import { describe, expect, it } from 'vitest';
import { repairOcrWord } from '../../src/lab/pipeline/ocr/repair.js';
import { rowDoubts } from '../../src/lab/pipeline/table/doubts.js';
import type { ParsedRow } from '../../src/lab/types.js';

describe('repairOcrWord', () => {
  it.each([
    ['mg/0L', 'mg/dL'],
    ['MG/OL', 'MG/dL'],
    ['1O4', '104'],
    ['l.5', '1.5'],
    ['2O.1', '20.1'],
    ['<O.2', '<0.2'],
    ['33:5', '33.5'],
    ['<l', '<1'],
    ['<I', '<1'],
    ['<O', '<0'],
    ['>=l', '>=1'],
    // The word is repaired as it is read, so the table reader sees a unit in the unit column.
    ['ulU/mL', 'uIU/mL'],
    // "Nil" with its thin last letter lost.
    ['Ni', 'Nil'],
    ['ug/db', 'ug/dL'],
    // A value and its flag, the space between them read as a point.
    ['20.3.L', '20.3 L'],
    ['4.44,H', '4.44 H'],
    ['£L', 'fL'],
    ['x1l0E6/uL', 'x10E6/uL'],
    // A section sign is a 5 whose tail OCR read: only inside a number.
    ['§00', '500'],
    ['§80.80', '580.80'],
    ['1§0', '150'],
    // A power of ten no count has, one superscript digit from one it has.
    ['x10²²/l', 'x10¹²/l'],
    ['x10²²/I', 'x10¹²/l'],
    ['10¹⁹/L', '10¹²/L'],
    // A decimal point read as a comma, in a number or a range's bound.
    ['4,42', '4.42'],
    ['34,5', '34.5'],
    ['31.5-34,5', '31.5-34.5'],
    ['0,0-1,0', '0.0-1.0'],
    ['4,5-11.0', '4.5-11.0'],
    // A count's power of ten with its × read as a star, and so its exponent read on the line.
    ['*103cells/ul', 'x10³cells/ul'],
    ['*1012/L', 'x10¹²/L'],
    // A bold 8 read as a B before a decimal point (a typewritten CBC photographed).
    ['B.1', '8.1'],
  ])('repairs %j to %j and says so', (word, text) => {
    expect(repairOcrWord(word)).toEqual({ text, repaired: true });
  });

  it.each([
    ['NEGATIVE'],
    ['B12'],
    ['mg/dL'],
    ['104'],
    ['10/24/2024'],
    ['Iron'],
    ['O'],
    ['x10E3/uL'],
    ['A1c'],
    ['07:32'],
    ['1:40'],
    ['<1'],
    ['<a'],
    ['l'],
    ['§'],
    ['§ 4.2'],
    ['x10¹²/L'],
    // No count is reported in 10^4: left as read, for the unit check to doubt.
    ['*104cells/ul'],
    ['x10'],
    // Printed on the baseline by some laboratories' systems: as read.
    ['x106/uL'],
    ['x10⁹/L'],
    // 10⁹⁹ is no count's unit, but no one digit makes it one.
    ['x10⁹⁹/L'],
    // A thousands separator has three digits after it.
    ['4,500'],
    ['150,000-450,000'],
  ])('leaves %j as it is', (word) => {
    expect(repairOcrWord(word)).toEqual({ text: word, repaired: false });
  });

  it('repairs no unit that two readings would make valid', () => {
    // 0 -> d and 0 -> O would both be guesses for a word no unit is close to.
    expect(repairOcrWord('q0/zz').repaired).toBe(false);
  });
});

describe('OCR doubts on a row', () => {
  const row = (over: Partial<ParsedRow>): ParsedRow => ({
    biomarker: 'CREATININE',
    resultValue: '1.02',
    resultUnit: 'mg/dL',
    referenceRangeText: '0.60-1.29',
    flag: null,
    pageNumber: 2,
    ...over,
  });
  const codes = (r: ParsedRow) => rowDoubts(r).map((f) => [f.code, f.pageNumber]);

  it('flags a repaired value, a low-confidence one and a likely dropped decimal point, with the page', () => {
    expect(codes(row({ ocr: { repaired: true, confidence: 95 } }))).toEqual([['ocr_repaired', 2]]);
    expect(codes(row({ ocr: { repaired: false, confidence: 41 } }))).toEqual([['ocr_low_confidence', 2]]);
    expect(codes(row({ resultValue: '102', ocr: { repaired: false, confidence: 96 } }))).toEqual([
      ['ocr_suspect_decimal', 2],
    ]);
  });

  it('says nothing of a clean OCR read, nor of a text-layer row', () => {
    expect(codes(row({ ocr: { repaired: false, confidence: 96 } }))).toEqual([]);
    expect(codes(row({ resultValue: '102' }))).toEqual([]);
  });

  it('names the test, never the value, in its messages', () => {
    const messages = rowDoubts(row({ resultValue: '102', ocr: { repaired: true, confidence: 10 } }))
      .map((f) => f.message)
      .join(' ');
    expect(messages).toContain('CREATININE');
    expect(messages).not.toContain('102');
  });

  it('flags a value shaped like a bound where the range cell is empty, the same, or starts at that bound', () => {
    const ocr = { repaired: false, confidence: 96 };
    const bound = (resultValue: string, referenceRangeText: string | null) =>
      codes(row({ biomarker: 'CHOLESTEROL, TOTAL', resultValue, referenceRangeText, ocr }));
    expect(bound('<200', 'N/A')).toEqual([['ocr_value_like_range', 2]]);
    expect(bound('>=40', null)).toEqual([['ocr_value_like_range', 2]]);
    expect(bound('<150', '< 150')).toEqual([['ocr_value_like_range', 2]]);
    expect(bound('<1138', '1138-1409')).toEqual([['ocr_value_like_range', 2]]);
    expect(bound('>222.9', '222.9-217.4')).toEqual([['ocr_value_like_range', 2]]);
  });

  it('does not doubt a below-the-limit result beside a range of its own, nor any text-layer row', () => {
    const ocr = { repaired: false, confidence: 96 };
    expect(codes(row({ resultValue: '<10', referenceRangeText: '<14', ocr }))).toEqual([]);
    expect(codes(row({ resultValue: '<1', referenceRangeText: '< or = 1', ocr }))).toEqual([]);
    expect(codes(row({ resultValue: '172', referenceRangeText: '<200', ocr }))).toEqual([]);
    expect(codes(row({ resultValue: '<200', referenceRangeText: 'N/A' }))).toEqual([]);
  });

  it('flags a dropped decimal point where the value read back with it is a little outside the range', () => {
    const ocr = { repaired: false, confidence: 96 };
    expect(
      codes(row({ biomarker: 'MCHC', resultValue: '318', referenceRangeText: '32.0-36.0', ocr })),
    ).toEqual([['ocr_suspect_decimal', 2]]);
    expect(codes(row({ biomarker: 'EPA', resultValue: '17', referenceRangeText: '0.2-2.3', ocr }))).toEqual([
      ['ocr_suspect_decimal', 2],
    ]);
    // In range, or far from any reading of it: not a dropped point (an unflagged 1500 is doubted for that).
    expect(
      codes(row({ biomarker: 'MCHC', resultValue: '33', referenceRangeText: '32.0-36.0', ocr })),
    ).toEqual([]);
    expect(
      codes(row({ biomarker: 'GLUCOSE', resultValue: '1500', referenceRangeText: '65-99', flag: 'H', ocr })),
    ).toEqual([]);
  });

  it('flags a value its printed flag contradicts: out of range and unflagged, or flagged on the other side', () => {
    const ocr = { repaired: false, confidence: 96 };
    const read = (resultValue: string, flag: string | null, referenceRangeText = '0.57-1.00') =>
      codes(row({ resultValue, flag, referenceRangeText, ocr }));
    expect(read('9.69', null)).toEqual([['ocr_flag_disagrees', 2]]);
    expect(read('0.69', 'H')).toEqual([['ocr_flag_disagrees', 2]]);
    expect(read('1.69', 'Low')).toEqual([['ocr_flag_disagrees', 2]]);
    expect(read('250', null, '<200')).toEqual([['ocr_flag_disagrees', 2]]);
    // Agreeing, or a mark that names no side, or no bounds to compare with.
    expect(read('0.69', null)).toEqual([]);
    expect(read('1.69', 'High')).toEqual([]);
    expect(read('0.31', 'L')).toEqual([]);
    expect(read('1.69', 'A')).toEqual([]);
    expect(read('1.69', null, 'See note')).toEqual([]);
    // The same row from a text layer is what the lab printed: nothing to doubt.
    expect(codes(row({ resultValue: '9.69', referenceRangeText: '0.57-1.00' }))).toEqual([]);
  });

  it('flags values in no shape a report prints: stray punctuation, a decimal comma, letters in ones and twos', () => {
    const ocr = { repaired: false, confidence: 96 };
    const read = (resultValue: string) => codes(row({ resultValue, referenceRangeText: null, ocr }));
    for (const misread of ['52:1:', '1]', '157.', '12,7', 'i', 'ue', 'y By'])
      expect(read(misread), misread).toEqual([['ocr_malformed_value', 2]]);
    for (const printed of ['1,234', '6-10', '1+', '1:160', '12.7', 'ND', 'None seen', 'Few', 'TNP'])
      expect(read(printed), printed).toEqual([]);
    expect(codes(row({ resultValue: '52:1:', referenceRangeText: null }))).toEqual([]);
  });
});
