/**
 * Scans the way patients make them: a text lab report "printed to PDF" as page images. Built at run time
 * from the committed text-layer fixtures (fixtures/labs), in a temporary folder, never written back:
 *
 *   1. every page rasterised in grey with `pdftoppm -r <dpi> -gray` (PGM), the dpi drawn per document
 *      from 150/200/300 by a seeded RNG;
 *   2. each page degraded slightly and deterministically in plain JS: rotated by 0.3-1.2 degrees either
 *      way (bilinear, paper-white corners), light gaussian noise and a sprinkle of salt-and-pepper;
 *   3. the pages put back together as an image-only Letter PDF (pdfkit, one full-page 8-bit grey PNG per
 *      page at that dpi), so the pipeline finds no text layer and OCRs it.
 *
 * The truth is the fixture's <name>.expected.json rows. Besides the completed reports there are two cases
 * with another expected outcome: the Spanish report (quarantined, non_english_document), and a 5-page
 * bundle of two Labcorp reports printed into one PDF, there for the wall time of a 5-page scan (no
 * committed report has 5 pages); its two collection dates make it invalid_document.
 *
 * Needs poppler's pdftoppm (which OCR needs anyway); no image library. The PNG encoder is a local one:
 * fixtures/labs/gen/png.ts deflates at level 9, which takes ~3 s for a noisy 300 dpi page.
 *
 * `quality` fixes the spoiling instead of drawing it, at the three grades issue #27 measures doubts on
 * (SCAN_QUALITIES): a clean 300 dpi scan; 200 dpi with noise, 0.7 degrees of skew and a gaussian blur; and
 * 150 dpi with 1.5 degrees of skew saved as JPEG at quality 40, the way a phone app or an office scanner's
 * "small file" setting saves it. The JPEG is ImageMagick's (`convert`, as the only JPEG encoder at hand);
 * the PDF then carries a DCT image, which the pipeline's pdfimages decodes as a scanned PDF's would be.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { collect, newDocument, PAGE } from '../../fixtures/labs/gen/draw.js';
import { encodeGreyPng } from '../../fixtures/labs/gen/png.js';
import { createRng, type Rng, seedFor } from '../../fixtures/labs/gen/rng.js';
import { type GreyImage, readPnm } from '../../src/lab/pipeline/ocr/clean.js';
import { expectedExtraction, manifest, pdfBytes } from '../../test/lab/fixture-files.js';
import { type TruthRow, truthOf } from './score-extraction.js';

const run = promisify(execFile);

export const DEFAULT_DPIS: readonly number[] = [150, 200, 300];
export const DEFAULT_SEED = 7;

/** What runPipeline should end with. */
export type ScanExpect =
  | { status: 'completed' }
  | { status: 'quarantined'; rejection_reason: 'non_english_document' }
  | { status: 'invalid_document'; rejection_reason: string };

/** How a page was spoiled, for the report. */
export interface Degradation {
  /** Degrees, positive clockwise on the page. */
  angle: number;
  /** Standard deviation of the gaussian noise, in grey levels. */
  sigma: number;
  /** Fraction of pixels turned black or white. */
  saltPepper: number;
  /** Standard deviation of a gaussian blur, in pixels; 0 for none. */
  blur: number;
  /** JPEG quality (1-100) the page image is saved at; null for a lossless PNG. */
  jpegQuality: number | null;
}

/** A scan grade with its spoiling fixed rather than drawn (issue #27's three). */
export type ScanQuality = 'clean-300' | 'noisy-200' | 'poor-150';

export interface QualityPreset {
  dpi: number;
  /** Skew in degrees; its side (clockwise or not) is still drawn per page. */
  angle: number;
  /** Gaussian and salt-and-pepper noise, drawn as in the default family. */
  noise: boolean;
  blur: number;
  jpegQuality: number | null;
}

export const SCAN_QUALITIES: Readonly<Record<ScanQuality, QualityPreset>> = {
  'clean-300': { dpi: 300, angle: 0, noise: false, blur: 0, jpegQuality: null },
  'noisy-200': { dpi: 200, angle: 0.7, noise: true, blur: 0.8, jpegQuality: null },
  'poor-150': { dpi: 150, angle: 1.5, noise: true, blur: 0, jpegQuality: 40 },
};

