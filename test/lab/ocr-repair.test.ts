import { describe, expect, it } from 'vitest';
import { repairOcrWord } from '../../src/lab/ocr-repair.js';
import { rowDoubts } from '../../src/lab/table/doubts.js';
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
  ])('repairs %j to %j and says so', (word, text) => {
    expect(repairOcrWord(word)).toEqual({ text, repaired: true });
  });

  it.each([
    ['NEGATIVE'],
    ['mg/dL'],
    ['104'],
    ['10/24/2024'],
    ['Iron'],
    ['O'],
    ['x10E3/uL'],
    ['A1c'],
    ['07:32'],
    ['1:40'],
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
});
