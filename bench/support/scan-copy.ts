/**
 * Genuine text reports printed as scans: every page of a real PDF rasterised and spoiled at one of the
 * scanned family's grades (SCAN_QUALITIES: skew, noise, blur, JPEG), then put back as an image-only PDF of
 * the page's own size. OCR is then measured on real laboratories' layouts, against the truth already
 * written for the text report, rather than only on our own fixtures' layouts. Built in a temporary folder
 * and handed back as bytes; nothing is written beside the original.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeGreyPng } from '../../fixtures/labs/gen/png.js';
import { createRng, seedFor } from '../../fixtures/labs/gen/rng.js';
import {
  DEFAULT_SEED,
  degrade,
  drawDegradation,
  encodeGreyJpeg,
  imagePdf,
  rasterisePdf,
  SCAN_QUALITIES,
  type ScanQuality,
} from './scanned-family.js';

export const SCAN_QUALITY_NAMES = Object.keys(SCAN_QUALITIES) as ScanQuality[];

/**
 * The PDF as a scan at `quality`. `name` seeds the spoiling (the same name, quality and seed give the same
 * bytes) and names the temporary files, so pass something that is not the patient's file name.
 */
export async function scanCopy(
  pdf: Uint8Array,
  name: string,
  quality: ScanQuality,
  seed = DEFAULT_SEED,
): Promise<Uint8Array> {
  const preset = SCAN_QUALITIES[quality];
  const rng = createRng((seedFor(name) ^ Math.imul(seed, 0x9e3779b1)) >>> 0);
  const dir = await mkdtemp(join(tmpdir(), 'assay-scan-copy-'));
  try {
    const images: Buffer[] = [];
    const sizes: Array<[number, number]> = [];
    for (const page of await rasterisePdf(dir, pdf, 'page', preset.dpi)) {
      const d = drawDegradation(rng, {}, preset);
      const pixels = degrade(page, d, rng);
      images.push(
        d.jpegQuality === null
          ? encodeGreyPng(pixels, page.width, page.height, 1)
          : await encodeGreyJpeg(dir, { ...page, pixels }, d.jpegQuality),
      );
      sizes.push([(page.width * 72) / preset.dpi, (page.height * 72) / preset.dpi]);
    }
    return new Uint8Array(await imagePdf(images, name, sizes));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