export interface ScannedCase {
  name: string;
  pdf: Uint8Array;
  /** The rows a correct extraction returns; empty unless the expected status is completed. */
  truth: TruthRow[];
  pages: number;
  dpi: number;
  /** The fixture's family; 'rejection' for the Spanish report, 'bundle' for the 5-page bundle. */
  family: string;
  /** The committed fixtures the pages come from, in order. */
  sources: string[];
  expect: ScanExpect;
  /** One per page. */
  degradation: Degradation[];
}

export interface ScanOptions {
  /** Resolutions to draw from, one per document (default 150, 200, 300). */
  dpis?: number[];
  seed?: number;
  /** false: no rotation (for telling skew's cost from the rest). Default true. */
  skew?: boolean;
  /** false: no gaussian or salt-and-pepper noise. Default true. */
  noise?: boolean;
  /** Build only the cases of these names. */
  only?: string[];
  /** Only the reports expected to complete (no Spanish report, no bundle): what is scored. */
  completedOnly?: boolean;
  /** A fixed grade (SCAN_QUALITIES) instead of the drawn dpi and spoiling; dpis, skew and noise are ignored. */
  quality?: ScanQuality;
}

interface Plan {
  name: string;
  family: string;
  sources: string[];
  expect: ScanExpect;
}

/** Completed fixtures taken per family: the most pages first, then the most results. */
const FAMILY_PICKS: ReadonlyArray<readonly [family: string, count: number]> = [
  ['quest-classic', 2],
  ['labcorp-classic', 2],
  ['labcorp-v2', 1],
  ['quest-portal', 1],
];

/** Two reports of one vendor printed into one PDF: the only way to a 5-page scan from the fixtures. */
const BUNDLE = ['labcorp-annual-female', 'labcorp-cbc-urinalysis'] as const;

function plans(): Plan[] {
  const entries = manifest();
  const completed = entries.filter((e) => e.expect.status === 'completed');
  const picked: Plan[] = FAMILY_PICKS.flatMap(([family, count]) =>
    completed
      .filter((e) => e.family === family)
      .sort((a, b) => (b.pages ?? 0) - (a.pages ?? 0) || (b.resultCount ?? 0) - (a.resultCount ?? 0))
      .slice(0, count)
      .map((e) => ({ name: e.name, family, sources: [e.name], expect: { status: 'completed' as const } })),
  );
  if (!picked.some((p) => (entries.find((e) => e.name === p.name)?.pages ?? 0) >= 4))
    throw new Error('scanned-family: no completed fixture of 4+ pages');
  const bundlePages = BUNDLE.reduce((n, name) => n + (entries.find((e) => e.name === name)?.pages ?? 0), 0);
  return [
    ...picked,
    {
      name: 'reject-spanish',
      family: 'rejection',
      sources: ['reject-spanish'],
      expect: { status: 'quarantined', rejection_reason: 'non_english_document' },
    },
    {
      name: `bundle-${bundlePages}p-labcorp-annual+cbc`,
      family: 'bundle',
      sources: [...BUNDLE],
      expect: { status: 'invalid_document', rejection_reason: 'multiple_collection_dates' },
    },
  ];
}

/**
 * The scanned cases: 6 completed reports (two quest-classic, two labcorp-classic, one labcorp-v2, one
 * quest-portal, multi-page first), the Spanish report and the 5-page bundle. The same seed gives the same
 * bytes; each document draws from a seed of its own, so adding a case never changes the others.
 */
