/**
 * Band tables (made-up laboratory, person and results) drawn with pdfkit as cardiology laboratories print
 * them: each result in the column of its band (Optimal | Borderline | Increased Risk, or Low | Normal |
 * High), the bands' bounds on the line below with the unit after the last, two tables side by side, and a
 * closing summary that repeats names and values.
 */
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../src/lab/pipeline/pdf/layout.js';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import { readBandTables } from '../../src/lab/pipeline/table/band-table.js';
import { viewLines } from '../../src/lab/pipeline/table/line-view.js';
import { drawPdf, drawRow } from './support/draw-pdf.js';
import { layoutOf } from './support/layout-of.js';

function letterhead(doc: PDFKit.PDFDocument): void {
  doc.font('Helvetica').fontSize(12);
  drawRow(doc, 30, [[20, 'Harborline Heart Diagnostics']]);
  doc.fontSize(8);
  drawRow(doc, 50, [
    [20, 'Patient: Example Person'],
    [300, 'Collected: 03/14/2025'],
  ]);
}

function bandReport(): Promise<Uint8Array> {
  return drawPdf((doc) => {
    letterhead(doc);
    // Two tables side by side; the right one's header lost its "Optimal" (printed as a picture).
    drawRow(doc, 100, [
      [20, 'Test Name'],
      [110, 'Optimal'],
      [155, 'Borderline'],
      [200, 'Increased Risk'],
      [320, 'Test Name'],
      [430, 'Borderline'],
      [475, 'Increased Risk'],
    ]);
    drawRow(doc, 120, [
      [16, 'Lipids and Apolipoproteins'],
      [330, 'Particle Map Test'],
    ]);
    drawRow(doc, 135, [
      [30, 'Total Cholesterol'],
      [165, '212'],
      [360, 'Alpha-1'],
      [398, '56.1'],
    ]);
    drawRow(doc, 148, [
      [112, '<200'],
      [157, '200-240'],
      [200, '>240 mg/dL'],
      [398, '>35'],
      [435, '25-35'],
      [478, '<25 mg/dL'],
    ]);
    drawRow(doc, 163, [
      [30, 'HDL-C'],
      [115, '62'],
    ]);
    doc.fontSize(10);
    drawRow(doc, 163, [[330, 'Cholesterol Balance Test']]);
    // A column's caption, set smaller than the rows: no heading.
    doc.fontSize(6);
    drawRow(doc, 184, [[320, 'Absolute Value (mg/L)']]);
    doc.fontSize(8);
    drawRow(doc, 176, [
      [112, '>50'],
      [157, '40-50'],
      [200, '<40 mg/dL'],
    ]);
    // A name wrapped around its value's line.
    drawRow(doc, 191, [
      [30, 'Omega-3 Fatty Acid'],
      [320, 'Lathosterol'],
      [545, '127'],
      [575, '1.8'],
    ]);
    drawRow(doc, 198, [[115, '5.6']]);
    drawRow(doc, 205, [[30, 'Index']]);
    drawRow(doc, 219, [
      [112, '>4.50'],
      [155, '2.50-4.50'],
      [200, '<2.50 %'],
    ]);
    // A score with no bands' bounds under it, above a chart's captions.
    drawRow(doc, 234, [
      [320, 'Balance Score (Production/Absorption)'],
      [500, '0.8'],
    ]);
    drawRow(doc, 242, [
      [320, 'Over Absorber'],
      [525, 'Over Producer'],
    ]);
    doc.addPage();
    letterhead(doc);
    drawRow(doc, 100, [
      [20, 'Test Name'],
      [112, 'Low'],
      [160, 'Normal'],
      [212, 'High'],
    ]);
    drawRow(doc, 120, [[16, 'Chemistry Tests']]);
    drawRow(doc, 135, [
      [40, 'Creatinine'],
      [214, '1.31'],
    ]);
    drawRow(doc, 148, [
      [111, '<0.67'],
      [154, '0.67-1.17'],
      [198, '>1.17 mg/dL'],
    ]);
    drawRow(doc, 163, [
      [40, 'Sodium'],
      [114, '133'],
    ]);
    drawRow(doc, 176, [
      [111, '<135'],
      [156, '135-146'],
      [198, '>146 mmol/L'],
    ]);
    // Bands of a population's thirds: no reference range.
    drawRow(doc, 191, [
      [112, 'Low'],
      [162, 'Mid'],
      [212, 'High'],
    ]);
    drawRow(doc, 206, [
      [40, 'Omega-6 Index'],
      [214, '44.1'],
    ]);
    drawRow(doc, 219, [
      [111, '<39.0'],
      [156, '39.0-43.0'],
      [198, '>43.0 %'],
    ]);
    // An ordinary table after the band tables: the general reader's.
    drawRow(doc, 250, [
      [20, 'Test Name'],
      [150, 'Result'],
      [220, 'Units'],
      [290, 'Reference Range'],
    ]);
    drawRow(doc, 266, [
      [20, 'Vitamin D, 25-Hydroxy'],
      [150, '32'],
      [220, 'ng/mL'],
      [290, '30-100'],
    ]);
    doc.addPage();
    letterhead(doc);
    // The closing summary: the same names and values, two lists side by side.
    drawRow(doc, 100, [
      [17, 'Test Name'],
      [217, '(Most Recent)'],
      [314, 'Test Name'],
      [515, '(Most Recent)'],
    ]);
    drawRow(doc, 120, [
      [16, 'Lipids and Apolipoproteins'],
      [314, 'Chemistry Tests'],
    ]);
    drawRow(doc, 135, [
      [150, 'Total Cholesterol'],
      [233, '212'],
      [470, 'Creatinine'],
      [530, '1.31'],
    ]);
    drawRow(doc, 150, [
      [150, 'HDL-C'],
      [233, '62'],
      [470, 'Sodium'],
      [530, '133'],
    ]);
  });
}

