/**
 * A laboratory that prints its name only as a picture: a banner in display type over a line of what the
 * business is, as scanned and hospital letterheads do. The banner is drawn as text with pdfkit, rasterised by
 * pdftoppm, and set as an image over a text-layer report (made-up laboratory, person and values), so the
 * name exists nowhere but in the picture. Needs poppler-utils and tesseract-ocr (installed by .ci/run).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { ocrAvailable } from '../../../src/lab/pipeline/ocr/ocr.js';
import { runPipeline } from '../../../src/lab/pipeline/pipeline.js';
import { drawPdf } from '../support/draw-pdf.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-letterhead-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The banner as a PNG: the name large, what the business is under it, nothing else. */
async function bannerPng(lines: Array<[string, number]>): Promise<Buffer> {
  const pdf = await drawPdf((doc) => {
    let y = 20;
    for (const [text, size] of lines) {
      doc.font('Helvetica-Bold').fontSize(size).text(text, 40, y, { width: 520, align: 'center' });
      y += size * 1.3;
    }
  }, 'A4');
  writeFileSync(join(dir, 'banner.pdf'), pdf);
  // The top 130 points of the page at 150 dpi, as a scanner or a letterhead template would hold it.
  await execa('pdftoppm', ['-r', '150', '-png', '-singlefile', '-H', '271', 'banner.pdf', 'banner'], {
    cwd: dir,
  });
  return readFileSync(join(dir, 'banner.png'));
}

/**
 * A report of another laboratory with `banner` over it, or no letterhead at all; `top` points of the page
 * above it, as a photo whose page does not fill the frame leaves.
 */
function report(banner: Buffer | null, top = 0): Promise<Uint8Array> {
  return drawPdf((doc) => {
    if (banner) doc.image(banner, 0, top, { width: 595 });
    doc.font('Helvetica').fontSize(9);
    const row = (y: number, cells: Array<[number, string]>) => {
      for (const [x, text] of cells) doc.text(text, x, y + top, { lineBreak: false });
    };
    row(150, [
      [36, 'Name'],
      [130, ': Mr. Quentin Example'],
      [330, 'Collection Date'],
      [450, ': 03/14/2025'],
    ]);
    row(180, [
      [36, 'Test Name'],
      [260, 'Result'],
      [360, 'Units'],
      [450, 'Reference Range'],
    ]);
    const rows = [
      ['Hemoglobin', '14.2', 'g/dL', '13.0 - 17.0'],
      ['Platelet Count', '250', 'thou/mm3', '150 - 410'],
      ['Glucose', '92', 'mg/dL', '70 - 99'],
      ['Creatinine', '0.9', 'mg/dL', '0.7 - 1.3'],
    ];
    rows.forEach(([name, value, unit, range], i) => {
      row(200 + i * 16, [
        [36, name as string],
        [260, value as string],
        [360, unit as string],
        [450, range as string],
      ]);
    });
  }, 'A4');
}

describe.runIf(await ocrAvailable())('a laboratory named only in its letterhead picture', () => {
  it('is named from the picture: the banner word and the line under it are one name', async () => {
    const bytes = await report(
      await bannerPng([
        ['KORVAN', 40],
        ['LABS & DIAGNOSTIC CENTRES', 18],
      ]),
    );
    const outcome = await runPipeline(bytes);
    expect(outcome).toMatchObject({
      status: 'invalid_document',
      rejection_reason: 'non_supported_lab',
      detected_lab: 'KORVAN LABS & DIAGNOSTIC CENTRES',
    });
    expect(outcome.status === 'invalid_document' && outcome.rejection_detail).toContain('KORVAN');

    const anyLab = await runPipeline(bytes, { anyLab: true });
    expect(anyLab.status === 'completed' && anyLab.result.labName).toBe('KORVAN LABS & DIAGNOSTIC CENTRES');
  });

  it('names an institution, and takes neither its address nor its department for the name', async () => {
    const banner = await bannerPng([
      ['Northfield Institute of Medical Sciences', 22],
      ['12 Station Road, Northfield', 12],
      ['Department of Pathology', 12],
    ]);
    const outcome = await runPipeline(await report(banner), { anyLab: true });
    expect(outcome.status === 'completed' && outcome.result.labName).toBe(
      'Northfield Institute of Medical Sciences',
    );
  });

  it('is found lower down the page where the top fifth names no laboratory', async () => {
    // The banner's name sits about a quarter of the way down: below the first band read, within the second.
    const banner = await bannerPng([
      ['KORVAN', 40],
      ['LABS & DIAGNOSTIC CENTRES', 18],
    ]);
    const outcome = await runPipeline(await report(banner, 190), { anyLab: true });
    expect(outcome.status === 'completed' && outcome.result.labName).toBe('KORVAN LABS & DIAGNOSTIC CENTRES');
  });

  it('says no name was found when the picture holds none', async () => {
    const banner = await bannerPng([['FULLY COMPUTERISED PATHOLOGICAL LABORATORY', 16]]);
    for (const bytes of [await report(banner), await report(null)]) {
      const outcome = await runPipeline(bytes);
      expect(outcome).toMatchObject({ rejection_reason: 'non_supported_lab', detected_lab: null });
    }
  });
});
