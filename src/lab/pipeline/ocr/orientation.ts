/**
 * A page photographed or scanned on its side (a phone keeps the turn in an EXIF tag that an image made a
 * PDF loses): read as it lies, tesseract finds few words or reads stripes of text as nonsense it is
 * rarely sure of. Only such a page is asked for its
 * orientation (tesseract's orientation and script detection, `--psm 0`, whose model ships with
 * tesseract-ocr) and read again turned upright, so upright pages pay nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { type GreyImage, readPnm, writePgm } from './clean.js';
import type { HocrPage } from './hocr.js';

export type Turn = 0 | 90 | 180 | 270;

/** A page with fewer words read surely than this was not read: it may lie on its side. */
const FEW_WORDS = 12;
/**
 * ... nor one where fewer than this share of the words were read surely: a clean page on its side gives
 * tesseract stripes it reads as words of letters (41% of them sure on a fixture page), an upright page,
 * photographed or scanned, 50-80% (the real scans of the bench). Asking costs about 0.5 s a page.
 */
const SURE_SHARE = 0.5;
/** A sure word: this many letters or digits at least, each read with at least this confidence. */
const SURE_LENGTH = 3;
const SURE_CONFIDENCE = 70;
/**
 * tesseract's orientation confidence below this is a guess: upright pages of little text score 0-1.6, the
 * sideways pages measured 8-17.
 */
const MIN_TURN_CONFIDENCE = 2;
const TIMEOUT_MS = 60_000;

/** Whether the page as read may lie on its side: too few of its words read surely. */
export function mayLieOnItsSide(page: HocrPage): boolean {
  let [sure, all] = [0, 0];
  for (const line of page.lines)
    for (const word of line.words) {
      all++;
      const alnum = word.chars.filter((c) => /[\p{L}\p{Nd}]/u.test(c.text));
      if (alnum.length >= SURE_LENGTH && alnum.every((c) => c.conf >= SURE_CONFIDENCE)) sure++;
    }
  return sure < FEW_WORDS || sure < SURE_SHARE * all;
}

/** Clockwise degrees that make the page upright, by tesseract; 0 when upright or unsure. */
export async function uprightTurn(dir: string, image: string, signal?: AbortSignal): Promise<Turn> {
  try {
    const { stdout } = await execa('tesseract', [image, 'stdout', '--psm', '0'], {
      cwd: dir,
      env: { OMP_THREAD_LIMIT: '1' },
      timeout: TIMEOUT_MS,
      cancelSignal: signal,
    });
    const rotate = Number(/Rotate:\s*(\d+)/.exec(stdout)?.[1]);
    const confidence = Number(/Orientation confidence:\s*([\d.]+)/.exec(stdout)?.[1]);
    if (!(confidence >= MIN_TURN_CONFIDENCE)) return 0;
    return rotate === 90 || rotate === 180 || rotate === 270 ? rotate : 0;
  } catch {
    signal?.throwIfAborted();
    // Too little text to tell (tesseract exits non-zero), or no orientation model: read as it lies.
    return 0;
  }
}

/** Writes the page image turned by `turn` beside it; null when the image is not one we can turn. */
export async function writeTurned(dir: string, image: string, turn: Turn): Promise<string | null> {
  const grey = readPnm(await readFile(join(dir, image)));
  if (!grey) return null;
  const file = `${image.replace(/\.\w+$/, '')}-turned.pgm`;
  await writeFile(join(dir, file), writePgm(turned(grey, turn)), { mode: 0o600 });
  return file;
}

/** The image turned clockwise by `turn` degrees. */
export function turned(image: GreyImage, turn: Turn): GreyImage {
  if (turn === 0) return image;
  const { width, height, pixels } = image;
  const side = turn === 180 ? { width, height } : { width: height, height: width };
  const out = new Uint8Array(pixels.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [tx, ty] =
        turn === 90
          ? [height - 1 - y, x]
          : turn === 180
            ? [width - 1 - x, height - 1 - y]
            : [y, width - 1 - x];
      out[ty * side.width + tx] = pixels[y * width + x] as number;
    }
  return { ...side, pixels: out };
}
