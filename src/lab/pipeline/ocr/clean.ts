/**
 * A scanned page made fit for tesseract, in plain JS on its grey pixels. Two things spoil a scan the way
 * patients make them: specks (a dust grain or a dropout, one pixel at the scan's own resolution) that
 * tesseract reads as accents, quotes and stray letters glued to the words beside them, and a coarse
 * resolution (150 dpi) at which small print is a few pixels tall. Specks are taken out at the native
 * resolution, where each is still one pixel, and only then is the page enlarged: enlarged first, a speck
 * becomes a blob as big as a stroke of a letter.
 *
 * Measured on the scanned fixture family (bench/support/scanned-family.ts), a 150 dpi Labcorp page read
 * as the raster pdftoppm makes: mean word confidence 60, 130 words under 30; cleaned and enlarged here:
 * 86 and 11.
 */

export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** Darker than this is ink. */
const INK = 128;
/** Lighter than this is bare paper. */
const BARE = 200;

/**
 * Binary PNM as pdfimages writes it: P5 (grey) or P6 (RGB, turned grey), 8 bits a sample. Anything else
 * (1-bit P4, 16-bit samples) gives null and the page is read as it is.
 */
export function readPnm(bytes: Uint8Array): GreyImage | null {
  const tokens: string[] = [];
  let i = 0;
  while (tokens.length < 4 && i < bytes.length) {
    while (i < bytes.length && isSpace(bytes[i] as number)) i++;
    if (bytes[i] === 0x23) {
      while (i < bytes.length && bytes[i] !== 0x0a) i++;
      continue;
    }
    let token = '';
    while (i < bytes.length && !isSpace(bytes[i] as number))
      token += String.fromCharCode(bytes[i++] as number);
    tokens.push(token);
  }
  i++; // the one whitespace byte after maxval
  const [magic, w, h, max] = tokens;
  const width = Number(w);
  const height = Number(h);
  const channels = magic === 'P5' ? 1 : magic === 'P6' ? 3 : 0;
  if (channels === 0 || Number(max) !== 255 || !(width > 0 && height > 0)) return null;
  const size = width * height;
  if (bytes.length < i + size * channels) return null;
  const pixels = new Uint8Array(size);
  if (channels === 1) pixels.set(bytes.subarray(i, i + size));
  else
    for (let p = 0, b = i; p < size; p++, b += 3) {
      const r = bytes[b] as number;
      // pdfimages writes a grey scan as RGB: its grey is any channel (the weights sum to 1), found sooner.
      pixels[p] =
        r === bytes[b + 1] && r === bytes[b + 2]
          ? r
          : Math.round(0.299 * r + 0.587 * (bytes[b + 1] as number) + 0.114 * (bytes[b + 2] as number));
    }
  return { width, height, pixels };
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Binary PGM, which tesseract reads without decoding cost. */
export function writePgm(image: GreyImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`), image.pixels]);
}

/**
 * An ink pixel with only bare paper around it is a speck: paper. A paper pixel with at least five of its
 * eight neighbours inked is a dropout inside a stroke: ink. A full stop at 150 dpi can be a single dark
 * pixel, but one with grey neighbours (a scan blurs the edges of what it reads), so it stays.
 */
export function despeckle(image: GreyImage): GreyImage {
  const { width, height, pixels: p } = image;
  const out = new Uint8Array(p);
  // Neighbours by hand, not by a loop over offsets: this runs on every pixel of a page (8 million at
  // 300 dpi), and the loop took five times as long.
  for (let y = 1; y < height - 1; y++) {
    const end = y * width + width - 1;
    for (let i = y * width + 1; i < end; i++) {
      const up = i - width;
      const down = i + width;
      if ((p[i] as number) < INK) {
        if (
          (p[up - 1] as number) >= BARE &&
          (p[up] as number) >= BARE &&
          (p[up + 1] as number) >= BARE &&
          (p[i - 1] as number) >= BARE &&
          (p[i + 1] as number) >= BARE &&
          (p[down - 1] as number) >= BARE &&
          (p[down] as number) >= BARE &&
          (p[down + 1] as number) >= BARE
        )
          out[i] = 255;
      } else if (
        inked(p[up - 1]) +
          inked(p[up]) +
          inked(p[up + 1]) +
          inked(p[i - 1]) +
          inked(p[i + 1]) +
          inked(p[down - 1]) +
          inked(p[down]) +
          inked(p[down + 1]) >=
        5
      )
        out[i] = 0;
    }
  }
  return { width, height, pixels: out };
}

const inked = (v: number | undefined): number => ((v as number) < INK ? 1 : 0);

/** Bilinear resampling by `factor` (pixel centres aligned), for enlarging a coarse scan. */
export function resize(image: GreyImage, factor: number): GreyImage {
  const { width: w, height: h, pixels: p } = image;
  const width = Math.round(w * factor);
  const height = Math.round(h * factor);
  const out = new Uint8Array(width * height);
  const xs = axis(width, w, factor);
  for (let y = 0; y < height; y++) {
    const sy = clampTo((y + 0.5) / factor - 0.5, h - 1);
    const y0 = Math.floor(sy);
    const y1 = Math.min(h - 1, y0 + 1);
    const fy = sy - y0;
    const r0 = y0 * w;
    const r1 = y1 * w;
    for (let x = 0, o = y * width; x < width; x++, o++) {
      const x0 = xs.lo[x] as number;
      const x1 = xs.hi[x] as number;
      const fx = xs.frac[x] as number;
      const top = (p[r0 + x0] as number) + ((p[r0 + x1] as number) - (p[r0 + x0] as number)) * fx;
      const bottom = (p[r1 + x0] as number) + ((p[r1 + x1] as number) - (p[r1 + x0] as number)) * fx;
      out[o] = Math.round(top + (bottom - top) * fy);
    }
  }
  return { width, height, pixels: out };
}

/** Source columns and weights of each output column, computed once for every row. */
function axis(size: number, source: number, factor: number) {
  const lo = new Uint32Array(size);
  const hi = new Uint32Array(size);
  const frac = new Float32Array(size);
  for (let x = 0; x < size; x++) {
    const s = clampTo((x + 0.5) / factor - 0.5, source - 1);
    lo[x] = Math.floor(s);
    hi[x] = Math.min(source - 1, Math.floor(s) + 1);
    frac[x] = s - Math.floor(s);
  }
  return { lo, hi, frac };
}

const clampTo = (v: number, max: number): number => (v < 0 ? 0 : v > max ? max : v);
