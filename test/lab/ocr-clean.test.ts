import { describe, expect, it } from 'vitest';
import { despeckle, type GreyImage, readPnm, resize, writePgm } from '../../src/lab/pipeline/ocr/clean.js';

/** A 12x12 paper page with a 4-px-wide vertical stroke at x 4..7, a hole in it, and a speck apart. */
function page(): GreyImage {
  const width = 12;
  const pixels = new Uint8Array(width * width).fill(250);
  for (let y = 1; y < 11; y++) for (let x = 4; x < 8; x++) pixels[y * width + x] = 10;
  pixels[5 * width + 5] = 255; // dropout inside the stroke
  pixels[2 * width + 10] = 0; // speck on the paper
  return { width, height: width, pixels };
}

describe('scan cleaning', () => {
  it('takes one-pixel specks off the paper and fills one-pixel holes in a stroke', () => {
    const clean = despeckle(page());
    expect(clean.pixels[2 * 12 + 10]).toBe(255);
    expect(clean.pixels[5 * 12 + 5]).toBe(0);
    // The stroke itself, its edges included, is left as it was.
    expect(clean.pixels[6 * 12 + 4]).toBe(10);
    expect(clean.pixels[6 * 12 + 7]).toBe(10);
  });

  it('enlarges by a factor, keeping paper white and ink dark', () => {
    const big = resize(despeckle(page()), 2);
    expect([big.width, big.height]).toEqual([24, 24]);
    expect(big.pixels[12 * 24 + 11]).toBeLessThan(64);
    expect(big.pixels[12 * 24 + 22]).toBeGreaterThan(240);
  });

  it('enlarges by a fraction, blending neighbouring pixels by their distance', () => {
    const edge = { width: 2, height: 1, pixels: new Uint8Array([0, 255]) };
    expect(resize(edge, 1.5)).toEqual({
      width: 3,
      height: 2,
      pixels: new Uint8Array([0, 128, 255, 0, 128, 255]),
    });
  });

  it('reads the grey and colour PNM pdfimages writes, and nothing it cannot read', () => {
    const grey = page();
    expect(readPnm(writePgm(grey))?.pixels).toEqual(grey.pixels);
    const rgb = Buffer.concat([Buffer.from('P6\n# c\n2 1\n255\n'), Buffer.from([255, 255, 255, 0, 0, 0])]);
    expect(readPnm(rgb)).toEqual({ width: 2, height: 1, pixels: new Uint8Array([255, 0]) });
    expect(readPnm(Buffer.from('P4\n8 1\n\xff'))).toBeNull();
    expect(readPnm(Buffer.from('P5\n4 4\n255\n12'))).toBeNull();
  });
});
