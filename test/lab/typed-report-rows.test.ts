/**
 * A small laboratory's typed report (hand-made layouts of the shape such reports print; values made up):
 * `Name : value unit (range)`, the unit in brackets after the name, a star after a value, dot leaders.
 */
import { describe, expect, it } from 'vitest';
import { validateDocument } from '../../src/lab/pipeline/screen/validate.js';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { matchLoinc } from '../../src/terminology/loinc-match.js';
import { doc, line, ocrPage, page, scanned } from './support/hand-layout.js';

const rowsOf = (report: ReturnType<typeof parseReport>) =>
  report.panels.flatMap((p) =>
    p.rows.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText]),
  );

const typed = doc(
  page(
    1,
    line(80, [50, 'RIVERSIDE CLINICAL LABORATORY', 14]),
    line(105, [50, 'BIOCHEMISTRY']),
    line(125, [50, 'Blood Sugar (Fasting)'], [200, ':'], [215, '112 mg/dL (70 - 110)']),
    line(141, [50, 'Serum Creatinine'], [200, ':'], [215, '1.4 mg/dL (0.6 - 1.2)']),
    line(157, [50, 'Serum Sodium'], [200, ':'], [215, '136 mmol/L (135 - 145)']),
    line(185, [50, 'HAEMATOLOGY']),
    line(205, [50, 'Haemoglobin (g/dL)'], [260, '10.8 *'], [380, '13.0 - 17.0']),
    line(221, [50, 'Platelets (lakhs/cumm)'], [260, '1.9'], [380, '1.5 - 4.5']),
    line(249, [50, 'HBsAg ........................'], [260, 'Non Reactive']),
    // An abbreviation in capitals after a name is the name's, not a unit (CM would read as centimetres).
    line(265, [50, 'Urine Culture (CM)'], [260, 'Negative']),
  ),
);

describe('a typed report of `Name : value unit (range)` lines', () => {
  it('is a lab report, and each line a row with its unit and range', () => {
    expect(validateDocument(typed, { anyLab: true })).toMatchObject({ ok: true });
    const report = parseReport(typed, 'generic');
    expect(rowsOf(report)).toEqual([
      ['Blood Sugar (Fasting)', '112', 'mg/dL', '70 - 110'],
      ['Serum Creatinine', '1.4', 'mg/dL', '0.6 - 1.2'],
      ['Serum Sodium', '136', 'mmol/L', '135 - 145'],
      // The unit printed in the name is the row's; the star marks the value, it is no part of it.
      ['Haemoglobin (g/dL)', '10.8', 'g/dL', '13.0 - 17.0'],
      ['Platelets (lakhs/cumm)', '1.9', 'lakhs/cumm', '1.5 - 4.5'],
      ['HBsAg', 'Non Reactive', null, null],
      ['Urine Culture (CM)', 'Negative', null, null],
    ]);
    expect(report.coverage).toEqual({ resultsRead: 7, resultLikeRows: 7, ratio: 1 });
    expect(matchLoinc('Platelets (lakhs/cumm)').loincCode).toBe('777-3');
  });

  it('is read on a scan whose dash was lost inside the bracket, the row doubted for the dash put back', () => {
    const report = parseReport(
      doc(
        ocrPage(
          1,
          scanned(105, [50, 'BIOCHEMISTRY']),
          scanned(125, [50, 'Blood Sugar (Fasting)'], [216, '98 mg/dL (70'], [289, '110)']),
          scanned(141, [50, 'Serum Sodium'], [216, '136 mmol/L (135 - 145)']),
        ),
      ),
      'generic',
    );
    expect(rowsOf(report)).toEqual([
      ['Blood Sugar (Fasting)', '98', 'mg/dL', '70 - 110'],
      ['Serum Sodium', '136', 'mmol/L', '135 - 145'],
    ]);
    expect(report.panels[0]?.rows.map((r) => r.doubts?.map((d) => d.code))).toEqual([['ocr_repaired'], []]);
  });
});
