/**
 * A report photographed with the phone at an angle to the page: the result and range columns keep their
 * rows closer together than the names' (12.5 against 14 points here; 51 against 57 pixels on the real photo
 * this stands in for), in register with the names halfway down, so the first values sit under their names
 * and the last ones above. Drawn with pdfkit (made-up laboratory, person and values), rasterised by
 * pdftoppm and set as the page's one image, as a photo printed to PDF is. Needs poppler-utils and
 * tesseract-ocr (installed by .ci/run).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { ocrAvailable } from '../../../src/lab/pipeline/ocr/ocr.js';
import { runPipeline } from '../../../src/lab/pipeline/pipeline.js';
import { drawPdf } from '../support/draw-pdf.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-photo-drift-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS: Array<[string, string, string]> = [
  ['Haemoglobin', '13.9 g/dL', '14 - 17'],
  ['White Cell Count', '5.9 x10^9/L', '4 - 11'],
  ['Neutrophils', '57 %', '50 - 70'],
  ['Lymphocytes', '34 %', '20 - 45'],
  ['Monocytes', '6 %', '2 - 10'],
  ['Eosinophils', '3 %', '1 - 6'],
  ['Platelet Count', '239 x10^9/L', '150 - 400'],
  ['MCV', '86.6 fL', '83 - 99'],
  ['MCH', '28.3 pg', '27 - 32'],
  ['MCHC', '32.7 g/dL', '32 - 36'],
];

/** The page as the photo shows it: names `namePitch` apart, the other columns `pitch` apart. */
async function photographed(namePitch: number, pitch: number): Promise<Uint8Array> {
  const drawn = await drawPdf((doc) => {
    doc.font('Helvetica-Bold').fontSize(22).text('KORVAN DIAGNOSTIC LABS', 36, 40, { lineBreak: false });
    doc.font('Helvetica').fontSize(10);
    doc.text('Name : Mr. Quentin Example', 36, 90, { lineBreak: false });
    doc.text('Collection Date : 03/14/2025', 330, 90, { lineBreak: false });
    doc.text('Haematology Report', 36, 120, { lineBreak: false });
    doc.text('Complete Blood Count', 36, 140, { lineBreak: false });
    doc.text('This is a computer generated report. Please correlate the results with the clinical', 36, 360, {
      lineBreak: false,
    });
    doc.text(
      'history of the patient and repeat the test where the result does not fit the picture.',
      36,
      374,
      {
        lineBreak: false,
      },
    );
    const middle = 160 + namePitch * ((ROWS.length - 1) / 2);
    ROWS.forEach(([name, result, range], i) => {
      const off = i - (ROWS.length - 1) / 2;
      doc.text(name, 36, middle + namePitch * off, { lineBreak: false });
      doc.text(result, 300, middle + pitch * off, { lineBreak: false });
      doc.text(range, 470, middle + pitch * off, { lineBreak: false });
    });
  });
  writeFileSync(join(dir, 'drawn.pdf'), drawn);
  await execa('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', 'drawn.pdf', 'page'], { cwd: dir });
  const png = readFileSync(join(dir, 'page.png'));
  return drawPdf((doc) => doc.image(png, 0, 0, { width: 612, height: 792 }));
}

describe.runIf(await ocrAvailable())('a photographed table whose columns drift apart', () => {
  it("reads each result and range on its own test's row", async () => {
    const outcome = await runPipeline(await photographed(14, 12.5), { anyLab: true });
    expect(outcome.status === 'completed' ? 'completed' : outcome).toBe('completed');
    if (outcome.status !== 'completed') return;
    // The pairing is under test, not OCR's spacing: numbers as numbers, ranges without their spaces.
    const rows = outcome.result.panels.flatMap((p) =>
      p.panelResults.map((r) => [
        r.biomarker,
        Number.parseFloat(r.resultValue ?? ''),
        r.referenceRangeText?.replace(/ /g, ''),
      ]),
    );
    expect(rows).toEqual(
      ROWS.map(([name, result, range]) => [name, Number.parseFloat(result), range.replace(/ /g, '')]),
    );
  });
});
