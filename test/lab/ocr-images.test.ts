import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, newDocument, PAGE } from '../../fixtures/labs/gen/draw.js';
import { encodeGreyPng } from '../../fixtures/labs/gen/png.js';
import { readPnm } from '../../src/lab/pipeline/ocr/clean.js';
import { planPageImages, writePageImage } from '../../src/lab/pipeline/ocr/images.js';
import { ocrAvailable } from '../../src/lab/pipeline/ocr/ocr.js';

/** An image-only Letter PDF: one grey page image per page at each dpi, a black bar on white paper. */
async function scanPdf(dpis: readonly number[]): Promise<Buffer> {
  const doc = newDocument('scan');
  const done = collect(doc);
  for (const dpi of dpis) {
    const width = Math.round((PAGE.width / 72) * dpi);
    const height = Math.round((PAGE.height / 72) * dpi);
    const pixels = new Uint8Array(width * height).fill(255);
    pixels.fill(0, 10 * width, 14 * width);
    doc.addPage();
    doc.image(encodeGreyPng(pixels, width, height, 1), 0, 0, { width: PAGE.width, height: PAGE.height });
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
});
