/**
 * A patient-portal printout in the shape Epic MyChart prints results (made-up hospital, person and values):
 * one table per order headed Component / Your Value / Standard Range / Flag, the value and its unit in one
 * cell, the range with its unit, the laboratory only as the "Resulting Agency" under the table.
 */
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import { drawPdf } from './support/draw-pdf.js';

type Row = [string, string, string, string];

function printout(): Promise<Uint8Array> {
  return drawPdf((doc) => {
    const row = (y: number, cells: Array<[number, string]>, size = 9) => {
      doc.fontSize(size);
      for (const [x, text] of cells) doc.text(text, x, y, { lineBreak: false });
    };
    const table = (y: number, heading: string, rows: Row[]) => {
      row(y, [[36, heading]], 12);
      row(y + 20, [
        [36, 'Component'],
        [220, 'Your Value'],
        [330, 'Standard Range'],
        [460, 'Flag'],
      ]);
      rows.forEach((r, i) => {
        row(y + 38 + i * 16, [
          [36, r[0]],
          [220, r[1]],
          [330, r[2]],
          [460, r[3]],
        ]);
      });
    };
    doc.font('Helvetica');
    row(40, [[36, 'MyChart']], 14);
    row(60, [[36, 'Name: Quentin Example | DOB: 1/2/1970 | MRN: 1234567']]);
    table(90, 'COMPREHENSIVE METABOLIC PANEL', [
      ['Sodium', '140 mmol/L', '136 - 145 mmol/L', ''],
      ['Potassium', '5.6 mmol/L', '3.5 - 5.1 mmol/L', 'High'],
      ['Glucose', '92 mg/dL', '70 - 99 mg/dL', ''],
    ]);
    row(200, [
      [36, 'Specimen Collected: 03/14/2025 8:02 AM'],
      [300, 'Last Resulted: 03/14/2025 1:15 PM'],
    ]);
    row(225, [
      [36, 'Resulting Agency'],
      [220, 'NORTHFIELD HOSPITAL LABORATORY'],
    ]);
    table(260, 'LIPID PANEL', [
      ['Cholesterol', '212 mg/dL', '<200 mg/dL', 'High'],
      ['HDL Cholesterol', '48 mg/dL', '>40 mg/dL', ''],
    ]);
  });
}

describe('an Epic MyChart-style portal printout', () => {
  it('is another laboratory in default mode, named by its resulting agency', async () => {
    expect(await runPipeline(await printout())).toMatchObject({
      status: 'invalid_document',
      rejection_reason: 'non_supported_lab',
      detected_lab: 'NORTHFIELD HOSPITAL LABORATORY',
    });
  });

  it('is read whole with --any-lab: each order its panel, value and unit apart, flags and ranges', async () => {
    const outcome = await runPipeline(await printout(), { anyLab: true });
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    expect(outcome.result.labName).toBe('NORTHFIELD HOSPITAL LABORATORY');
    expect(outcome.result.dateCollected).toBe('2025-03-14');
    const rows = outcome.result.panels.map((panel) => [
      panel.panelName,
      panel.panelResults.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText, r.flag]),
    ]);
    expect(rows).toEqual([
      [
        'COMPREHENSIVE METABOLIC PANEL',
        [
          ['Sodium', '140', 'mmol/L', '136 - 145', null],
          ['Potassium', '5.6', 'mmol/L', '3.5 - 5.1', 'High'],
          ['Glucose', '92', 'mg/dL', '70 - 99', null],
        ],
      ],
      [
        'LIPID PANEL',
        [
          ['Cholesterol', '212', 'mg/dL', '<200', 'High'],
          ['HDL Cholesterol', '48', 'mg/dL', '>40', null],
        ],
      ],
    ]);
  });
});
