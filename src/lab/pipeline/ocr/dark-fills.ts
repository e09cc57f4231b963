/**
 * Print on a dark fill made print on paper before tesseract reads it. Laboratories set results in filled
 * cells: Boston Heart prints white digits on a green result column, a US hospital's pathology report
 * shades its abnormal results grey. On a grey scan both are print on a mid-grey ground, which tesseract's
 * thresholding loses whole: printed as noisy 200 dpi scans, the hospital report lost 8 of its 20 values
 * (6 read with this) and the Boston Heart report read 3 of its 60 results (13 with this).
 *
 * Each fill is found as a large, solid patch of dark blocks. Inside it, light print is turned to ink and
 * dark print lifted off its ground; a black patch is left alone (a redaction bar, which JPEG ringing makes
 * look like light print), as is a fill with no print in it to speak of (a logo).
 */
import type { GreyImage } from './clean.js';
import type { Box } from './hocr.js';

/** A block darker than this on average is part of a fill (0 black, 255 white). */
const DARK_BLOCK = 150;
/** A fill is at least this wide and tall, in inches: a cell holding a short number. */
const MIN_FILL_WIDTH_IN = 0.16;
const MIN_FILL_HEIGHT_IN = 0.1;
/** Share of its bounding box a fill's dark blocks cover: a cell or a bar, not a letter or a logo's curve. */
const MIN_SOLIDITY = 0.6;
/**
 * A fill's ground is at least this light: grey or a colour. Black patches are redaction bars on the scans
 * patients share (JPEG ringing inside them looks like 5-12% light print) and are left as they are.
 */
const MIN_GROUND = 60;
/** How far from the ground's level a pixel is before it counts as print, lighter or darker. */
const PRINT_CONTRAST = 70;
/** Print is enclosed by ground within this distance on both sides along its row, in inches: a glyph or two. */
const ENCLOSED_IN = 0.15;
/** Light print outnumbers dark pixels by this much (or dark print light ones) to be told which it is. */
const OUTNUMBERS = 2;
/** At least this share of a fill's pixels are print, or there is nothing in it to read. */
const MIN_PRINT_SHARE = 0.02;

interface Fill extends Box {
  /** Mean grey of the fill's dark blocks: its ground. */
  ground: number;
  /** Per block of the bounding box, row by row: inside the fill (its ground, or print it encloses). */
  inside: Uint8Array;
}

/** A page with its fills cleared, and where light print was turned (pixels), since that reads less surely. */
export interface ClearedPage {
  image: GreyImage;
  turned: Box[];
}

/**
 * The image with every dark fill made paper: light print on it turned to ink, dark print on it kept as ink.
 * The input itself when the page has no fill holding print.
 */
export function clearDarkFills(image: GreyImage, dpi: number): ClearedPage {
  const block = Math.max(2, Math.round(dpi / 75));
  let pixels: Uint8Array | null = null;
  const turned: Box[] = [];
  for (const fill of findFills(image, block, dpi)) {
    const print = fill.ground < MIN_GROUND ? null : printOn(image, fill, block);
    if (print === null) continue;
    pixels ??= new Uint8Array(image.pixels);
    clear(image, pixels, fill, block, print);
    if (print === 'light')
      turned.push({ left: fill.left, top: fill.top, right: fill.right, bottom: fill.bottom });
  }
  return { image: pixels ? { width: image.width, height: image.height, pixels } : image, turned };
}

/** Solid patches of dark blocks, large enough to be a cell or a bar, in pixels. */
function findFills(image: GreyImage, block: number, dpi: number): Fill[] {
  const gw = Math.floor(image.width / block);
  const gh = Math.floor(image.height / block);
  const means = blockMeans(image, block, gw, gh);
  const minW = Math.ceil((MIN_FILL_WIDTH_IN * dpi) / block);
  const minH = Math.ceil((MIN_FILL_HEIGHT_IN * dpi) / block);
  const dark = (at: number): boolean => (means[at] as number) < DARK_BLOCK;
  const solid = solidBlocks(dark, gw, gh);
  const seen = new Uint8Array(gw * gh);
  const fills: Fill[] = [];
  const stack: number[] = [];
  for (let start = 0; start < gw * gh; start++) {
    if (seen[start] || !solid[start]) continue;
    seen[start] = 1;
    stack.push(start);
    let [left, top, right, bottom] = [gw, gh, 0, 0];
    const members: number[] = [];
    while (stack.length > 0) {
      const at = stack.pop() as number;
      members.push(at);
      const [x, y] = [at % gw, Math.floor(at / gw)];
      [left, right, top, bottom] = [
        Math.min(left, x),
        Math.max(right, x),
        Math.min(top, y),
        Math.max(bottom, y),
      ];
      for (const next of [x > 0 ? at - 1 : -1, x < gw - 1 ? at + 1 : -1, at - gw, at + gw]) {
        if (next < 0 || next >= gw * gh || seen[next] || !solid[next]) continue;
        seen[next] = 1;
        stack.push(next);
      }
    }
    const [w, h] = [right - left + 1, bottom - top + 1];
    if (w < minW || h < minH || members.length < MIN_SOLIDITY * w * h) continue;
    // The solid core lost one block all round: the ground is the dark blocks within one block of it.
    [left, top, right, bottom] = [left - 1, top - 1, right + 1, bottom + 1].map((v, i) =>
      Math.max(0, Math.min(v, i % 2 === 0 ? gw - 1 : gh - 1)),
    ) as [number, number, number, number];
    const bw = right - left + 1;
    const ground = new Uint8Array(bw * (bottom - top + 1));
    let [count, sum] = [0, 0];
    for (const at of members) {
      const [x, y] = [at % gw, Math.floor(at / gw)];
      for (const [nx, ny] of [
        [x, y],
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ] as const) {
        const cell = (ny - top) * bw + nx - left;
        if (nx < left || nx > right || ny < top || ny > bottom || ground[cell] || !dark(ny * gw + nx))
          continue;
        ground[cell] = 1;
        count++;
        sum += means[ny * gw + nx] as number;
      }
    }
    fills.push({
      left: left * block,
      top: top * block,
      right: (right + 1) * block,
      bottom: (bottom + 1) * block,
      ground: sum / count,
      inside: enclosed(ground, bw, bottom - top + 1, Math.ceil((ENCLOSED_IN * dpi) / block)),
    });
  }
  return fills;
}

