/**
 * Never silently empty, never silently partial: real PDFs drawn here with pdfkit, run through the whole
 * pipeline. An accepted report with nothing readable fails with no_results; what looks like a result but
 * is not read is flagged with its page and counted in `coverage`; a text layer of glyph codes is not
 * "non-English".
 */
import { describe, expect, it } from 'vitest';
import { NoResultsError } from '../../src/lab/pipeline/errors.js';
import { extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import { isReadableText } from '../../src/lab/pipeline/screen/readable-text.js';
import { looksLikeResult } from '../../src/lab/pipeline/table/table-lines.js';
import { drawPdf, drawRow, labcorpPage } from './support/draw-pdf.js';

describe('never silently empty, never silently partial', () => {
  it('fails an accepted report whose only result-like lines sit in an interpretive box with no_results', async () => {
    const bytes = await drawPdf((doc) =>
      labcorpPage(doc, (d) => {
        drawRow(d, 120, [[36, '----------------------------------------------------------']]);
        drawRow(d, 134, [
          [36, 'Glucose'],
          [200, '94'],
          [300, 'mg/dL'],
          [400, '70-99'],
        ]);
        drawRow(d, 148, [
          [36, 'Sodium'],
          [200, '140'],
          [300, 'mmol/L'],
          [400, '134-144'],
        ]);
        drawRow(d, 162, [
          [36, 'Potassium'],
          [200, '4.2'],
          [300, 'mmol/L'],
          [400, '3.5-5.2'],
        ]);
        drawRow(d, 176, [[36, '----------------------------------------------------------']]);
      }),
    );
    const outcome = runPipeline(bytes);
    await expect(outcome).rejects.toBeInstanceOf(NoResultsError);
    await expect(outcome).rejects.toMatchObject({ code: 'no_results' });
  });

  it('reads what it can, and flags and counts the result-like line it could not read', async () => {
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
        drawRow(d, 148, [
          [36, 'Sodium'],
          [200, '140'],
          [300, 'mmol/L'],
          [400, '134-144'],
        ]);
        drawRow(d, 162, [
          [36, 'Potassium'],
          [200, '4.2'],
          [300, 'mmol/L'],
          [400, '3.5-5.2'],
        ]);
        drawRow(d, 200, [[400, 'Page 1 of 1']]);
        // Printed under the page number, where no table is read.
        drawRow(d, 220, [
          [36, 'Chloride'],
          [200, '101'],
          [300, 'mmol/L'],
          [400, '96-106'],
        ]);
      }),
    );
    const outcome = await runPipeline(bytes);
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    const names = outcome.result.panels.flatMap((p) => p.panelResults.map((r) => r.biomarker));
    expect(names).toEqual(['Glucose', 'Sodium', 'Potassium']);
    expect(outcome.result.validationFlags).toContainEqual({
      code: 'unread_row',
      severity: 'warning',
      message: 'A line that looks like a result was not read',
      pageNumber: 1,
    });
    expect(outcome.result.coverage).toEqual({ resultsRead: 3, resultLikeRows: 4, ratio: 0.75 });
    expect(outcome.result.labName).toBe('Labcorp');
  });

  it('takes a text layer of glyph codes for unreadable text, not for a foreign language', async () => {
    const layout = await extractLayout(
      await drawPdf((doc) => drawRow(doc, 100, [[36, 'Glucose 94 mg/dL 70-99']])),
    );
    expect(isReadableText(layout)).toBe(true);
    const glyphs = '\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0010\u0011\u0012'.repeat(6);
    const garbled = {
      ...layout,
      pages: layout.pages.map((p) => ({ ...p, items: p.items.map((item) => ({ ...item, str: glyphs })) })),
    };
    expect(isReadableText(garbled)).toBe(false);
  });
});

describe('what looks like a result, whatever the reader made of it', () => {
  const line = (...texts: string[]) => ({ cells: texts.map((text, i) => ({ x: 36 + i * 100, text })) });

  it('takes a name beside a genotype for a result: a pharmacogenetic row has no unit or range to show it', () => {
    expect(looksLikeResult(line('Myopathy', 'T/T', 'Consider recommending standard doses'))).toBe(true);
    expect(looksLikeResult(line('CYP2C19', '*1/*2'))).toBe(true);
  });

  it('still wants a unit or range beside a bare number', () => {
    expect(looksLikeResult(line('A/G Ratio', '1.5'))).toBe(false);
    expect(looksLikeResult(line('A/G Ratio', '1.5', '1.2-2.2'))).toBe(true);
  });
});
