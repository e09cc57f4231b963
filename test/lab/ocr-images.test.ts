import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, newDocument, PAGE } from '../../fixtures/labs/gen/draw.js';
import { encodeGreyPng } from '../../fixtures/labs/gen/png.js';
import { readPnm } from '../../src/lab/pipeline/ocr/clean.js';
import { planPageImages, writePageImage } from '../../src/lab/pipeline/ocr/images.js';
import { ocrAvailable } from '../../src/lab/pipeline/ocr/ocr.js';

/**
 * An image-only PDF: one grey page image per page at each dpi, a black bar on white paper, on Letter
 * paper; or, with `onePixelAPoint`, on a page of the image's own size in points (an image made a PDF as
 * img2pdf or ImageMagick do by default), which declares 72 dpi whatever the image holds.
 */
async function scanPdf(dpis: readonly number[], onePixelAPoint = false): Promise<Buffer> {
  const doc = newDocument('scan');
  const done = collect(doc);
  for (const dpi of dpis) {
    const width = Math.round((PAGE.width / 72) * dpi);
    const height = Math.round((PAGE.height / 72) * dpi);
    const pixels = new Uint8Array(width * height).fill(255);
    pixels.fill(0, 10 * width, 14 * width);
    const page = onePixelAPoint ? { width, height } : PAGE;
    doc.addPage({ size: [page.width, page.height], margin: 0 });
    doc.image(encodeGreyPng(pixels, width, height, 1), 0, 0, { width: page.width, height: page.height });
  }
  doc.end();
  return done;
}

describe.runIf(await ocrAvailable())('page images taken out of a scan', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-ocr-images-'));
    await writeFile(join(dir, 'input.pdf'), await scanPdf([150, 300]));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Reading less to save time (a 300 dpi page as it is, a 150 dpi page at its own resolution) lost values.
  it('cleans every page and enlarges a coarse one to 300 dpi', async () => {
    const [coarse, fine] = await planPageImages(dir, 2);
    expect([coarse?.dpi, fine?.dpi]).toEqual([150, 300]);
    for (const image of [coarse, fine]) {
      if (!image) throw new Error('no page image planned');
      const written = await writePageImage(dir, image);
      expect(written).toEqual({ file: `native-${image.pageNumber}-000-clean.pgm`, dpi: 300 });
      expect(readPnm(await readFile(join(dir, written.file)))?.width).toBe(2550);
    }
  });

  // A phone photo made a PDF at one pixel a point declares 72 dpi: rasterised at 300 dpi, a 3300-pixel
  // page became 13,750 pixels tall. Its pixels over the paper's length give its resolution.
  it('reads an image made a PDF at one pixel a point by its pixels, where they are fine enough', async () => {
    const photos = await mkdtemp(join(tmpdir(), 'assay-ocr-images-'));
    try {
      await writeFile(join(photos, 'input.pdf'), await scanPdf([300, 100], true));
      const [fine, coarse] = await planPageImages(photos, 2);
      expect(fine).toMatchObject({ file: 'native-1', dpi: 282 });
      // A crop of a page reads coarser than it is: not trusted, rasterised as before.
      expect(coarse).toMatchObject({ file: 'raster-2', dpi: 300 });
    } finally {
      await rm(photos, { recursive: true, force: true });
    }
  });
});
