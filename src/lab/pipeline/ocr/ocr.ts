/**
 * OCR fallback for PDFs without a text layer (scans): each page's image, cleaned of specks and enlarged
 * if coarse (images.ts, clean.ts), read by tesseract within a budget (page.ts), words with positions from
 * its hOCR (hocr.ts, hocr-page.ts), and the same DocumentLayout the text layer gives, so every later
 * stage (the table reader included) works unchanged; rows read so are put right against the catalogues
 * afterwards (ocr-rows.ts). Both tools are optional system packages; without them a scan fails with
 * `no_text_layer` and a message that says what to install.
 *
 * The page images hold everything the document prints, PHI included, so they live in a private temporary
 * folder that is removed whatever happens.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { AssayError, EXIT } from '../../../errors.js';
import type { DocumentLayout, PageLayout } from '../pdf/pdf-text.js';
import { alignDriftingColumns, pageDrifts } from './drift.js';
import { type HocrPage, parseHocr } from './hocr.js';
import { ocrLines, pageFromHocr } from './hocr-page.js';
import { planPageImages, type WrittenImage, writePageImage } from './images.js';
import { mayLieOnItsSide, uprightTurn, writeTurned } from './orientation.js';
import { OcrTimeoutError, ocrPage } from './page.js';

export class NoTextLayerError extends AssayError {
  constructor(detail = 'OCR is not available on this machine', what = 'has no text layer (a scan)') {
    super('no_text_layer', `The PDF ${what} and ${detail}.`, {
      exitCode: EXIT.jobFailed,
      suggestions: [
        'Install poppler-utils (pdftoppm) and tesseract-ocr so scans can be OCRed, then submit it again.',
      ],
    });
  }
}

let available: Promise<boolean> | undefined;

/** Whether pdftoppm and tesseract both run here; asked once per process. */
export function ocrAvailable(): Promise<boolean> {
  available ??= Promise.all([runs('pdftoppm', ['-v']), runs('tesseract', ['--version'])]).then(
    ([a, b]) => a && b,
  );
  return available;
}

async function runs(command: string, args: string[]): Promise<boolean> {
  try {
    await execa(command, args, { timeout: 10_000, stdio: 'ignore' });
    return true;
  } catch (error) {
    // pdftoppm -v exits non-zero on some poppler versions; only a missing binary means "not available".
    return (error as { code?: string }).code !== 'ENOENT';
  }
}

/** What is wrong with the text layer, for the error a failed OCR gives. */
export type OcrReason = 'no_text_layer' | 'unreadable_text';

const WHAT: Record<OcrReason, string> = {
  no_text_layer: 'has no text layer (a scan)',
  unreadable_text: 'has a text layer that cannot be read (fonts without a character map)',
};

export interface OcrOptions {
  signal?: AbortSignal;
  reason?: OcrReason;
  /** Called as each page is read, for progress on long scans. */
  onPage?: (done: number, total: number) => void;
}

/**
 * Reads every page's image, as many pages at a time as the machine has cores (each tesseract runs one
 * thread), and builds the layout the text layer would have given.
 */
export async function ocrLayout(
  pdf: Uint8Array,
  pageCount: number,
  opts: OcrOptions = {},
): Promise<DocumentLayout> {
  const { signal, reason = 'no_text_layer' } = opts;
  if (!(await ocrAvailable())) throw new NoTextLayerError(undefined, WHAT[reason]);
  const dir = await mkdtemp(join(tmpdir(), 'assay-ocr-'));
  try {
    await writeFile(join(dir, 'input.pdf'), pdf, { mode: 0o600 });
    const images = await planPageImages(dir, pageCount, signal);
    let done = 0;
    const pages = await mapLimited(images, availableParallelism(), async (image) => {
      const written = await writePageImage(dir, image, signal);
      const page = await readPage(dir, written, image.pageNumber, signal);
      opts.onPage?.(++done, images.length);
      return page;
    });
    return { pages, hasTextLayer: pages.some((page) => page.items.length > 0) };
  } catch (error) {
    if (error instanceof NoTextLayerError || error instanceof OcrTimeoutError) throw error;
    signal?.throwIfAborted();
    // Tool output can quote the document; only say which step failed.
    throw new NoTextLayerError('OCR of it failed', WHAT[reason]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The page read row by row as it lies; where few of its words read surely, turned upright if tesseract can
 * tell which way is up (orientation.ts), and read again. The turned reading has no dark fills marked
 * (their boxes were found on the page as it lay).
 */
async function uprightRows(
  dir: string,
  written: WrittenImage,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<{ rows: HocrPage; image: WrittenImage }> {
  const rows = parseHocr(await ocrPage(dir, written.file, pageNumber, written.dpi, signal));
  if (!mayLieOnItsSide(rows)) return { rows, image: written };
  const turn = await uprightTurn(dir, written.file, signal);
  const file = turn === 0 ? null : await writeTurned(dir, written.file, turn);
  if (!file) return { rows, image: written };
  const image = { file, dpi: written.dpi };
  return { rows: parseHocr(await ocrPage(dir, file, pageNumber, image.dpi, signal)), image };
}

/**
 * The page read row by row; where its columns drift apart (a phone photo held at an angle: drift.ts), read
 * again as blocks and each column put back on the names' rows. Only such pages pay for the second reading,
 * and the first stands where no column can be put back.
 */
async function readPage(
  dir: string,
  written: WrittenImage,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<PageLayout> {
  const { rows, image } = await uprightRows(dir, written, pageNumber, signal);
  const page = pageFromHocr(rows, pageNumber, image.dpi, image.turned);
  if (!pageDrifts(rows)) return page;
  const blocks = await ocrPage(dir, image.file, pageNumber, image.dpi, signal, undefined, 'blocks');
  const read = pageFromHocr(blocks, pageNumber, image.dpi, image.turned);
  const aligned = alignDriftingColumns(read.items);
  return aligned ? { ...read, items: aligned, lines: ocrLines(aligned) } : page;
}

/** Maps with at most `limit` calls in flight, keeping the input order in the result. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
