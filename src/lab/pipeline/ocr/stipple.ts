/**
 * Stipple smoothed off a photographed page before tesseract reads it. Laboratories in India print their
 * logo large and pale behind the results; a phone's sharpening turns it into a field of dark dots a pixel
 * or two across, which tesseract takes for a picture, reading nothing printed over it: a real report lost
 * the values, units and ranges of its last five rows, every one set over the logo. A 3 x 3 median takes
 * dots of that size away and keeps strokes three pixels wide or more.
 *
 * So it is used only where the page's print is broad enough to keep: where the median run of ink along
 * a row (the width of a typical stroke) is at least twice the window, so the thin parts of the same face
 * keep three pixels. On a phone photo of small print (strokes 5 px) it had cut values' strokes: values
 * read right on 11 of its 12 rows before, 4 of 10 after.
 */
import type { GreyImage } from './clean.js';

/** The median's window is this many pixels square. */
const WINDOW = 3;
/** Darker than this is ink. */
const INK = 128;
/** A typical stroke at least this wide, in pixels, keeps its thin parts through a 3 x 3 median. */
const MIN_STROKE_PX = 6;
/** Runs longer than this are rules and fills, not strokes of print. */
const LONGEST_STROKE_PX = 40;

/** The page with its stipple smoothed away, or the page itself where its print is too fine to risk it. */
export function smoothStipple(image: GreyImage): GreyImage {
  return typicalStroke(image) >= MIN_STROKE_PX ? median3x3(image) : image;
}

/**
 * The median length of the horizontal runs of ink: specks and stipple (runs shorter than the median's
 * window, which it takes away) and rules and fills left out; 0 on a page with no print.
 */
export function typicalStroke(image: GreyImage): number {
  const { width, height, pixels } = image;
  const counts = new Uint32Array(LONGEST_STROKE_PX + 1);
  let total = 0;
  for (let y = 0; y < height; y++) {
    let run = 0;
    for (let x = 0, i = y * width; x <= width; x++, i++) {
      if (x < width && (pixels[i] as number) < INK) {
        run++;
        continue;
      }
      if (run >= WINDOW && run <= LONGEST_STROKE_PX) {
        counts[run] = (counts[run] as number) + 1;
        total++;
      }
      run = 0;
    }
  }
  let seen = 0;
  for (let run = WINDOW; run <= LONGEST_STROKE_PX; run++) {
    seen += counts[run] as number;
    if (seen * 2 >= total && total > 0) return run;
  }
  return 0;
}

/**
 * Each pixel the median of its 3 x 3 neighbourhood (the border kept). Each column of three is sorted once;
 * the median of nine is then the median of the lows' greatest, the middles' median and the highs' least.
 */
export function median3x3(image: GreyImage): GreyImage {
  const { width: w, height: h, pixels: p } = image;
  const out = new Uint8Array(p);
  const lo = new Uint8Array(w);
  const mid = new Uint8Array(w);
  const hi = new Uint8Array(w);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const a = p[i - w] as number;
      const b = p[i] as number;
      const c = p[i + w] as number;
      const least = a < b ? a : b;
      const most = a < b ? b : a;
      lo[x] = least < c ? least : c;
      hi[x] = most > c ? most : c;
      mid[x] = most < c ? most : least > c ? least : c;
    }
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      const low = max3(lo[x - 1] as number, lo[x] as number, lo[x + 1] as number);
      const high = min3(hi[x - 1] as number, hi[x] as number, hi[x + 1] as number);
      out[i] = median3(low, median3(mid[x - 1] as number, mid[x] as number, mid[x + 1] as number), high);
    }
  }
  return { width: w, height: h, pixels: out };
}

const max3 = (a: number, b: number, c: number): number => (a > b ? (a > c ? a : c) : b > c ? b : c);
const min3 = (a: number, b: number, c: number): number => (a < b ? (a < c ? a : c) : b < c ? b : c);

function median3(a: number, b: number, c: number): number {
  const least = a < b ? a : b;
  const most = a < b ? b : a;
  return most < c ? most : least > c ? least : c;
}
