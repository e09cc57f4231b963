/**
 * Rows of phone photos and small scans as the layout gives them (hand-made layouts of the shapes seen on
 * real scans of Indian hospital reports; no real document's text): a flag printed in brackets before the
 * value, and a table with no column labels whose page ends in a stamp's specks.
 */
import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { doc, page, scanned } from './support/hand-layout.js';

/** A one-page scanned report of `lines`, parsed as any laboratory's. */
const parseScan = (...lines: Parameters<typeof page>[1][]) => parseReport(doc(page(1, ...lines)), 'generic');

/** The header of the Indian hospital scans' result tables. */
const investigationHeader = scanned(
  100,
  [50, 'Investigation'],
  [270, 'Result'],
  [400, 'Unit'],
  [450, 'Bio. Reference Intervals'],
);

const rowsOf = (report: ReturnType<typeof parseReport>) =>
  report.panels.flatMap((p) =>
    p.rows.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText, r.flag]),
  );

describe('a flag printed in brackets before the value', () => {
  const header = scanned(100, [50, 'Investigation'], [270, 'Result'], [360, 'Unit'], [430, 'Expected Value']);

  it('is read as the flag, and the value as the value, set left of the result column or beside the name', () => {
    const report = parseScan(
      header,
      scanned(130, [50, 'Lymphocytes'], [270, '31'], [360, '%'], [430, '20 - 45']),
      scanned(145, [50, 'HAEMOGLOBIN'], [244, '(L) 6.9'], [358, 'gm/dl'], [433, '11 - 16']),
      scanned(160, [50, 'MCV (H) 105.0'], [358, 'fl'], [433, '82 - 98']),
    );
    expect(rowsOf(report)).toEqual([
      ['Lymphocytes', '31', '%', '20 - 45', null],
      ['HAEMOGLOBIN', '6.9', 'gm/dl', '11 - 16', 'L'],
      ['MCV', '105.0', 'fl', '82 - 98', 'H'],
    ]);
  });
});

describe('a table with no column labels over a stamp', () => {
  it('takes no column from specks that start inside the names', () => {
    const report = parseScan(
      scanned(130, [64, 'NEUTROPHIL'], [272, '77'], [344, '%'], [438, '40 - 75']),
      scanned(145, [64, 'LYMPHOCYTE'], [272, '20'], [344, '%'], [438, '20 - 45']),
      scanned(160, [64, 'MONOCYTE'], [272, '02'], [344, '%'], [438, '02 - 10']),
      scanned(175, [65, 'MCHC'], [274, '33.3'], [345, 'gm/dl'], [439, '30 - 35']),
      // A stamp and signature read as specks, starting left of the names, a number among them.
      scanned(400, [42, 'Paik'], [80, '5'], [100, 've'], [183, 'L'], [201, 'cf'], [283, 'vull nes']),
    );
    expect(rowsOf(report).map((r) => r.slice(0, 4))).toEqual([
      ['NEUTROPHIL', '77', '%', '40 - 75'],
      ['LYMPHOCYTE', '20', '%', '20 - 45'],
      ['MONOCYTE', '02', '%', '02 - 10'],
      ['MCHC', '33.3', 'gm/dl', '30 - 35'],
    ]);
  });
});

describe('a dash printed where a test has no unit', () => {
  it('is no unit, as printed or as a scan reads it', () => {
    const report = parseScan(
      investigationHeader,
      scanned(130, [50, 'Test'], [270, '13.0'], [400, 'Seconds'], [466, '13 - 17']),
      scanned(145, [50, 'INR'], [270, '1.00'], [400, '-'], [466, '0.64 - 1.17']),
      scanned(160, [50, 'ISI'], [270, '1.05'], [400, '>'], [466, '0.9 - 1.2']),
    );
    expect(rowsOf(report).map((r) => r.slice(0, 4))).toEqual([
      ['Test', '13.0', 'Seconds', '13 - 17'],
      ['INR', '1.00', null, '0.64 - 1.17'],
      ['ISI', '1.05', null, '0.9 - 1.2'],
    ]);
    // "Seconds", capitalised as a word is, is a unit laboratories print: no doubt on it.
    expect(report.validationFlags.map((f) => f.code)).not.toContain('unit_unrecognised');
  });
});

