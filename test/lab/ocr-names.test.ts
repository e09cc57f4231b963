import { describe, expect, it } from 'vitest';
import { repairOcrNames } from '../../src/lab/ocr-names.js';
import type { ParsedPanel, ParsedRow } from '../../src/lab/types.js';

const row = (biomarker: string, ocr = true): ParsedRow => ({
  biomarker,
  resultValue: '6.9',
  resultUnit: '%',
  referenceRangeText: '4.8-5.6',
  flag: null,
  pageNumber: 2,
  ...(ocr ? { ocr: { repaired: false, confidence: 99 } } : {}),
});

describe('OCR test-name repair against the LOINC catalogue', () => {
  it('puts back the one reading the catalogue knows, in the row and its single-test panel, and flags it', () => {
    const panels: ParsedPanel[] = [
      { panelName: 'HEMOGLOBIN Alc', pageNumber: 2, rows: [row('HEMOGLOBIN Alc')] },
      { panelName: 'Comp. Metabolic Panel (14)', pageNumber: 1, rows: [row('AIG Ratio')] },
    ];
    const flags = repairOcrNames(panels);
    expect(panels.map((p) => [p.panelName, p.rows[0]?.biomarker])).toEqual([
      ['HEMOGLOBIN A1c', 'HEMOGLOBIN A1c'],
      ['Comp. Metabolic Panel (14)', 'A/G Ratio'],
    ]);
    expect(flags).toEqual([
      expect.objectContaining({ code: 'ocr_repaired', pageNumber: 2 }),
      expect.objectContaining({ code: 'ocr_repaired', pageNumber: 2 }),
    ]);
  });

  it('leaves known names, names read from a text layer, and names no swap makes known', () => {
    const panels: ParsedPanel[] = [
      { panelName: 'P', pageNumber: 1, rows: [row('Glucose'), row('Hemoglobin Alc', false), row('Zorblax')] },
    ];
    expect(repairOcrNames(panels)).toEqual([]);
    expect(panels[0]?.rows.map((r) => r.biomarker)).toEqual(['Glucose', 'Hemoglobin Alc', 'Zorblax']);
  });
});
