import { describe, expect, it } from 'vitest';
import {
  type FoundRow,
  nameKey,
  poolScores,
  rowsOf,
  scoreExtraction,
  type TruthRow,
} from '../../bench/support/score-extraction.js';

const truth = (name: string, value: string | null, more: Partial<TruthRow> = {}): TruthRow => ({
  name,
  value,
  unit: 'mg/dL',
  range: '0-99',
  page: 1,
  ...more,
});

const found = (biomarker: string, resultValue: string | null, more: Partial<FoundRow> = {}): FoundRow => ({
  biomarker,
  resultValue,
  resultUnit: 'mg/dL',
  referenceRangeText: '0-99',
  pageNumber: 1,
  loincCode: null,
  ...more,
});

describe('scoreExtraction', () => {
  it('scores a perfect extraction as 1 everywhere', () => {
    const s = scoreExtraction(
      [truth('Glucose', '87'), truth('LDL', '120')],
      [found('Glucose', '87'), found('LDL', '120')],
    );
    expect(s).toMatchObject({ truth: 2, found: 2, matched: 2, precision: 1, recall: 1, f1: 1 });
    expect(s).toMatchObject({ valueAccuracy: 1, unitAccuracy: 1, rangeAccuracy: 1, pageAccuracy: 1 });
    expect(s.loincAccuracy).toBeNull();
    expect(s.loincRows).toBe(0);
    expect([s.missed, s.extra, s.wrong]).toEqual([[], [], []]);
  });

  it('matches names without case, spaces or punctuation, but not different names', () => {
    expect(nameKey('Small LDL-P')).toBe(nameKey('small ldl p'));
    expect(nameKey('CoQ10¹')).toBe(nameKey('CoQ10'));
    const s = scoreExtraction(
      [truth('Small LDL-P', '90'), truth('HDL Cholesterol', '50'), truth('Glucose', '87')],
      [found('SMALL LDL P', '90'), found('HDL-Cholesterol', '50'), found('Glucose, Fasting', '87')],
    );
    expect(s.matched).toBe(2);
    expect(s.missed).toEqual(['Glucose']);
    expect(s.extra).toEqual(['Glucose, Fasting']);
    expect(s.precision).toBeCloseTo(2 / 3);
    expect(s.recall).toBeCloseTo(2 / 3);
    expect(s.f1).toBeCloseTo(2 / 3);
  });

  it('pairs a repeated name one to one, by value first and then by page', () => {
    // Printed twice, in two panels; found in the other order. Pairing by reading order would score two
    // wrong values; pairing by value scores none.
    const t = [truth('Small LDL-P', '90', { page: 1 }), truth('Small LDL-P', '412', { page: 3 })];
    const bySwap = scoreExtraction(t, [
      found('Small LDL-P', '412', { pageNumber: 3 }),
      found('Small LDL-P', '90'),
    ]);
    expect(bySwap.matched).toBe(2);
    expect(bySwap.wrong).toEqual([]);

    // Same values on both pages: the page decides, so the page is right for both.
    const samePair = [truth('Ferritin', '40', { page: 2 }), truth('Ferritin', '40', { page: 5 })];
    const byPage = scoreExtraction(samePair, [
      found('Ferritin', '40', { pageNumber: 5 }),
      found('Ferritin', '40', { pageNumber: 2 }),
    ]);
    expect(byPage.pageAccuracy).toBe(1);

    // Three found for two truth rows: one left over, never paired twice.
    const over = scoreExtraction(t, [
      found('Small LDL-P', '90'),
      found('Small LDL-P', '90'),
      found('Small LDL-P', '412'),
    ]);
    expect(over).toMatchObject({ matched: 2, found: 3, extra: ['Small LDL-P'] });
    expect(over.valueAccuracy).toBe(1);
  });

  it('scores each field over matched rows only', () => {
    const s = scoreExtraction(
      [
        truth('A', 'Negative', { range: 'Negative' }),
        truth('B', '5.2', { unit: 'mg/dL' }),
        truth('C', '10', { unit: null, range: '< 10 ' }),
        truth('D', '1', { page: 2 }),
        truth('Missing', '1'),
      ],
      [
        found('A', 'NEGATIVE', { referenceRangeText: 'negative' }),
        found('B', '5.20', { resultUnit: 'mg/dl' }),
        found('C', '10', { resultUnit: null, referenceRangeText: '<  10' }),
        found('D', '1', { pageNumber: 3 }),
      ],
    );
    expect(s.matched).toBe(4);
    expect(s.valueAccuracy).toBe(3 / 4);
    expect(s.unitAccuracy).toBe(3 / 4);
    expect(s.rangeAccuracy).toBe(1);
    expect(s.pageAccuracy).toBe(3 / 4);
    expect(s.wrong).toEqual([
      { name: 'B', field: 'value', expected: '5.2', found: '5.20' },
      { name: 'B', field: 'unit', expected: 'mg/dL', found: 'mg/dl' },
      { name: 'D', field: 'page', expected: '2', found: '3' },
    ]);
  });

  it('scores LOINC only where the truth names a code', () => {
    const s = scoreExtraction(
      [
        truth('A', '1', { loinc: '2345-7' }),
        truth('B', '1', { loinc: '2093-3' }),
        truth('C', '1'),
        truth('D', '1'),
      ],
      [
        found('A', '1', { loincCode: '2345-7' }),
        found('B', '1', { loincCode: '2085-9' }),
        found('C', '1', { loincCode: '1-8' }),
      ],
    );
    expect(s.loincRows).toBe(2);
    expect(s.loincAccuracy).toBe(1 / 2);
    expect(s.wrong).toEqual([{ name: 'B', field: 'loinc', expected: '2093-3', found: '2085-9' }]);
  });

  it('scores nothing found as F1 0, and says which', () => {
    const s = scoreExtraction([truth('A', '1'), truth('B', '2')], []);
    expect(s).toMatchObject({ matched: 0, recall: 0, f1: 0, missed: ['A', 'B'] });
  });
});

describe('rowsOf', () => {
  it('flattens panels in order and keeps only the scored fields', () => {
    const row = { ...found('A', '1'), resultType: 'numeric', ucumCode: 'mg/dL' };
    const rows = rowsOf([{ panelResults: [row] }, { panelResults: [found('B', '2')] }]);
    expect(rows.map((r) => r.biomarker)).toEqual(['A', 'B']);
    expect(rows[0]).toEqual(found('A', '1'));
  });
});

describe('poolScores', () => {
  it('counts rows across reports and weighs each accuracy by the rows it was measured on', () => {
    const a = scoreExtraction([truth('A', '1'), truth('B', '2')], [found('A', '1'), found('B', '9')]);
    const b = scoreExtraction([truth('C', '3'), truth('D', '4')], [found('C', '3')]);
    const p = poolScores([a, b]);
    expect(p).toMatchObject({ truth: 4, found: 3, matched: 3, precision: 1, recall: 3 / 4 });
    expect(p.f1).toBeCloseTo((2 * 1 * 0.75) / 1.75);
    // Two of three matched values right: not the mean of 1/2 and 1.
    expect(p.value).toBeCloseTo(2 / 3);
    expect(poolScores([])).toMatchObject({ truth: 0, matched: 0, f1: 0, loinc: null });
  });
});