describe('a result a scan made nothing of, beside a test laboratories name', () => {
  it("is counted as seen and not read, where a label's words are not", () => {
    const report = parseScan(
      investigationHeader,
      scanned(130, [50, 'Sodium'], [270, '145'], [400, 'mmol/L'], [466, '135 - 145']),
      // A blood group printed in quotes ('O'), read as letters that are no result.
      scanned(160, [50, 'BLOOD GROUP'], [272, 'QO']),
      scanned(175, [50, 'Rh TYPE'], [268, 'POSITIVE (4+)']),
      scanned(190, [50, 'Comment']),
      scanned(220, [50, 'Machine Name'], [270, 'KC 4 Delta']),
    );
    expect(rowsOf(report).map((r) => r.slice(0, 2))).toEqual([
      ['Sodium', '145'],
      // The note's label under the row is no tail of its name.
      ['Rh TYPE', 'POSITIVE (4+)'],
    ]);
    expect(report.coverage).toEqual({ resultsRead: 2, resultLikeRows: 3, ratio: 0.667 });
    expect(report.validationFlags.filter((f) => f.code === 'unread_row')).toHaveLength(1);
  });
});

describe("a scanned interpretive table under a result (the text layer's borders gone)", () => {
  it('reads the result and no category of the table as a result', () => {
    const header = scanned(
      100,
      [48, 'Test Name'],
      [250, 'Result'],
      [330, 'Unit'],
      [420, 'Bio. Ref. Interval'],
    );
    const report = parseScan(
      header,
      scanned(130, [48, 'VITAMIN D, 25 HYDROXY'], [250, '85.00'], [330, 'nmol/L'], [420, '75.00 - 250.00']),
      scanned(160, [48, 'Interpretation']),
      scanned(175, [48, 'LEVEL'], [134, 'REFERENCE RANGE'], [230, 'COMMENTS']),
      scanned(190, [48, 'Deficient'], [134, '< 50'], [230, 'High risk for developing']),
      scanned(205, [48, 'Insufficient'], [134, '50-74'], [230, 'Vitamin D concentration']),
      scanned(220, [48, 'Sufficient'], [134, '75-250'], [230, 'Optimal concentration']),
    );
    expect(rowsOf(report).map((r) => r.slice(0, 4))).toEqual([
      ['VITAMIN D, 25 HYDROXY', '85.00', 'nmol/L', '75.00 - 250.00'],
    ]);
  });
});

describe("a range printed as a block under its row (Quest's estradiol)", () => {
  const header = scanned(100, [50, 'Analyte'], [250, 'Value'], [330, 'Reference Range'], [450, 'Lab']);
  const rows = (withBlock: boolean) =>
    parseScan(
      header,
      scanned(120, [50, 'SHBG'], [250, '98'], [330, '17-124 nmol/L']),
      scanned(135, [50, 'TESTOSTERONE, TOTAL'], [250, '18'], [330, '2-45 ng/dL']),
      scanned(150, [50, 'ESTRADIOL'], [250, '24'], [330, 'pg/mL']),
      ...(withBlock
        ? [
            scanned(165, [60, 'Reference Range:']),
            scanned(180, [60, 'Males: 11-44 pg/mL']),
            scanned(195, [60, 'Follicular Phase: 19-144 pg/mL']),
          ]
        : []),
      scanned(210, [50, 'METHYLMALONIC ACID'], [250, '367 H'], [330, '55-335 nmol/L']),
      scanned(225, [50, 'FERRITIN'], [250, '80'], [330, '38-380 ng/mL']),
    );
  const doubtsOf = (report: ReturnType<typeof parseReport>, name: string) =>
    report.panels
      .flatMap((p) => p.rows)
      .find((r) => r.biomarker === name)
      ?.doubts?.map((d) => d.code);

  it('is no range lost: the row is not doubted for it, as one printed with none between ranged rows is', () => {
    expect(doubtsOf(rows(true), 'ESTRADIOL')).toEqual([]);
    expect(doubtsOf(rows(false), 'ESTRADIOL')).toEqual(['ocr_range_missing']);
  });
});
