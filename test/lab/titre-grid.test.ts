/**
 * Widal reports (made-up laboratory, person and results) drawn with pdfkit as Indian and African
 * laboratories print them: a grid of antigens by dilutions with + and - marks, then an impression. Each
 * antigen is read as its titre, the highest dilution marked positive; a grid that gives no titre is
 * reported as seen and not read.
 */
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import { viewLines } from '../../src/lab/pipeline/table/line-view.js';
import { readTitreGrids } from '../../src/lab/pipeline/table/titre-grid.js';
import { drawPdf } from './support/draw-pdf.js';
import { layoutOf } from './support/layout-of.js';

const row = (doc: PDFKit.PDFDocument, y: number, cells: Array<[number, string]>, size = 10): void => {
  doc.fontSize(size);
  for (const [x, text] of cells) doc.text(text, x, y, { lineBreak: false });
};

const DILUTIONS = ['1:20', '1:40', '1:80', '1:160', '1:320'];

function widalReport(grid: Array<[string, string[]]>): Promise<Uint8Array> {
  return drawPdf((doc) => {
    doc.font('Helvetica');
    row(doc, 40, [[170, 'Marigold Pathology Laboratory']], 13);
    row(doc, 62, [[180, 'Fully Computerised Diagnostic Centre']], 9);
    row(doc, 90, [
      [36, 'Patient Name'],
      [130, ': Mrs. Example Person'],
      [340, 'Date'],
      [400, ': 14/08/2024'],
    ]);
    row(doc, 106, [
      [36, 'Referred By'],
      [130, ': Dr. Sample'],
      [340, 'Age/Sex'],
      [400, ': 34 Y / F'],
    ]);
    row(doc, 140, [[230, 'WIDAL TEST']], 12);
    row(doc, 158, [[190, '(Slide Agglutination Method)']], 9);
    row(doc, 182, [[36, 'Antigen'], ...DILUTIONS.map((d, i): [number, string] => [230 + i * 60, d])]);
    grid.forEach(([antigen, marks], r) => {
      row(doc, 202 + r * 18, [[36, antigen], ...marks.map((m, i): [number, string] => [238 + i * 60, m])]);
    });
    row(doc, 202 + grid.length * 18 + 20, [
      [36, 'Impression'],
      [130, ': Positive for S. Typhi O at 1:80 dilution'],
    ]);
  }, 'A4');
}

const GRID: Array<[string, string[]]> = [
  ['Salmonella Typhi "O"', ['+', '+', '+', '-', '-']],
  ['Salmonella Typhi "H"', ['+', '+', '-', '-', '-']],
  ['Salmonella Paratyphi "AH"', ['-', '-', '-', '-', '-']],
  ['Salmonella Paratyphi "BH"', ['+', '-', '-', '-', '-']],
];

type Outcome = Awaited<ReturnType<typeof runPipeline>>;

function completed(outcome: Outcome) {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
  return outcome.result;
}

describe('Widal titre grids', () => {
  it('reads each antigen as its titre under the test heading, and the report completes', async () => {
    const result = completed(await runPipeline(await widalReport(GRID), { anyLab: true }));
    expect(
      result.panels.flatMap((p) => p.panelResults.map((r) => [p.panelName, r.biomarker, r.resultValue])),
    ).toEqual([
      ['WIDAL TEST', 'Salmonella Typhi "O"', '1:80'],
      ['WIDAL TEST', 'Salmonella Typhi "H"', '1:40'],
      ['WIDAL TEST', 'Salmonella Paratyphi "AH"', '<1:20'],
      ['WIDAL TEST', 'Salmonella Paratyphi "BH"', '1:20'],
    ]);
    expect(result.coverage).toMatchObject({ resultsRead: 4 });
    // A titre is a value laboratories print: no doubt that it was misread.
    expect(result.panels.flatMap((p) => p.panelResults.flatMap((r) => r.doubts ?? []))).toEqual([]);
  });

  it('reports an antigen whose marks give no titre as seen and not read, and reads the others', async () => {
    const broken: Array<[string, string[]]> = [
      ['Salmonella Typhi "O"', ['+', '-', '+', '-', '-']],
      ...GRID.slice(1),
    ];
    const result = completed(await runPipeline(await widalReport(broken), { anyLab: true }));
    expect(result.panels.flatMap((p) => p.panelResults.map((r) => r.biomarker))).toHaveLength(3);
    expect(result.coverage).toMatchObject({ resultsRead: 3, resultLikeRows: 4 });
    expect(result.validationFlags.filter((f) => f.code === 'unread_row')).toHaveLength(1);
  });
});

describe('readTitreGrids on lines that are no grid', () => {
  const read = (...rows: string[][]) =>
    readTitreGrids(layoutOf(rows, { columnGap: 60 }).pages.map((page) => viewLines(page)));

  it('takes a titre printed as a value for the general reader', () => {
    const found = read(['ANA titre', '1:80', '<1:40']);
    expect(found.panels).toEqual([]);
    expect(found.read.size).toBe(0);
  });

  it('wants dilutions that increase across the header', () => {
    const found = read(['Antigen', '1:20', '1:80', '1:40'], ['S. Typhi O', '+', '+', '-']);
    expect(found.panels).toEqual([]);
  });

  it('leaves a line with a mark missing unread', () => {
    const found = read(
      ['Antigen', '1:20', '1:40', '1:80'],
      ['S. Typhi O', '+', '+', '-'],
      ['S. Typhi H', '+', '-'],
    );
    expect(found.panels.flatMap((p) => p.rows.map((r) => [r.biomarker, r.resultValue]))).toEqual([
      ['S. Typhi O', '1:40'],
    ]);
    expect(found.unread).toHaveLength(1);
    expect(found.read.size).toBe(3);
  });
});

describe('readTitreGrids on a grid as a phone photo reads it', () => {
  const read = (...rows: string[][]) =>
    readTitreGrids(layoutOf(rows, { columnGap: 70 }).pages.map((page) => viewLines(page)));

  it('reads a dilution whose colon was lost, brackets misread and specks before a name, and keeps the grid open past a misread mark', () => {
    const found = read(
      ['i', '1:20', '1:40', '1:80', '1160', '1:320'],
      ['S.Typhi O', '(+)', '(>)', '{+)', '(+)', '(+)'],
      ['>. S.Typhi H', '(+)', '{+)', '(+)', '(-)', '(-]'],
      ['S.Paratyphi A', '(-)', '(-)', '(-)', '(-)', '(-)'],
    );
    expect(found.panels.flatMap((p) => p.rows.map((r) => [r.biomarker, r.resultValue]))).toEqual([
      ['S.Typhi H', '1:80'],
      ['S.Paratyphi A', '<1:20'],
    ]);
    // The misread mark gives no titre: seen, not read.
    expect(found.unread).toHaveLength(1);
    // The speck before the dilutions is no label to name the panel by.
    expect(found.panels.map((p) => p.panelName)).toEqual(['Titre']);
  });

  it('takes a 1 before a number for a lost colon only where the number doubles the dilution before it', () => {
    const found = read(
      ['Antigen', '1:20', '1:40', '1:80', '1100', '1:320'],
      ['S. Typhi O', '+', '+', '-', '-', '-'],
    );
    expect(found.panels).toEqual([]);
  });
});
