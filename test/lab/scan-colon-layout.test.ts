/**
 * A scanned pathology report laid out as many small laboratories print theirs (a hand-made layout of that
 * shape, no real document's text): column labels centred over left-aligned text, values after a colon left
 * of their label, capitals headings over groups of mixed-case names, and the marks a scan adds (a punch
 * hole before a name, a slash read as a letter).
 */
import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { doc, page, scanned } from './support/hand-layout.js';

const HEADER = scanned(
  100,
  [40, 'Test Name'],
  [250, 'Observed Value'],
  [380, 'Unit'],
  [440, 'Reference Range'],
);

const parse = (...lines: ReturnType<typeof scanned>[]) =>
  parseReport(doc(page(1, HEADER, ...lines)), 'generic');
const rowsOf = (report: ReturnType<typeof parse>) =>
  report.panels.flatMap((p) =>
    p.rows.map((r) => [p.panelName, r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText]),
  );

describe('a scanned report with centred column labels', () => {
  it('reads a unit that starts a little left of its centred label as the unit, and keeps the row', () => {
    const report = parse(
      scanned(130, [40, 'Total R.B.C.'], [240, '4.42'], [373, 'milcumm'], [436, '4.5-6.2']),
      scanned(145, [40, 'M.C.H.C.'], [240, '29.93'], [374, 'gidl'], [436, '30-36']),
    );
    expect(rowsOf(report).map((r) => r.slice(1))).toEqual([
      ['Total R.B.C.', '4.42', 'mil/cumm', '4.5-6.2'],
      ['M.C.H.C.', '29.93', 'g/dl', '30-36'],
    ]);
    expect(report.coverage).toMatchObject({ resultsRead: 2, resultLikeRows: 2 });
  });

  it('drops marks a scan read before a name and puts back a capital lost there, doubting the row', () => {
    const report = parse(
      scanned(130, [30, '€>olymorphs'], [240, '83'], [380, '%'], [440, '40-75']),
      scanned(145, [40, 'Lymphocytes'], [240, '12'], [380, '%'], [440, '20-45']),
    );
    expect(rowsOf(report).map((r) => r.slice(1, 3))).toEqual([
      ['Polymorphs', '83'],
      ['Lymphocytes', '12'],
    ]);
    const doubted = report.panels.flatMap((p) => p.rows).filter((r) => r.doubts?.length);
    expect(doubted.map((r) => r.biomarker)).toEqual(['Polymorphs']);
  });

  it('opens a group at a capitals heading under a mixed-case name rather than lengthening the name', () => {
    const report = parse(
      scanned(130, [40, 'Total W. B. C.'], [240, '6900'], [380, '/cumm'], [440, '4000-11000']),
      scanned(145, [40, 'DIFFERENTIAL COUNT']),
      scanned(160, [40, 'Lymphocytes'], [240, '32'], [380, '%'], [440, '20-45']),
    );
    expect(rowsOf(report).map((r) => r.slice(0, 2))).toEqual([
      [expect.any(String), 'Total W. B. C.'],
      ['DIFFERENTIAL COUNT', 'Lymphocytes'],
    ]);
  });

  it('joins a result in words wrapped under itself, and nothing from a row below', () => {
    const report = parse(
      scanned(130, [40, 'M.C.V.'], [240, '90.7'], [380, 'fl'], [440, '84-96']),
      scanned(145, [40, 'RBC Morphology'], [240, 'Normocytic']),
      scanned(154, [240, 'Normochromic']),
      scanned(175, [40, 'WBC Morphology'], [240, 'Normal']),
    );
    expect(rowsOf(report).map((r) => r.slice(1, 3))).toEqual([
      ['M.C.V.', '90.7'],
      ['RBC Morphology', 'Normocytic Normochromic'],
      ['WBC Morphology', 'Normal'],
    ]);
  });

  it('takes a letter alone in the unit column for a misread unit, never for a flag', () => {
    const report = parse(
      scanned(130, [40, 'Monocytes'], [240, '7.4'], [380, 'a'], [440, '2-10']),
      scanned(145, [40, 'Basophils'], [240, '0.2'], [380, '0'], [440, '0.0-1.0']),
    );
    const rows = report.panels.flatMap((p) => p.rows);
    expect(rows.map((r) => [r.biomarker, r.resultUnit, r.flag])).toEqual([
      ['Monocytes', '%', null],
      ['Basophils', '%', null],
    ]);
  });

  it('reads no row from a label whose colon was lost beside a garbled date', () => {
    const report = parse(
      scanned(130, [40, 'Hemoglobin'], [240, '13.1'], [380, 'g/dl'], [440, '13.5-17.5']),
      scanned(145, [40, 'Sample No'], [250, 'Collec.Date'], [440, 'BR 4s']),
    );
    expect(rowsOf(report).map((r) => r[1])).toEqual(['Hemoglobin']);
  });

  it('keeps a method note whose opening parenthesis the scan lost out of the name above', () => {
    const rows = (note: (y: number) => ReturnType<typeof scanned>) =>
      rowsOf(
        parse(
          scanned(130, [40, 'RBC Count'], [250, '4.50'], [380, 'mill/mm3'], [440, '4.50 - 5.50']),
          note(142),
          scanned(155, [40, 'MCV'], [250, '90.00'], [380, 'fL'], [440, '83.00 - 101.00']),
          note(167),
          scanned(180, [40, 'MCH'], [250, '32.00'], [380, 'pg'], [440, '27.00 - 32.00']),
          note(192),
          scanned(205, [40, 'MCHC'], [250, '33.00'], [380, 'g/dL'], [440, '31.50 - 34.50']),
          note(217),
        ),
      ).map((r) => r[1]);
    const names = ['RBC Count', 'MCV', 'MCH', 'MCHC'];
    expect(rows((y) => scanned(y, [40, '(Electrical Impedence)']))).toEqual(names);
    expect(rows((y) => scanned(y, [40, 'Electrical Impedence)']))).toEqual(names);
  });

  it("still joins a name's tail that closes a parenthesis the name opened", () => {
    const report = parse(
      scanned(130, [40, 'eGFR (non-African'], [250, '92'], [380, 'mL/min'], [440, '>60']),
      scanned(142, [40, 'American)']),
      scanned(155, [40, 'Creatinine'], [250, '0.9'], [380, 'mg/dL'], [440, '0.6-1.2']),
    );
    expect(rowsOf(report).map((r) => r[1])).toEqual(['eGFR (non-African American)', 'Creatinine']);
  });
});
