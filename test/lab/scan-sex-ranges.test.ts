/**
 * Rows of an Indian clinic's scanned CBC (hand-made layouts of the shape a real clinic prints; values
 * made up): ranges given per sex on a line each, a name wrapped under its row, a range whose dash the
 * scan lost.
 */
import { describe, expect, it } from 'vitest';
import {
  isSexRanges,
  isUnreadableRange,
  parseReferenceRange,
} from '../../src/lab/pipeline/results/ranges.js';
import { cellKind } from '../../src/lab/pipeline/table/cell-kind.js';
import { unitUnrecognised } from '../../src/lab/pipeline/table/doubt-cells.js';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { doc, ocrPage, page, scanned } from './support/hand-layout.js';

const parseScan = (...lines: Parameters<typeof page>[1][]) => parseReport(doc(page(1, ...lines)), 'generic');
const rowsOf = (report: ReturnType<typeof parseReport>) =>
  report.panels.flatMap((p) =>
    p.rows.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText]),
  );
const header = scanned(100, [30, 'TEST PARAMETER'], [200, 'RESULT'], [290, 'BIOLOGICAL REF. INTERVAL']);

describe('ranges printed per sex', () => {
  it('are one range text, the next sex on the line below, with no bounds read from either', () => {
    const report = parseScan(
      header,
      scanned(130, [30, 'Haemoglobin (Hb)'], [200, '12.3 Gms %'], [290, 'Male 13.0 - 17.0']),
      scanned(140, [290, 'Female 12.0 - 15.0']),
      scanned(155, [30, 'Lymphocytes'], [200, '28 %'], [290, '20 - 40 %']),
      scanned(170, [30, 'Haematocrit (PCV)'], [200, '39.4 %'], [290, 'Women: 36 - 47 (%)']),
      scanned(180, [290, 'Men: 40 - 52 (%)']),
      scanned(195, [30, 'Platelets Count'], [200, '3.59 lakh/cumm'], [290, '1.50 - 4.10']),
    );
    expect(rowsOf(report)).toEqual([
      ['Haemoglobin (Hb)', '12.3', 'Gms %', 'Male 13.0 - 17.0 Female 12.0 - 15.0'],
      ['Lymphocytes', '28', '%', '20 - 40'],
      ['Haematocrit (PCV)', '39.4', '%', 'Women: 36 - 47 (%) Men: 40 - 52 (%)'],
      ['Platelets Count', '3.59', 'lakh/cumm', '1.50 - 4.10'],
    ]);
    expect(report.coverage).toEqual({ resultsRead: 4, resultLikeRows: 4, ratio: 1 });
    // Neither a misread range nor a misread unit: the laboratory prints them so.
    const codes = report.panels.flatMap((p) => p.rows.flatMap((r) => r.doubts?.map((d) => d.code) ?? []));
    expect(codes).toEqual([]);
  });

  it('states no bounds: a flag worked out from the wrong sex would be wrong', () => {
    expect(cellKind('Women: 3.8 - 4.8')).toBe('interval');
    expect(cellKind('Patient: 3.8 - 4.8')).toBe('label');
    expect(parseReferenceRange('Male 13.0 - 17.0 Female 12.0 - 15.0')).toEqual({ min: null, max: null });
    expect(isSexRanges('Male : 13.0 - 17.0 Female : 12.0 - 15.0')).toBe(true);
    expect(isSexRanges('Male : 13.0 - 17.0 Child : 11.0 - 15.0')).toBe(false);
    expect(isUnreadableRange('Women: 36 - 47 (%) Men: 40 - 52 (%)')).toBe(false);
  });

  it('takes a unit written in words cased as words for printed, and a stray capital for misread', () => {
    const row = (resultUnit: string) => ({
      biomarker: 'Haemoglobin',
      resultValue: '12.3',
      resultUnit,
      referenceRangeText: null,
      flag: null,
      pageNumber: 1,
      ocr: { repaired: false, confidence: 90 },
    });
    expect(unitUnrecognised(row('Gms %'))).toBe(false);
    expect(unitUnrecognised(row('gMs %'))).toBe(true);
  });
});

describe('interpretive ranges a line each under the row, on a scan that lost their colons', () => {
  it('leave the row read, with no range, as the text layer reads it', () => {
    const report = parseReport(
      doc(
        ocrPage(
          1,
          header,
          scanned(
            130,
            [30, 'Total Cholesterol'],
            [200, '186'],
            [245, 'mg/dL'],
            [290, 'Desirable'],
            [345, '< 200'],
          ),
          scanned(145, [290, 'Borderline'], [345, '200 - 239']),
          scanned(160, [30, 'HDL Cholesterol'], [200, '48'], [245, 'mg/dL'], [290, '40 - 60']),
          scanned(175, [30, 'Colour'], [200, 'Pale Yellow'], [290, 'Pale Yellow']),
          // A hormone's ranges by age band and phase, their colons lost too.
          scanned(190, [30, 'TSH'], [200, '2.45'], [245, 'uIU/mL'], [290, 'Adults'], [325, '0.35 - 5.50']),
          scanned(205, [290, '1st Trimester'], [350, '0.1 - 2.5']),
        ),
      ),
      'generic',
    );
    expect(rowsOf(report)).toEqual([
      ['Total Cholesterol', '186', 'mg/dL', null],
      ['HDL Cholesterol', '48', 'mg/dL', '40 - 60'],
      ['Colour', 'Pale Yellow', null, 'Pale Yellow'],
      ['TSH', '2.45', 'uIU/mL', null],
    ]);
    expect(report.coverage).toEqual({ resultsRead: 4, resultLikeRows: 4, ratio: 1 });
  });
});

describe('a name wrapped under its row', () => {
  it('is joined when the whole names another test and the tail alone none, though it looks like a heading', () => {
    const report = parseScan(
      header,
      scanned(130, [30, 'Mean Corpuscular Haemoglobin (MCH)'], [200, '27.8 pg'], [290, '26 - 32']),
      scanned(150, [30, 'Mean Corpuscular Haemoglobin'], [200, '31.2 %'], [290, '31 - 35']),
      scanned(160, [30, 'Concentration (MCHC)']),
      scanned(180, [30, 'Liver Function Test (LFT)']),
      scanned(195, [30, 'Total Bilirubin'], [200, '0.8 mg/dl'], [290, '0.2 - 1.2']),
    );
    expect(report.panels.map((p) => [p.panelName, p.rows.map((r) => r.biomarker)])).toEqual([
      [
        'Results',
        ['Mean Corpuscular Haemoglobin (MCH)', 'Mean Corpuscular Haemoglobin Concentration (MCHC)'],
      ],
      ['Liver Function Test (LFT)', ['Total Bilirubin']],
    ]);
  });
});

describe('a range whose dash the scan lost', () => {
  it('is read, and the row carries the doubt of the dash put back', () => {
    // Lines as a scan's reading builds them, where a lost dash is put back (ocr/split-ranges.ts).
    const report = parseReport(
      doc(
        ocrPage(
          1,
          header,
          scanned(130, [30, 'Neutrophils'], [200, '67 %'], [290, '40'], [310, '75%']),
          scanned(145, [30, 'Lymphocytes'], [200, '28 %'], [290, '20 - 40 %']),
        ),
      ),
      'generic',
    );
    expect(rowsOf(report)).toEqual([
      ['Neutrophils', '67', '%', '40 - 75'],
      ['Lymphocytes', '28', '%', '20 - 40'],
    ]);
    expect(report.panels[0]?.rows.map((r) => r.doubts?.map((d) => d.code))).toEqual([['ocr_repaired'], []]);
  });
});
