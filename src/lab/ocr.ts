/**
 * OCR fallback for PDFs without a text layer (scans): rasterise each page with poppler's pdftoppm, read
 * words with positions from tesseract's TSV output, and build the same DocumentLayout the text layer gives,
 * so every later stage works unchanged. Both tools are optional system packages; without them a scan fails
 * with `no_text_layer` and a message that says what to install.
 *
 * The page images hold everything the document prints, PHI included, so they live in a private temporary
 * folder that is removed whatever happens.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { AssayError, EXIT } from '../errors.js';
import { buildLines, round, type TextItem } from './layout.js';
import type { DocumentLayout, PageLayout } from './pdf-text.js';

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

/** Resolution pages are rasterised at: tesseract reads 300 dpi text reliably. */
const DPI = 300;
/** Words tesseract is less sure of than this (0-100) are dropped as noise. */
const MIN_CONFIDENCE = 30;
const TOOL_TIMEOUT_MS = 45_000;

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

export async function ocrLayout(
  pdf: Uint8Array,
  signal?: AbortSignal,
  reason: OcrReason = 'no_text_layer',
): Promise<DocumentLayout> {
  if (!(await ocrAvailable())) throw new NoTextLayerError(undefined, WHAT[reason]);
  const dir = await mkdtemp(join(tmpdir(), 'assay-ocr-'));
  try {
    await writeFile(join(dir, 'input.pdf'), pdf, { mode: 0o600 });
    await execa('pdftoppm', ['-r', String(DPI), '-png', 'input.pdf', 'page'], {
      cwd: dir,
      timeout: TOOL_TIMEOUT_MS,
      cancelSignal: signal,
    });
    const images = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort(byPageNumber);
    const pages: PageLayout[] = [];
    for (const [i, image] of images.entries()) {
      const { stdout } = await execa('tesseract', [image, 'stdout', 'tsv'], {
        cwd: dir,
        timeout: TOOL_TIMEOUT_MS,
        cancelSignal: signal,
      });
      pages.push(pageFromTsv(stdout, i + 1));
    }
    return { pages, hasTextLayer: pages.some((page) => page.items.length > 0) };
  } catch (error) {
    if (error instanceof NoTextLayerError) throw error;
    // Tool output can quote the document; only say which step failed.
    throw new NoTextLayerError('OCR of it failed', WHAT[reason]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** page-1.png, page-2.png ... page-10.png in page order (pdftoppm pads the numbers only sometimes). */
function byPageNumber(a: string, b: string): number {
  return Number(a.match(/(\d+)\.png$/)?.[1]) - Number(b.match(/(\d+)\.png$/)?.[1]);
}

/**
 * tesseract's TSV: one row per page, block, paragraph, line and word (level 1..5) with pixel boxes. Words
 * become text items in PDF points with the baseline at the bottom of the box; the page row gives the size.
 */
export function pageFromTsv(tsv: string, pageNumber: number, dpi = DPI): PageLayout {
  const scale = 72 / dpi;
  const items: TextItem[] = [];
  let width = 0;
  let height = 0;
  for (const row of tsv.split('\n').slice(1)) {
    const cols = row.split('\t');
    if (cols.length < 12) continue;
    const [level, , , , , , left, top, w, h, conf] = cols.slice(0, 11).map(Number);
    const text = cols.slice(11).join('\t').trim();
    if (level === 1) {
      width = (w ?? 0) * scale;
      height = (h ?? 0) * scale;
    }
    if (level !== 5 || text === '' || (conf ?? 0) < MIN_CONFIDENCE) continue;
    items.push({
      str: text,
      x: round((left ?? 0) * scale),
      y: round(((top ?? 0) + (h ?? 0)) * scale),
      width: round((w ?? 0) * scale),
      height: round((h ?? 0) * scale),
      fontSize: round((h ?? 0) * scale),
    });
  }
  return { pageNumber, width: round(width), height: round(height), items, lines: buildLines(items) };
}
