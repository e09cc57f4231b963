/**
 * The page images OCR reads. A scan printed to PDF embeds one image per page: that image, at the
 * resolution it was made at, is the best copy there is, so it is taken out as it is (`pdfimages`),
 * cleaned of specks and enlarged to 300 dpi if coarser (ocr-clean.ts); rasterising it would resample it
 * before the specks could be told from the print. Pages that are not one embedded image (text on a scan,
 * vector drawings) are rasterised page by page (`pdftoppm`), so pages can be read in parallel.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { despeckle, readPnm, resize, writePgm } from './clean.js';
import { clearDarkFills } from './dark-fills.js';
import type { Box } from './hocr.js';
import { smoothStipple } from './stipple.js';

export interface PageImage {
  pageNumber: number;
  /** Image file name in the working folder. */
  file: string;
  /** Resolution of the image, for converting pixel boxes to PDF points. */
  dpi: number;
}

/** The image written for tesseract, and its resolution (enlarging changes it). */
export interface WrittenImage {
  file: string;
  dpi: number;
  /** Where light print on a dark fill was turned dark on light (dark-fills.ts), in the image's pixels. */
  turned?: Box[];
}

/** Rasterising resolution: tesseract reads 300 dpi text reliably. */
export const RASTER_DPI = 300;
/** Embedded images coarser than this are rasterised instead: too few pixels to clean or enlarge. */
const MIN_NATIVE_DPI = 100;
/** Embedded images coarser than this, if they cannot be cleaned and enlarged, are rasterised instead. */
const MIN_AS_IS_DPI = 200;
/**
 * Cleaned images coarser than this are enlarged to RASTER_DPI. Reading less to save time lost values each
 * time it was tried (issue #33): a 200 dpi page read at its own resolution (the noisy grade of the scanned
 * family: value accuracy 0.980 -> 0.963, F1 0.979 -> 0.921, misreads no row doubt caught) or enlarged only
 * to 250 dpi (drawn 200 dpi scans: 0.988 -> 0.928), a 150 dpi page enlarged only to 225 dpi (0.978 ->
 * 0.964); and a real 356 dpi phone photo read as pdfimages wrote it, or greyed but not despeckled, lost
 * rows. So every page is cleaned, and only the cleaning is made cheap.
 */
const ENLARGE_BELOW_DPI = 0.9 * RASTER_DPI;
const TOOL_TIMEOUT_MS = 60_000;

interface EmbeddedImage {
  page: number;
  dpi: number;
  /** The longer side in pixels. */
  long: number;
}

/**
 * The long side of the paper a photo or scan shows, in inches (A4's 11.69; Letter's 11 reads finer). An
 * image made a PDF at one pixel a point declares 72 dpi whatever it holds: a 4080-pixel phone photo of
 * a page then rasterised at 300 dpi became a 17,000-pixel image (216 MB) with letters too big to read. Its
 * pixels over the paper's length say its resolution better; a crop of a page reads coarser than it is, so
 * this is trusted only where it says the image is fine enough to read as it is (MIN_AS_IS_DPI).
 */
const PAPER_LONG_INCHES = 11.69;

/** The image's resolution: as declared, or by the paper it shows where the declared one cannot be. */
function resolutionOf(image: EmbeddedImage): number {
  if (image.dpi >= MIN_NATIVE_DPI) return image.dpi;
  const byPaper = image.long / PAPER_LONG_INCHES;
  return byPaper >= MIN_AS_IS_DPI ? byPaper : image.dpi;
}

/** How each page will be imaged: its one embedded image, or a rasterisation. */
export async function planPageImages(
  dir: string,
  pageCount: number,
  signal?: AbortSignal,
): Promise<PageImage[]> {
  const embedded = await listImages(dir, signal);
  return Array.from({ length: pageCount }, (_, i) => {
    const pageNumber = i + 1;
    const onPage = embedded.filter((image) => image.page === pageNumber);
    const dpi = onPage.length === 1 ? resolutionOf(onPage[0] as EmbeddedImage) : 0;
    return dpi >= MIN_NATIVE_DPI
      ? { pageNumber, file: `native-${pageNumber}`, dpi: Math.round(dpi) }
      : { pageNumber, file: `raster-${pageNumber}`, dpi: RASTER_DPI };
  });
}

/**
 * Writes the page's image into `dir`; returns the file written and its resolution. Images are written
 * uncompressed (PNM): compressing a noisy page to PNG took pdftoppm 10-20 s, far longer than reading it,
 * and tesseract reads PNM as it reads PNG.
 */
export async function writePageImage(
  dir: string,
  image: PageImage,
  signal?: AbortSignal,
): Promise<WrittenImage> {
  const page = String(image.pageNumber);
  const opts = { cwd: dir, timeout: TOOL_TIMEOUT_MS, cancelSignal: signal };
  if (image.file.startsWith('native-')) {
    await execa('pdfimages', ['-f', page, '-l', page, 'input.pdf', image.file], opts);
    const written = (await readdir(dir)).find((f) => f.startsWith(`${image.file}-000.`));
    const cleaned = written ? await cleanImage(dir, written, image.dpi) : null;
    if (cleaned) return cleaned;
    if (written && image.dpi >= MIN_AS_IS_DPI) return { file: written, dpi: image.dpi };
  }
  const args = [
    '-r',
    String(image.dpi),
    '-gray',
    '-f',
    page,
    '-l',
    page,
    '-singlefile',
    'input.pdf',
    image.file,
  ];
  await execa('pdftoppm', args, opts);
  return { file: `${image.file}.pgm`, dpi: RASTER_DPI };
}

/**
 * The embedded image with print on grey or coloured fills made print on paper (dark-fills.ts), despeckled
 * and, if coarse, enlarged; null for a format read as it is.
 */
async function cleanImage(dir: string, file: string, dpi: number): Promise<WrittenImage | null> {
  const grey = readPnm(await readFile(join(dir, file)));
  if (!grey) return null;
  const cleared = clearDarkFills(grey, dpi);
  const clean = smoothStipple(despeckle(cleared.image));
  const factor = dpi < ENLARGE_BELOW_DPI ? RASTER_DPI / dpi : 1;
  const out = factor === 1 ? clean : resize(clean, factor);
  const cleanFile = `${file.replace(/\.\w+$/, '')}-clean.pgm`;
  await writeFile(join(dir, cleanFile), writePgm(out), { mode: 0o600 });
  const turned = cleared.turned.map((box) => ({
    left: box.left * factor,
    top: box.top * factor,
    right: box.right * factor,
    bottom: box.bottom * factor,
  }));
  return { file: cleanFile, dpi: factor === 1 ? dpi : RASTER_DPI, ...(turned.length > 0 ? { turned } : {}) };
}

/** `pdfimages -list`: one row per image with its page and x/y resolution. */
async function listImages(dir: string, signal?: AbortSignal): Promise<EmbeddedImage[]> {
  try {
    const { stdout } = await execa('pdfimages', ['-list', 'input.pdf'], {
      cwd: dir,
      timeout: TOOL_TIMEOUT_MS,
      cancelSignal: signal,
    });
    return stdout
      .split('\n')
      .slice(2)
      .map((row) => row.trim().split(/\s+/))
      .filter((cols) => cols.length >= 14 && cols[2] === 'image')
      .map((cols) => ({
        page: Number(cols[0]),
        dpi: Math.min(Number(cols[12]), Number(cols[13])),
        long: Math.max(Number(cols[3]), Number(cols[4])),
      }));
  } catch {
    // No pdfimages (older poppler), or a PDF it cannot list: rasterise every page.
    return [];
  }
}
