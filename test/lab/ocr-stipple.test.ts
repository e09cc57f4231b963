/**
 * Stipple behind print (a phone photo of a pale logo printed behind the results), drawn as pixels: dots a
 * pixel or two across over paper, beside bars as wide as the strokes of print.
 */
import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../src/lab/pipeline/ocr/clean.js';
import { median3x3, smoothStipple, typicalStroke } from '../../src/lab/pipeline/ocr/stipple.js';

/** A white page with vertical bars `stroke` px wide every 20 px, and a dark dot every 5 px between them. */
function page(stroke: number, dots: boolean): GreyImage {
  const [width, height] = [200, 60];
  const pixels = new Uint8Array(width * height).fill(245);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const inBar = x % 20 < stroke;
      const dot = dots && !inBar && x % 5 === 3 && y % 5 === 2;
      if (inBar || dot) pixels[y * width + x] = 30;
    }
  return { width, height, pixels };
}

const inkAt = (image: GreyImage, x: number, y: number) => (image.pixels[y * image.width + x] as number) < 128;

describe('smoothStipple', () => {
  it('takes the dots away and keeps the print where strokes are broad', () => {
    const smoothed = smoothStipple(page(7, true));
    expect(inkAt(smoothed, 13, 12)).toBe(false);
    for (const x of [0, 3, 6]) expect(inkAt(smoothed, x, 30)).toBe(true);
  });

  it('leaves a page of fine print as it is: a median would cut its strokes', () => {
    const fine = page(4, true);
    expect(smoothStipple(fine)).toBe(fine);
  });

  it('measures a stroke by its runs of ink, not counting dots shorter than the window', () => {
    expect(typicalStroke(page(7, true))).toBe(7);
    expect(typicalStroke(page(4, false))).toBe(4);
    expect(typicalStroke({ width: 3, height: 1, pixels: new Uint8Array([255, 255, 255]) })).toBe(0);
  });
});

describe('median3x3', () => {
  it('gives each inner pixel the median of its nine, and keeps the border', () => {
    const [width, height] = [37, 23];
    let seed = 7;
    const pixels = Uint8Array.from({ length: width * height }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 256;
    });
    const image = { width, height, pixels };
    const out = median3x3(image);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const at = y * width + x;
        if (x === 0 || y === 0 || x === width - 1 || y === height - 1) {
          expect(out.pixels[at]).toBe(pixels[at]);
          continue;
        }
        const nine = [-1, 0, 1].flatMap((dy) =>
          [-1, 0, 1].map((dx) => pixels[at + dy * width + dx] as number),
        );
        expect(out.pixels[at]).toBe(nine.sort((a, b) => a - b)[4]);
      }
  });
});