export async function scannedCases(opts: ScanOptions = {}): Promise<ScannedCase[]> {
  const preset = opts.quality ? SCAN_QUALITIES[opts.quality] : null;
  const dpis = preset ? [preset.dpi] : opts.dpis && opts.dpis.length > 0 ? opts.dpis : DEFAULT_DPIS;
  const seed = opts.seed ?? DEFAULT_SEED;
  const only = opts.only ? new Set(opts.only) : null;
  const dir = await mkdtemp(join(tmpdir(), 'assay-scanned-'));
  try {
    const cases: ScannedCase[] = [];
    for (const plan of plans()) {
      if (only && !only.has(plan.name)) continue;
      if (opts.completedOnly && plan.expect.status !== 'completed') continue;
      const rng = createRng((seedFor(plan.name) ^ Math.imul(seed, 0x9e3779b1)) >>> 0);
      const dpi = rng.pick(dpis);
      const degradation: Degradation[] = [];
      const images: Buffer[] = [];
      for (const source of plan.sources) {
        for (const page of await rasterise(dir, source, dpi)) {
          const d = drawDegradation(rng, opts, preset);
          degradation.push(d);
          const pixels = degrade(page, d, rng);
          images.push(
            d.jpegQuality === null
              ? encodeGreyPng(pixels, page.width, page.height, 1)
              : await encodeGreyJpeg(dir, { ...page, pixels }, d.jpegQuality),
          );
        }
      }
      cases.push({
        name: plan.name,
        pdf: new Uint8Array(await imagePdf(images, plan.name)),
        truth: plan.expect.status === 'completed' ? truthOf(expectedExtraction(plan.name)) : [],
        pages: images.length,
        dpi,
        family: plan.family,
        sources: plan.sources,
        expect: plan.expect,
        degradation,
      });
    }
    return cases;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// --- Rasterising ---------------------------------------------------------------------------------------------

/** Every page of a committed fixture as 8-bit grey pixels at `dpi`. */
async function rasterise(dir: string, fixture: string, dpi: number): Promise<GreyImage[]> {
  return rasterisePdf(dir, pdfBytes(fixture), fixture, dpi);
}

/** Every page of a PDF as 8-bit grey pixels at `dpi`, by poppler's pdftoppm; `name` names the temp files. */
export async function rasterisePdf(
  dir: string,
  pdf: Uint8Array,
  name: string,
  dpi: number,
): Promise<GreyImage[]> {
  const input = join(dir, `${name}.pdf`);
  const prefix = `${name}-${dpi}`;
  await writeFile(input, pdf);
  await run('pdftoppm', ['-r', String(dpi), '-gray', input, join(dir, prefix)], { timeout: 120_000 });
  // pdftoppm pads page numbers to the width of the page count: prefix-1.pgm or prefix-01.pgm.
  const files = (await readdir(dir))
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.pgm'))
    .sort((a, b) => pageOf(a) - pageOf(b));
  if (files.length === 0) throw new Error(`pdftoppm wrote no page of ${name}`);
  const pages: GreyImage[] = [];
  for (const file of files) {
    pages.push(parsePgm(await readFile(join(dir, file))));
    await rm(join(dir, file));
  }
  await rm(input);
  return pages;
}

const pageOf = (file: string): number => Number(/-(\d+)\.pgm$/.exec(file)?.[1] ?? Number.NaN);

/** pdftoppm's PGM page; the reader OCR uses for embedded images (8-bit P5/P6) reads it. */
function parsePgm(bytes: Uint8Array): GreyImage {
  const image = readPnm(bytes);
  if (!image) throw new Error('PGM: not an 8-bit binary PGM');
  return image;
}

// --- Degrading -----------------------------------------------------------------------------------------------

const PAPER = 255;

/**
 * Every draw is made whatever is switched off, so switching one off leaves the others as they were. A
 * quality preset keeps the drawn side of the skew and the drawn noise, and fixes the rest.
 */
export function drawDegradation(rng: Rng, opts: ScanOptions, preset: QualityPreset | null): Degradation {
  const magnitude = rng.between(0.3, 1.2);
  const clockwise = rng.chance(0.5);
  const sigma = Number(rng.between(3, 8).toFixed(2));
  const saltPepper = Number(rng.between(0.0005, 0.002).toFixed(5));
  if (preset)
    return {
      angle: clockwise ? preset.angle : -preset.angle,
      sigma: preset.noise ? sigma : 0,
      saltPepper: preset.noise ? saltPepper : 0,
      blur: preset.blur,
      jpegQuality: preset.jpegQuality,
    };
  const angle = Number((clockwise ? magnitude : -magnitude).toFixed(2));
  return {
    angle: opts.skew === false ? 0 : angle,
    sigma: opts.noise === false ? 0 : sigma,
    saltPepper: opts.noise === false ? 0 : saltPepper,
    blur: 0,
    jpegQuality: null,
  };
}

/** Rotation about the page centre, then blur (the optics), then gaussian noise, then salt-and-pepper. */
export function degrade(image: GreyImage, d: Degradation, rng: Rng): Uint8Array {
  let out = d.angle === 0 ? new Uint8Array(image.pixels) : rotate(image, d.angle);
  if (d.blur > 0) out = gaussianBlur({ ...image, pixels: out }, d.blur);
  addGaussian(out, d.sigma, rng);
  addSaltPepper(out, d.saltPepper, rng);
  return out;
}

/** Separable gaussian blur of standard deviation `sigma` pixels; the edges repeat the border pixel. */
export function gaussianBlur({ width, height, pixels }: GreyImage, sigma: number): Uint8Array {
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) =>
    Math.exp(-((i - radius) ** 2) / (2 * sigma ** 2)),
  );
  const total = kernel.reduce((a, b) => a + b, 0);
  const weights = kernel.map((k) => k / total);
  const across = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++) {
        const sx = x + k < 0 ? 0 : x + k >= width ? width - 1 : x + k;
        sum += (pixels[row + sx] as number) * (weights[k + radius] as number);
      }
      across[row + x] = sum;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++) {
        const sy = y + k < 0 ? 0 : y + k >= height ? height - 1 : y + k;
        sum += (across[sy * width + x] as number) * (weights[k + radius] as number);
      }
      out[y * width + x] = clamp(sum);
    }
  }
  return out;
}

