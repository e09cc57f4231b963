/**
 * The page images OCR reads. A scan printed to PDF embeds one image per page: that image, at the
 * resolution it was made at, is the best copy there is, so it is taken out as it is (`pdfimages`);
 * rasterising it again would only resample it. Pages that are not one embedded image (text on a scan,
 * vector drawings) are rasterised page by page (`pdftoppm`), so pages can be read in parallel.
 */
import { readdir } from 'node:fs/promises';
import { execa } from 'execa';

export interface PageImage {
  pageNumber: number;
  /** Image file name in the working folder. */
  file: string;
  /** Resolution of the image, for converting pixel boxes to PDF points. */
  dpi: number;
}

/** Rasterising resolution: tesseract reads 300 dpi text reliably. */
export const RASTER_DPI = 300;
/** Embedded images coarser than this are rasterised instead: small print needs the pixels. */
const MIN_NATIVE_DPI = 200;
const TOOL_TIMEOUT_MS = 60_000;

interface EmbeddedImage {
  page: number;
  dpi: number;
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
    const native = onPage.length === 1 && (onPage[0]?.dpi ?? 0) >= MIN_NATIVE_DPI ? onPage[0] : undefined;
    return native
      ? { pageNumber, file: `native-${pageNumber}`, dpi: Math.round(native.dpi) }
      : { pageNumber, file: `raster-${pageNumber}`, dpi: RASTER_DPI };
  });
}

/**
 * Writes the page's image into `dir`; returns the file written. Images are written uncompressed (PNM):
 * compressing a noisy page to PNG took pdftoppm 10-20 s, far longer than reading it, and tesseract reads
 * PNM as it reads PNG.
 */
export async function writePageImage(dir: string, image: PageImage, signal?: AbortSignal): Promise<string> {
  const page = String(image.pageNumber);
  const opts = { cwd: dir, timeout: TOOL_TIMEOUT_MS, cancelSignal: signal };
  if (image.file.startsWith('native-')) {
    await execa('pdfimages', ['-f', page, '-l', page, 'input.pdf', image.file], opts);
    const written = (await readdir(dir)).find((f) => f.startsWith(`${image.file}-000.`));
    if (written) return written;
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
  return `${image.file}.pgm`;
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
      .map((cols) => ({ page: Number(cols[0]), dpi: Math.min(Number(cols[12]), Number(cols[13])) }));
  } catch {
    // No pdfimages (older poppler), or a PDF it cannot list: rasterise every page.
    return [];
  }
}
