import { describe, expect, it } from 'vitest';
import { normalisePanels, normaliseRow, panelCodeFor } from '../../src/lab/pipeline/results/normalise.js';
import type { ParsedPanel } from '../../src/lab/types.js';
import { parsedRow } from './support/parsed-row.js';

const row = parsedRow;

describe('panelCodeFor', () => {
  it.each([
    ['COMPREHENSIVE METABOLIC PANEL', '24323-8'],
    ['Comp. Metabolic Panel (14)', '24323-8'],
    ['Basic Metabolic Panel (8)', '24321-2'],
    ['LIPID PANEL, STANDARD', '24331-1'],
    ['Lipid Panel w/ Chol/HDL Ratio', '24331-1'],
    ['Lipid Panel With Direct LDL', '57698-3'],
    ['CBC (INCLUDES DIFF/PLT)', '57021-8'],
    ['CBC With Differential/Platelet', '57021-8'],
    ['CBC (H/H, RBC, INDICES, WBC, PLT)', '58410-2'],
    ['URINALYSIS, COMPLETE', '24356-8'],
    ['Hepatic Function Panel (7)', '24325-3'],
    ['Renal Function Panel', '24362-6'],
  ])('%s -> %s', (name, code) => {
    expect(panelCodeFor(name)).toBe(code);
  });

  it('knows no code for a single test or an unknown heading', () => {
    expect(panelCodeFor('HEMOGLOBIN A1c')).toBeNull();
    expect(panelCodeFor('SPECIAL CHEMISTRY')).toBeNull();
  });
});

describe('normaliseRow', () => {
  it('adds LOINC, UCUM, bounds and the result type', () => {
    expect(normaliseRow(row({}), 'COMPREHENSIVE METABOLIC PANEL')).toEqual({
      biomarker: 'GLUCOSE',
      resultValue: '87',
      resultType: 'numeric',
      resultUnit: 'mg/dL',
      loincCode: '2345-7',
      loincMatchType: 'exact',
      ucumCode: 'mg/dL',
      ucumMatchMethod: 'static_map',
      minRefRangeValue: 65,
      maxRefRangeValue: 99,
      referenceRangeText: '65-99',
      pageNumber: 1,
      flag: null,
      doubts: [],
      bbox: null,
    });
  });

  it("carries the row's id, doubts and box", () => {
    const box = { page: 2, x: 40, y: 300, width: 500, height: 11 };
    const doubts = [
      { code: 'ocr_suspect_decimal', message: 'GLUCOSE may have lost its decimal point in OCR' },
    ];
    expect(normaliseRow(row({ id: 'p2-glucose-1', doubts, bbox: box }), 'CMP')).toMatchObject({
      id: 'p2-glucose-1',
      doubts,
      bbox: box,
    });
  });

  it('keeps the printed flag beside the value', () => {
    expect(normaliseRow(row({ resultValue: '120', flag: 'H' }), 'CMP')).toMatchObject({
      resultValue: '120',
      flag: 'H',
    });
  });

  it('uses the panel to tell urine glucose from serum glucose, and the result to tell presence from amount', () => {
    const urine = (resultValue: string) =>
      normaliseRow(
        row({ resultValue, resultUnit: null, referenceRangeText: 'NEGATIVE' }),
        'URINALYSIS, COMPLETE',
      );
    expect(urine('NEGATIVE')).toMatchObject({ loincCode: '25428-4', resultType: 'string' });
    expect(urine('100')).toMatchObject({ loincCode: '5792-7', resultType: 'numeric' });
  });

  it('gives no UCUM code and no method when no unit is printed', () => {
    const ratio = normaliseRow(row({ biomarker: 'BUN/CREATININE RATIO', resultUnit: null }), 'CMP');
    expect(ratio.ucumCode).toBeNull();
    expect(ratio.ucumMatchMethod).toBeNull();
  });

  it('says not_found for a unit it cannot read, and keeps the printed unit', () => {
    const odd = normaliseRow(row({ resultUnit: 'zorkmids/dL' }), 'CMP');
    expect(odd.resultUnit).toBe('zorkmids/dL');
    expect(odd.ucumCode).toBeNull();
    expect(odd.ucumMatchMethod).toBe('not_found');
  });

  it('says not_found for a test it does not know', () => {
    const unknown = normaliseRow(row({ biomarker: 'QWXZ FACTOR' }), 'SPECIAL');
    expect(unknown.loincCode).toBeNull();
    expect(unknown.loincMatchType).toBe('not_found');
  });
});

describe('normalisePanels', () => {
  const panels: ParsedPanel[] = [
    { panelName: 'COMPREHENSIVE METABOLIC PANEL', pageNumber: 1, rows: [row({})] },
    {
      panelName: 'HEMOGLOBIN A1c',
      pageNumber: 2,
      rows: [
        row({ biomarker: 'HEMOGLOBIN A1c', resultValue: '5.2', resultUnit: '% of total Hgb', pageNumber: 2 }),
      ],
    },
    {
      panelName: 'SPECIAL CHEMISTRY',
      pageNumber: 2,
      rows: [row({ pageNumber: 2 }), row({ biomarker: 'SODIUM', resultUnit: 'mmol/L', pageNumber: 2 })],
    },
  ];

  it('codes known panels, single-test panels by their test, and others as empty', () => {
    const out = normalisePanels(panels, { dateCollected: '2025-03-14' });
    expect(out.map((p) => [p.panelName, p.panelCode, p.pageNumber, p.dateCollected])).toEqual([
      ['COMPREHENSIVE METABOLIC PANEL', '24323-8', 1, '2025-03-14'],
      ['HEMOGLOBIN A1c', '4548-4', 2, '2025-03-14'],
      ['SPECIAL CHEMISTRY', '', 2, '2025-03-14'],
    ]);
  });

  it('leaves the date empty when the report states none', () => {
    expect(normalisePanels(panels, { dateCollected: null })[0]?.dateCollected).toBe('');
  });
});