/** The page as a greyscale baseline JPEG at `quality`, by ImageMagick's convert. */
export async function encodeGreyJpeg(dir: string, image: GreyImage, quality: number): Promise<Buffer> {
  const pgm = join(dir, 'page.pgm');
  const jpg = join(dir, 'page.jpg');
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1');
  await writeFile(pgm, Buffer.concat([header, image.pixels]));
  try {
    await run('convert', [pgm, '-colorspace', 'Gray', '-quality', String(quality), jpg], {
      timeout: 120_000,
    });
  } catch (error) {
    throw new Error(
      `scanned-family: a JPEG scan needs ImageMagick's convert (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const bytes = await readFile(jpg);
  await rm(pgm);
  await rm(jpg);
  return bytes;
}

/** Bilinear rotation by `degrees` about the centre; what comes in from outside the page is paper. */
export function rotate({ width, height, pixels }: GreyImage, degrees: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const theta = (degrees * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    // Inverse map: the source of output pixel (x, y) is R(-theta) applied about the centre.
    let sx = -cx * cos + dy * sin + cx;
    let sy = cx * sin + dy * cos + cy;
    let o = y * width;
    for (let x = 0; x < width; x++, o++, sx += cos, sy -= sin) {
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= width - 1 || y0 >= height - 1) {
        out[o] = PAPER;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * width + x0;
      const a = pixels[i] as number;
      const b = pixels[i + 1] as number;
      const c = pixels[i + width] as number;
      const e = pixels[i + width + 1] as number;
      const top = a + (b - a) * fx;
      const bottom = c + (e - c) * fx;
      out[o] = Math.round(top + (bottom - top) * fy);
    }
  }
  return out;
}

/** Zero-mean gaussian noise (Box-Muller, two samples per draw), clamped to 0..255. */
function addGaussian(pixels: Uint8Array, sigma: number, rng: Rng): void {
  for (let i = 0; i < pixels.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - rng.next())) * sigma;
    const t = 2 * Math.PI * rng.next();
    pixels[i] = clamp((pixels[i] as number) + r * Math.cos(t));
    if (i + 1 < pixels.length) pixels[i + 1] = clamp((pixels[i + 1] as number) + r * Math.sin(t));
  }
}

function addSaltPepper(pixels: Uint8Array, fraction: number, rng: Rng): void {
  const count = Math.round(pixels.length * fraction);
  for (let n = 0; n < count; n++) {
    pixels[Math.floor(rng.next() * pixels.length)] = rng.chance(0.5) ? 0 : 255;
  }
}

const clamp = (v: number): number => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

// --- The image-only PDF ----------------------------------------------------------------------------------------

/**
 * One full-page image (PNG or JPEG) per page: a Letter page unless `sizes` gives the page's own size in
 * points (a scanned copy of an A4 report stays A4); the image's pixel size and the page size give its dpi.
 */
export async function imagePdf(
  images: readonly Buffer[],
  title: string,
  sizes?: ReadonlyArray<readonly [width: number, height: number]>,
): Promise<Buffer> {
  const doc = newDocument(`${title} (scanned)`);
  const done = collect(doc);
  images.forEach((image, i) => {
    const size = sizes?.[i];
    if (size) doc.addPage({ size: [size[0], size[1]], margin: 0 });
    else doc.addPage();
    const [width, height] = size ?? [PAGE.width, PAGE.height];
    doc.image(image, 0, 0, { width, height });
  });
  doc.end();
  return done;
}
