import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../src/lab/pipeline/ocr/clean.js';
import { clearDarkFills } from '../../src/lab/pipeline/ocr/dark-fills.js';

const [W, H] = [600, 300];

/** A white 300 dpi page; `paint` sets rectangles of it to a grey level. */
function page(
  ...rects: Array<[left: number, top: number, right: number, bottom: number, grey: number]>
): GreyImage {
  const pixels = new Uint8Array(W * H).fill(255);
  for (const [left, top, right, bottom, grey] of rects)
    for (let y = top; y < bottom; y++) pixels.fill(grey, y * W + left, y * W + right);
  return { width: W, height: H, pixels };
}

const at = (image: GreyImage, x: number, y: number): number => image.pixels[y * W + x] as number;

/** Three upright strokes 6 px wide, like the digits `111`, inside the box from (40, 40). */
const strokes = (grey: number): Array<[number, number, number, number, number]> =>
  [70, 100, 130].map((x) => [x, 60, x + 6, 110, grey]);

describe('print on dark fills, cleared before OCR', () => {
  it('turns light print on a grey fill into ink on paper, and says where', () => {
    const cleared = clearDarkFills(page([40, 40, 240, 130, 110], ...strokes(250)), 300);
    expect(at(cleared.image, 72, 80)).toBeLessThan(20);
    expect(at(cleared.image, 90, 80)).toBe(255);
    expect(cleared.turned).toHaveLength(1);
    const [box] = cleared.turned;
    expect(box?.left).toBeLessThanOrEqual(40);
    expect(box?.right).toBeGreaterThanOrEqual(236);
  });

  it('lifts dark print off a grey highlight without turning it', () => {
    const cleared = clearDarkFills(page([40, 40, 240, 130, 120], ...strokes(20)), 300);
    expect(at(cleared.image, 72, 80)).toBeLessThan(60);
    expect(at(cleared.image, 90, 80)).toBe(255);
    expect(cleared.turned).toEqual([]);
  });

  it('leaves black patches (redaction bars), print on paper and table rules as they are', () => {
    const image = page([40, 40, 240, 130, 10], ...strokes(250), [300, 150, 306, 200, 0], [0, 250, W, 253, 0]);
    const cleared = clearDarkFills(image, 300);
    expect(cleared.image).toBe(image);
    expect(cleared.turned).toEqual([]);
  });

  it('leaves paper beside a fill that is no rectangle as paper', () => {
    // An L of grey with light print along its top bar: the paper in the crook of the L is not print.
    const print = Array.from({ length: 11 }, (_, i): [number, number, number, number, number] => [
      60 + 30 * i,
      50,
      66 + 30 * i,
      80,
      250,
    ]);
    const cleared = clearDarkFills(page([40, 40, 400, 90, 110], [40, 90, 120, 260, 110], ...print), 300);
    expect(at(cleared.image, 62, 60)).toBeLessThan(20);
    expect(at(cleared.image, 300, 200)).toBe(255);
    expect(at(cleared.image, 130, 100)).toBe(255);
  });
});
