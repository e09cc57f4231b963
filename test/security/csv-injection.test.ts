/**
 * Issue #30 item 6: CSV formula injection. No cell of `--format csv` opens as a formula in a spreadsheet
 * (OWASP's rule: a leading `= + - @ \t \r` gets a single quote and the cell is quoted), and a row whose
 * name starts with one of those is never dropped silently: it is read, or flagged `unread_row` and
 * counted in coverage. Real PDFs drawn with pdfkit, through the whole pipeline.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/lab/output/csv.js';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import type { ExtractionCore } from '../../src/lab/types.js';
import { drawPdf, drawRow, labcorpPage } from '../lab/support/draw-pdf.js';

const HOSTILE = ['=HYPERLINK("http://x")', '+SUM(A1)', '-cmd|calc', '@SUM(A1)'];

async function extracted(names: readonly string[]): Promise<ExtractionCore> {
  const bytes = await drawPdf((doc) =>
    labcorpPage(doc, (d) => {
      drawRow(d, 120, [
        [36, 'Test'],
        [200, 'Result'],
        [300, 'Units'],
        [400, 'Reference Interval'],
      ]);
      drawRow(d, 134, [
        [36, 'Glucose'],
        [200, '94'],
        [300, 'mg/dL'],
        [400, '70-99'],
      ]);
      for (const [i, name] of names.entries()) {
        drawRow(d, 148 + 14 * i, [
          [36, name],
          [200, String(100 + i)],
          [300, 'mmol/L'],
          [400, '96-106'],
        ]);
      }
    }),
  );
  const outcome = await runPipeline(bytes);
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
  return outcome.result;
}

/** Cells a spreadsheet would evaluate: a leading = + - @ tab or CR, not a plain number. */
const formulaCells = (csv: string): string[] =>
  (parse(csv, { relax_column_count: true }) as string[][])
    .flat()
    .filter(
      (cell) => /^[=+\-@\t\r]/.test(cell) && !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(cell),
    );

describe('CSV formula injection (#30 item 6)', () => {
  it('escapes a file name or any cell that starts a formula, by OWASP’s rule', async () => {
    const result = await extracted([]);
    const panel = result.panels[0];
    const first = panel?.panelResults[0];
    if (!panel || !first) throw new Error('no result read');
    const hostile: ExtractionCore = {
      ...result,
      panels: [
        {
          ...panel,
          panelName: '@SUM(A1:A9)',
          panelResults: [
            {
              ...first,
              biomarker: '+cmd|calc!A0',
              resultValue: '-2+3',
              resultUnit: '\tmg/dL',
              referenceRangeText: '\r=1+1',
              minRefRangeValue: -2,
              maxRefRangeValue: 5,
            },
          ],
        },
      ],
    };
    const csv = toCsv([{ file: '=cmd|calc!A0.pdf', result: hostile }]);
    expect(csv).not.toMatch(/(^|\r\n|,)=cmd/);
    expect(formulaCells(csv)).toEqual([]);
    const [out] = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(out).toMatchObject({
      file: "'=cmd|calc!A0.pdf",
      panel: "'@SUM(A1:A9)",
      biomarker: "'+cmd|calc!A0",
      value: "'-2+3",
      unit: "'\tmg/dL",
      ref_text: "'\r=1+1",
      // A plain negative number stays a number.
      ref_low: '-2',
      ref_high: '5',
    });
    // Quoted, as OWASP asks, so the quote mark cannot be split off by a separator in the cell.
    expect(csv).toContain(`"'=cmd|calc!A0.pdf"`);
  });

  it('never drops a row whose name starts with = + - @ silently: read it, or flag and count it', async () => {
    const result = await extracted(HOSTILE);
    const names = result.panels.flatMap((p) => p.panelResults.map((r) => r.biomarker));
    const read = HOSTILE.filter((name) => names.includes(name));
    const unread = result.validationFlags.filter((f) => f.code === 'unread_row');
    expect(names).toContain('Glucose');
    // Every hostile row is either a result or an unread row counted against coverage.
    expect(read.length + unread.length).toBe(HOSTILE.length);
    expect(result.coverage.resultLikeRows).toBe(1 + HOSTILE.length);
    expect(result.coverage.resultsRead).toBe(1 + read.length);
    expect(result.coverage.ratio).toBeLessThan(1);
    // And whatever was read is escaped in the CSV.
    expect(formulaCells(toCsv([{ file: 'a.pdf', result }]))).toEqual([]);
  });
});
