/**
 * Culture and sensitivity reports (made-up laboratory, person and results), drawn with pdfkit in the two
 * shapes laboratories print them: interpretations graded with plus signs beside a dash column, as Indian
 * in-house laboratories print them, and an MIC column before a one-letter interpretation, as US hospital
 * laboratories do. Every antibiotic is read, resistant ones included, and the organism line is reported as
 * seen and not read.
 */
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import { readAntibiograms } from '../../src/lab/pipeline/table/antibiogram.js';
import type { LineView } from '../../src/lab/pipeline/table/line.js';
import { viewLines } from '../../src/lab/pipeline/table/line-view.js';
import { drawPdf } from './support/draw-pdf.js';
import { layoutOf } from './support/layout-of.js';

const row = (doc: PDFKit.PDFDocument, y: number, cells: Array<[number, string]>, size = 9): void => {
  doc.fontSize(size);
  for (const [x, text] of cells) doc.text(text, x, y, { lineBreak: false });
};

function gradedReport(): Promise<Uint8Array> {
  return drawPdf((doc) => {
    doc.font('Helvetica');
    row(doc, 40, [[160, 'Larkspur Diagnostic Laboratory']], 12);
    row(doc, 64, [
      [36, 'Name'],
      [130, ': Mr. Quentin Example'],
      [330, 'Sample Collected on'],
      [450, ': 22-Jul-2023'],
    ]);
    row(doc, 100, [[200, 'CULTURE & SENSITIVITY REPORT']], 11);
    row(doc, 124, [
      [36, 'SPECIMEN'],
      [250, 'Urine'],
    ]);
    row(doc, 140, [
      [36, 'RESULT'],
      [250, 'Significant growth of Escherichia coli'],
    ]);
    row(doc, 170, [[36, 'DRUG SENSITIVITY']], 10);
    const drugs: Array<[string, string]> = [
      ['AMIKACIN (AK)', 'S(+++)'],
      ['CIPROFLOXACIN (CI)', 'R'],
      ['NITROFURANTOIN (NIT)', 'S(++)'],
      ['AMOXYCILLIN /', 'I'],
    ];
    drugs.forEach(([name, interpretation], i) => {
      row(doc, 188 + i * 14, [
        [40, name],
        [250, interpretation],
        [420, '-'],
      ]);
    });
    // The last name wraps onto the next line, under itself.
    row(doc, 188 + 4 * 14 - 3, [[40, 'CLAVULANIC ACID']]);
    row(doc, 188 + 5 * 14 + 2, [
      [40, 'MEROPENEM (MRP)'],
      [250, 'R'],
      [420, '-'],
    ]);
    row(doc, 300, [[240, '** End of Report **']]);
  }, 'A4');
}

function micReport(): Promise<Uint8Array> {
  return drawPdf((doc) => {
    doc.font('Helvetica');
    row(doc, 40, [[36, 'Northfield Hospital Laboratory']], 12);
    row(doc, 60, [[36, 'Collected: 03/14/2025']]);
    row(doc, 90, [[36, 'URINE CULTURE']], 11);
    row(doc, 108, [
      [36, 'Organism'],
      [160, '>100,000 CFU/mL Escherichia coli'],
    ]);
    row(doc, 136, [[36, 'Antibiotic Susceptibility']], 10);
    row(doc, 152, [
      [36, 'Antibiotic'],
      [220, 'MIC'],
      [300, 'Interpretation'],
    ]);
    const drugs: Array<[string, string, string]> = [
      ['Ampicillin', '>=32', 'R'],
      ['Cefazolin', '<=4', 'S'],
      ['Trimethoprim/Sulfamethoxazole', '<=20', 'S'],
      ['Levofloxacin', '2', 'I'],
    ];
    drugs.forEach(([name, mic, interpretation], i) => {
      row(doc, 168 + i * 14, [
        [36, name],
        [220, mic],
        [300, interpretation],
      ]);
    });
  });
}

type Outcome = Awaited<ReturnType<typeof runPipeline>>;

function rowsOf(outcome: Outcome): string[][] {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
  return outcome.result.panels.flatMap((panel) =>
    panel.panelResults.map((r) => [panel.panelName, r.biomarker, r.resultValue ?? '']),
  );
}

describe('culture and sensitivity reports', () => {
  it('reads every antibiotic of a graded table, resistant ones and a wrapped name included', async () => {
    const outcome = await runPipeline(await gradedReport(), { anyLab: true });
    expect(rowsOf(outcome)).toEqual([
      ['DRUG SENSITIVITY', 'AMIKACIN (AK)', 'S(+++)'],
      ['DRUG SENSITIVITY', 'CIPROFLOXACIN (CI)', 'R'],
      ['DRUG SENSITIVITY', 'NITROFURANTOIN (NIT)', 'S(++)'],
      ['DRUG SENSITIVITY', 'AMOXYCILLIN / CLAVULANIC ACID', 'I'],
      ['DRUG SENSITIVITY', 'MEROPENEM (MRP)', 'R'],
    ]);
  });

  it('reports the organism line as seen and not read', async () => {
    const outcome = await runPipeline(await gradedReport(), { anyLab: true });
    if (outcome.status !== 'completed') throw new Error(outcome.status);
    expect(outcome.result.validationFlags.filter((f) => f.code === 'unread_row')).toHaveLength(1);
    expect(outcome.result.coverage).toMatchObject({ resultsRead: 5, resultLikeRows: 6 });
  });

  it('reads an MIC column as a row of its own beside the interpretation', async () => {
    const outcome = await runPipeline(await micReport(), { anyLab: true });
    expect(rowsOf(outcome)).toEqual([
      ['Antibiotic Susceptibility', 'Ampicillin', 'R'],
      ['Antibiotic Susceptibility', 'Ampicillin MIC', '>=32'],
      ['Antibiotic Susceptibility', 'Cefazolin', 'S'],
      ['Antibiotic Susceptibility', 'Cefazolin MIC', '<=4'],
      ['Antibiotic Susceptibility', 'Trimethoprim/Sulfamethoxazole', 'S'],
      ['Antibiotic Susceptibility', 'Trimethoprim/Sulfamethoxazole MIC', '<=20'],
      ['Antibiotic Susceptibility', 'Levofloxacin', 'I'],
      ['Antibiotic Susceptibility', 'Levofloxacin MIC', '2'],
    ]);
  });
});

