/**
 * A page lying on its side: told by how little reads as it lies, turned the way tesseract says is up, and
 * read again. The turn is drawn on a real page image of the bench's scanned family and read by the real
 * tesseract.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type GreyImage, readPnm, writePgm } from '../../src/lab/pipeline/ocr/clean.js';
import { parseHocr } from '../../src/lab/pipeline/ocr/hocr.js';
import { mayLieOnItsSide, turned, uprightTurn, writeTurned } from '../../src/lab/pipeline/ocr/orientation.js';
import { ocrPage } from '../../src/lab/pipeline/ocr/page.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-orientation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('turned', () => {
  // 3 x 2:  1 2 3 / 4 5 6
  const image = { width: 3, height: 2, pixels: Uint8Array.from([1, 2, 3, 4, 5, 6]) };
  it.each([
    [90, 2, 3, [4, 1, 5, 2, 6, 3]],
    [180, 3, 2, [6, 5, 4, 3, 2, 1]],
    [270, 2, 3, [3, 6, 2, 5, 1, 4]],
  ] as const)('turns an image %i degrees clockwise', (turn, width, height, pixels) => {
    expect(turned(image, turn)).toEqual({ width, height, pixels: Uint8Array.from(pixels) });
  });

  it('four quarter turns give the image back', () => {
    const once = (i: GreyImage) => turned(i, 90);
    expect(once(once(once(once(image))))).toEqual(image);
  });
});

describe('a page photographed on its side', () => {
  const pdf = new URL('../../fixtures/labs/quest-cbc-a1c.pdf', import.meta.url).pathname;
  execFileSync('pdftoppm', [
    '-r',
    '150',
    '-gray',
    '-f',
    '1',
    '-l',
    '1',
    '-singlefile',
    pdf,
    join(dir, 'page'),
  ]);
  const upright = readPnm(readFileSync(join(dir, 'page.pgm'))) as NonNullable<ReturnType<typeof readPnm>>;
  writeFileSync(join(dir, 'side.pgm'), writePgm(turned(upright, 270)));

  it('reads as nonsense as it lies, is turned upright, and then reads as the page does', async () => {
    const lying = parseHocr(await ocrPage(dir, 'side.pgm', 1, 150));
    expect(mayLieOnItsSide(lying)).toBe(true);
    const turn = await uprightTurn(dir, 'side.pgm');
    expect(turn).toBe(90);
    const file = (await writeTurned(dir, 'side.pgm', turn)) as string;
    const read = parseHocr(await ocrPage(dir, file, 1, 150));
    expect(mayLieOnItsSide(read)).toBe(false);
    const words = read.lines.flatMap((l) => l.words.map((w) => w.chars.map((c) => c.text).join('')));
    expect(words).toEqual(expect.arrayContaining(['HEMOGLOBIN', 'PLATELET']));
  }, 60_000);

  it('an upright page reads surely enough not to be asked', async () => {
    expect(mayLieOnItsSide(parseHocr(await ocrPage(dir, 'page.pgm', 1, 150)))).toBe(false);
  }, 60_000);
});
