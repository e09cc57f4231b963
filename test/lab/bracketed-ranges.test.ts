/**
 * Ranges printed in brackets in their own column, and names wrapped inside a bracket (hand-made layouts
 * of the shape Indian hospital laboratories print; values made up).
 */
import { describe, expect, it } from 'vitest';
import { withBareRanges } from '../../src/lab/pipeline/table/bracketed-ranges.js';
import { unitReading } from '../../src/lab/pipeline/table/ocr-units.js';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { doc, line, lineView, ocrPage, page, scanned } from './support/hand-layout.js';

const rowsOf = (report: ReturnType<typeof parseReport>) =>
  report.panels.flatMap((p) =>
    p.rows.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText]),
  );

describe('a range printed in brackets', () => {
  it('is the row range without its brackets, on a text layer', () => {
    const report = parseReport(
      doc(
        page(
          1,
          line(100, [60, 'HAEMATOLOGY']),
          line(120, [60, 'APTT (Activated Partial'], [260, '31.2'], [330, 'sec'], [430, '(26 - 36)']),
          line(133, [60, 'Thromboplastin Time)']),
          line(155, [60, 'Haemoglobin'], [260, '12.1'], [330, 'g/dL'], [430, '(12.0 - 15.0)']),
          line(177, [60, 'Platelet Count'], [260, '245'], [330, '10^3/uL'], [430, '(150 - 410)']),
          line(199, [60, 'CRP'], [260, '3.1'], [330, 'mg/L'], [430, '(<5.0)']),
        ),
      ),
      'generic',
    );
    expect(rowsOf(report)).toEqual([
      ['APTT (Activated Partial Thromboplastin Time)', '31.2', 'sec', '26 - 36'],
      ['Haemoglobin', '12.1', 'g/dL', '12.0 - 15.0'],
      ['Platelet Count', '245', '10^3/uL', '150 - 410'],
      ['CRP', '3.1', 'mg/L', '<5.0'],
    ]);
  });

  it('is read on a scan whose dash was lost between the bracketed bounds, with the doubt', () => {
    const report = parseReport(
      doc(
        ocrPage(
          1,
          scanned(100, [60, 'HAEMATOLOGY']),
          scanned(120, [60, 'Haemoglobin'], [260, '12.1'], [330, 'g/dL'], [430, '(12.0'], [470, '15.0)']),
          scanned(142, [60, 'Neutrophils'], [260, '62'], [330, '%'], [430, '(40 - 80)']),
        ),
      ),
      'generic',
    );
    expect(rowsOf(report)).toEqual([
      ['Haemoglobin', '12.1', 'g/dL', '12.0 - 15.0'],
      ['Neutrophils', '62', '%', '40 - 80'],
    ]);
    expect(report.panels[0]?.rows.map((r) => r.doubts?.map((d) => d.code))).toEqual([['ocr_repaired'], []]);
  });

  it('keeps brackets round anything that is no range by itself', () => {
    const view = (text: string) => lineView([60, 'Name'], [300, text]);
    for (const text of ['(Haematocrit)', '( - )', '(L)', '(2.0-7.0) extra']) {
      const kept = view(text);
      expect(withBareRanges(kept)).toBe(kept);
    }
  });
});

describe('a power of ten whose caret a scan lost', () => {
  it.each([
    ['1073/uL', '10^3/uL'],
    ['106/uL', '10^6/uL'],
    ['x103/uL', 'x10^3/uL'],
  ])('%s reads as %s', (read, unit) => {
    expect(unitReading(read)).toBe(unit);
  });

  it('makes no power where none can be', () => {
    expect(unitReading('100/uL')).toBeNull();
  });
});