/**
 * Dark blocks whose four neighbours are dark too. A table's rules and the strokes of ordinary print are
 * thinner than three blocks and drop out, so a rule crossing a filled cell does not join it to the rest of
 * the table (whose bounding box would then be mostly paper).
 */
function solidBlocks(dark: (at: number) => boolean, gw: number, gh: number): Uint8Array {
  const solid = new Uint8Array(gw * gh);
  for (let y = 1; y < gh - 1; y++)
    for (let x = 1, at = y * gw + 1; x < gw - 1; x++, at++)
      if (dark(at) && dark(at - 1) && dark(at + 1) && dark(at - gw) && dark(at + gw)) solid[at] = 1;
  return solid;
}

/**
 * Blocks of the ground, and blocks with ground on both sides of them within `reach` along their row: the
 * light print the ground surrounds. Paper beside a fill that is not a rectangle is not enclosed, so it is
 * never taken for print.
 */
function enclosed(ground: Uint8Array, w: number, h: number, reach: number): Uint8Array {
  const inside = new Uint8Array(ground);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let lastGround = -Infinity;
    const fromLeft = new Float64Array(w);
    for (let x = 0; x < w; x++) {
      if (ground[row + x]) lastGround = x;
      fromLeft[x] = x - lastGround;
    }
    let nextGround = Infinity;
    for (let x = w - 1; x >= 0; x--) {
      if (ground[row + x]) nextGround = x;
      else if ((fromLeft[x] as number) <= reach && nextGround - x <= reach) inside[row + x] = 1;
    }
  }
  return inside;
}

/** Mean grey of each block of block x block pixels (the last partial row and column left out). */
function blockMeans(image: GreyImage, block: number, gw: number, gh: number): Float32Array {
  const { width, pixels } = image;
  const means = new Float32Array(gw * gh);
  const area = block * block;
  for (let by = 0; by < gh; by++)
    for (let bx = 0; bx < gw; bx++) {
      let sum = 0;
      for (let y = by * block, end = y + block; y < end; y++)
        for (let i = y * width + bx * block, stop = i + block; i < stop; i++) sum += pixels[i] as number;
      means[by * gw + bx] = sum / area;
    }
  return means;
}

type Print = 'light' | 'dark';

/**
 * Whether the fill's print is lighter than its ground (white digits on green) or darker (black digits on
 * a grey highlight), by which outnumbers the other; null for a fill with no print to speak of (a logo).
 */
function printOn(image: GreyImage, fill: Fill, block: number): Print | null {
  const { width, pixels } = image;
  let [light, dark, total] = [0, 0, 0];
  for (let y = fill.top; y < fill.bottom; y++)
    for (let x = fill.left, i = y * width + x; x < fill.right; x++, i++) {
      if (!isInside(fill, x, y, block)) continue;
      const v = pixels[i] as number;
      if (v > fill.ground + PRINT_CONTRAST) light++;
      else if (v < fill.ground - PRINT_CONTRAST) dark++;
      total++;
    }
  if (light >= MIN_PRINT_SHARE * total && light >= OUTNUMBERS * dark) return 'light';
  if (dark >= MIN_PRINT_SHARE * total && dark >= OUTNUMBERS * light) return 'dark';
  return null;
}

function isInside(fill: Fill, x: number, y: number, block: number): boolean {
  const w = (fill.right - fill.left) / block;
  return fill.inside[Math.floor((y - fill.top) / block) * w + Math.floor((x - fill.left) / block)] === 1;
}

/**
 * Inside the fill the ground becomes paper and the print ink, with what lies between stretched and left
 * grey for tesseract's own thresholding: light print is turned (white becomes ink), dark print only
 * lifted off its ground. The fill's outermost block is left as paper: where the box meets the page the
 * turn would draw a frame, which tesseract reads as a bar or bracket glued to the words beside it.
 */
function clear(image: GreyImage, out: Uint8Array, fill: Fill, block: number, print: Print): void {
  const { width, pixels } = image;
  const ground = fill.ground;
  const map =
    print === 'light'
      ? (v: number) => 255 - clampByte(((255 * (v - ground)) / Math.max(1, 255 - ground)) | 0)
      : (v: number) => clampByte(((255 * v) / Math.max(1, ground)) | 0);
  for (let y = fill.top; y < fill.bottom; y++) {
    const edgeRow = y < fill.top + block || y >= fill.bottom - block;
    for (let x = fill.left, i = y * width + x; x < fill.right; x++, i++) {
      if (!isInside(fill, x, y, block)) continue;
      const edge = edgeRow || x < fill.left + block || x >= fill.right - block;
      out[i] = edge ? 255 : map(pixels[i] as number);
    }
  }
}

const clampByte = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);