describe('readAntibiograms outside a susceptibility section', () => {
  const read = (...rows: string[][]) =>
    readAntibiograms(layoutOf(rows, { columnGap: 150 }).pages.map((page) => viewLines(page)));

  it('takes no lone letter after a name for a result without a susceptibility heading', () => {
    const found = read(['Blood Group', 'B'], ['Rh Factor', 'R'], ['Hemoglobin', '14.2', 'g/dL']);
    expect(found.panels).toEqual([]);
    expect(found.read.size).toBe(0);
  });

  it('leaves a high-sensitivity test to the general reader', () => {
    const found = read(['HIGH SENSITIVITY CRP'], ['hs-CRP', '0.5', 'mg/L', '<1.0']);
    expect(found.panels).toEqual([]);
  });

  it('reports an antibiotic line after its table has closed as seen and not read', () => {
    const found = read(
      ['DRUG SENSITIVITY'],
      ['AMIKACIN', 'S'],
      ['Comment: see note below for the full list of antibiotics tested'],
      ['GENTAMICIN', 'R'],
    );
    expect(found.panels.flatMap((p) => p.rows.map((r) => r.biomarker))).toEqual(['AMIKACIN']);
    expect(found.unread).toHaveLength(1);
  });
});

describe('readAntibiograms on a scan', () => {
  /** An OCR'd line: each cell its text, left edge, width and confidence, as tesseract gave them. */
  const line = (y: number, ...cells: Array<[string, number, number, number]>): LineView => ({
    pageNumber: 1,
    y,
    font: null,
    raised: [],
    cells: cells.map(([text, x, width, confidence]) => ({ text, x, right: x + width, confidence })),
  });

  // Measured on a real culture report printed as a 200 dpi scan: names' letters 4.5 pt wide, the dash
  // column's marks 2-3 pt wide and read as "a", "is", "2"; a plus sign of a grade read as a 4.
  const scan = (): LineView[] => [
    line(290, ['DRUG SENSITIVITY', 18, 93, 96]),
    line(303, ['AMIKACIN (AK)', 27, 59, 99], ['S(++++)', 270, 33, 95], ['a', 466, 2, 92]),
    line(318, ['AMPICILLIN SULBACTAM (AS)', 27, 114, 99], ['S(++)', 270, 22, 96], ['is', 466, 3, 91]),
    line(380, ['CEFUROXIME(CU)', 28, 70, 98], ['S(++4)', 270, 27, 90], ['-', 466, 3, 90]),
    line(498, ['SPARFLOXACIN (SC)', 28, 76, 98], ['R', 271, 6, 99], ['2', 466, 2, 89]),
    // An MIC of one digit is a letter's width: kept.
    line(514, ['TETRACYCLINE (TE)', 28, 77, 99], ['R', 271, 6, 99], ['8', 466, 5, 93]),
  ];

  it('reads every antibiotic, its misread dash dropped and its misread plus sign put back, doubted', () => {
    const found = readAntibiograms([scan()]);
    expect(
      found.panels.flatMap((p) => p.rows.map((r) => [r.biomarker, r.resultValue, r.ocr?.repaired])),
    ).toEqual([
      ['AMIKACIN (AK)', 'S(++++)', false],
      ['AMPICILLIN SULBACTAM (AS)', 'S(++)', false],
      ['CEFUROXIME(CU)', 'S(+++)', true],
      ['SPARFLOXACIN (SC)', 'R', false],
      ['TETRACYCLINE (TE)', 'R', false],
      ['TETRACYCLINE (TE) MIC', '8', false],
    ]);
    expect(found.unread).toEqual([]);
  });

  it('reads the same marks from a text layer as printed: letters after a grade make no row, "2" is an MIC', () => {
    const text = scan().map((view) => ({
      ...view,
      cells: view.cells.map(({ text, x }) => ({ text, x })),
    }));
    const found = readAntibiograms([text]);
    expect(found.panels.flatMap((p) => p.rows.map((r) => [r.biomarker, r.resultValue]))).toEqual([
      ['SPARFLOXACIN (SC)', 'R'],
      ['SPARFLOXACIN (SC) MIC', '2'],
      ['TETRACYCLINE (TE)', 'R'],
      ['TETRACYCLINE (TE) MIC', '8'],
    ]);
  });
});
