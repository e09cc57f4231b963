/**
 * Two tables printed side by side under one header line (a hand-made layout of the shape compact reports
 * print; values made up).
 */
import { describe, expect, it } from 'vitest';
import { validateDocument } from '../../src/lab/pipeline/screen/validate.js';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { doc, line, page } from './support/hand-layout.js';

const twoTables = doc(
  page(
    1,
    line(60, [40, 'NORTHGATE LABS', 14]),
    line(85, [40, 'LIVER FUNCTION TEST'], [305, 'KIDNEY FUNCTION TEST']),
    line(
      101,
      [40, 'Test'],
      [145, 'Result'],
      [185, 'Unit'],
      [240, 'Range'],
      [305, 'Test'],
      [410, 'Result'],
      [450, 'Unit'],
      [505, 'Range'],
    ),
    line(
      115,
      [40, 'Bilirubin Total'],
      [145, '0.8'],
      [185, 'mg/dl'],
      [240, '0.2-1.2'],
      [305, 'Urea'],
      [410, '31'],
      [450, 'mg/dl'],
      [505, '15-45'],
    ),
    line(
      128,
      [40, 'SGOT (AST)'],
      [145, '42'],
      [185, 'U/L'],
      [240, '5-40'],
      [305, 'Creatinine'],
      [410, '1.0'],
      [450, 'mg/dl'],
      [505, '0.6-1.1'],
    ),
    line(
      141,
      [40, 'SGPT (ALT)'],
      [145, '55'],
      [185, 'U/L'],
      [240, '5-45'],
      [305, 'Sodium'],
      [410, '139'],
      [450, 'mmol/l'],
      [505, '136-145'],
    ),
    line(170, [40, 'Results to be correlated clinically by the treating physician, please.']),
  ),
);

describe('two tables side by side', () => {
  it('are read apart, each row under its own table title, the left table first', () => {
    expect(validateDocument(twoTables, { anyLab: true })).toMatchObject({ ok: true });
    const report = parseReport(twoTables, 'generic');
    expect(
      report.panels.map((p) => [
        p.panelName,
        p.rows.map((r) => [r.biomarker, r.resultValue, r.referenceRangeText]),
      ]),
    ).toEqual([
      [
        'LIVER FUNCTION TEST',
        [
          ['Bilirubin Total', '0.8', '0.2-1.2'],
          ['SGOT (AST)', '42', '5-40'],
          ['SGPT (ALT)', '55', '5-45'],
        ],
      ],
      [
        'KIDNEY FUNCTION TEST',
        [
          ['Urea', '31', '15-45'],
          ['Creatinine', '1.0', '0.6-1.1'],
          ['Sodium', '139', '136-145'],
        ],
      ],
    ]);
    expect(report.coverage).toEqual({ resultsRead: 6, resultLikeRows: 6, ratio: 1 });
    // Each row's box is where it is printed, not moved to the left table's place.
    const urea = report.panels[1]?.rows[0];
    expect(urea?.bbox?.x).toBe(305);
  });
});