type Outcome = Awaited<ReturnType<typeof runPipeline>>;

function completed(outcome: Outcome) {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
  return outcome.result;
}

describe('band tables', () => {
  it('reads each side-by-side table row by row: value, unit, the reference band as range, a flag by band', async () => {
    const result = completed(await runPipeline(await bandReport(), { anyLab: true }));
    const rows = result.panels.flatMap((p) =>
      p.panelResults.map((r) => [
        p.panelName,
        r.biomarker,
        r.resultValue,
        r.resultUnit,
        r.referenceRangeText,
        r.flag,
        r.pageNumber,
      ]),
    );
    expect(rows).toEqual([
      ['Lipids and Apolipoproteins', 'Total Cholesterol', '212', 'mg/dL', '<200', 'H', 1],
      ['Lipids and Apolipoproteins', 'HDL-C', '62', 'mg/dL', '>50', null, 1],
      ['Lipids and Apolipoproteins', 'Omega-3 Fatty Acid Index', '5.6', '%', '>4.50', null, 1],
      ['Particle Map Test', 'Alpha-1', '56.1', 'mg/dL', '>35', null, 1],
      // No bounds under it: where it sits is no band, and it has no flag.
      ['Cholesterol Balance Test', 'Balance Score (Production/Absorption)', '0.8', null, null, null, 1],
      ['Chemistry Tests', 'Creatinine', '1.31', 'mg/dL', '0.67-1.17', 'H', 2],
      ['Chemistry Tests', 'Sodium', '133', 'mmol/L', '135-146', 'L', 2],
      ['Chemistry Tests', 'Omega-6 Index', '44.1', '%', null, null, 2],
      [expect.any(String), 'Vitamin D, 25-Hydroxy', '32', 'ng/mL', '30-100', null, 2],
    ]);
  });

  it('reports a chart row beside the bands as seen and not read, and the summary page adds nothing', async () => {
    const result = completed(await runPipeline(await bandReport(), { anyLab: true }));
    const unread = result.validationFlags.filter((f) => f.code === 'unread_row');
    expect(unread.map((f) => f.pageNumber)).toEqual([1]);
    expect(result.coverage).toMatchObject({ resultsRead: 9, resultLikeRows: 10 });
    expect(result.panels.flatMap((p) => p.panelResults).filter((r) => r.pageNumber === 3)).toEqual([]);
  });

  it('places each row on its own table, not across the page', async () => {
    const result = completed(await runPipeline(await bandReport(), { anyLab: true }));
    const box = (name: string) =>
      result.panels.flatMap((p) => p.panelResults).find((r) => r.biomarker === name)?.bbox;
    expect((box('Total Cholesterol')?.x ?? 0) + (box('Total Cholesterol')?.width ?? 0)).toBeLessThan(320);
    expect(box('Alpha-1')?.x).toBeGreaterThanOrEqual(320);
  });
});

describe('readBandTables on tables that are no band table', () => {
  const read = (...rows: string[][]) =>
    readBandTables(layoutOf(rows, { columnGap: 70 }).pages.map((page) => viewLines(page)));

  it('leaves a table with a result column before its risk bands to the general reader', () => {
    const found = read(
      ['Test Name', 'Result', 'Optimal', 'Borderline', 'Increased Risk'],
      ['LDL-C', '95', '<100', '100-129', '>130'],
    );
    expect(found.panels).toEqual([]);
    expect(found.read.size).toBe(0);
  });

  it('gives rows read from OCR their reading, so that doubts reach them as they reach other rows', () => {
    const layout = layoutOf(
      [
        ['Test Name', 'Low', 'Normal', 'High'],
        ['Sodium', '', '140'],
        ['', '<135', '135-146', '>146 mmol/L'],
      ],
      { columnGap: 70 },
    );
    const page = layout.pages[0];
    if (!page) throw new Error('no page');
    for (const item of page.items) item.confidence = item.str === '140' ? 62 : 95;
    const ocred = { ...page, lines: buildLines(page.items) };
    const rows = readBandTables([viewLines(ocred)]).panels.flatMap((p) => p.rows);
    expect(rows.map((r) => [r.biomarker, r.resultValue, r.ocr])).toEqual([
      ['Sodium', '140', { repaired: false, confidence: 62 }],
    ]);
    // From a text layer, no OCR reading.
    expect(
      readBandTables([viewLines(layout.pages[0] as typeof page)]).panels[0]?.rows[0]?.ocr,
    ).toBeUndefined();
  });

  it('wants the bands in the order laboratories print them', () => {
    const found = read(
      ['Test Name', 'High', 'Normal', 'Low'],
      ['Sodium', '140'],
      ['', '>146', '135-146', '<135'],
    );
    expect(found.panels).toEqual([]);
  });
});
