/**
 * Text with layout, page by page: the first stage of lab extraction. Uses the pdf.js copy that pdf-parse
 * depends on (pdf-parse itself returns text without positions). extractLayout is a pure async function of
 * the file's bytes, so it can run inside a worker thread, away from the HTTP event loop.
 */

import { InvalidPdfError } from '../errors.js';
import { budgetFromEnv, checkDecodedSize, DocumentTooComplexError } from './document-budget.js';
import { buildLines, type LayoutOptions, type Line, round, type TextItem } from './layout.js';
import {
  getDocument,
  normalizeUnicode,
  OPEN_OPTIONS,
  type PDFDocumentProxy,
  type PDFPageProxy,
  threadWorker,
  Util,
} from './pdfjs.js';

export interface PageLayout {
  pageNumber: number;
  width: number;
  height: number;
  items: TextItem[];
  lines: Line[];
}

export interface DocumentLayout {
  pages: PageLayout[];
  /** False when no page has any text: a scan, which only OCR can read. */
  hasTextLayer: boolean;
}

/** pdf.js finds the header anywhere in the first kilobyte; anything without one is not a PDF at all. */
const HEADER_WINDOW = 1024;

export async function extractLayout(pdf: Uint8Array, options: LayoutOptions = {}): Promise<DocumentLayout> {
  checkHeader(pdf);
  const budget = budgetFromEnv();
  await checkDecodedSize(pdf, budget);
  const doc = await open(pdf);
  try {
    if (doc.numPages > budget.maxPages) throw new DocumentTooComplexError();
    const pages: PageLayout[] = [];
    for (let n = 1; n <= doc.numPages; n++) pages.push(await readPage(doc, n, options));
    return { pages, hasTextLayer: pages.some((page) => page.items.length > 0) };
  } catch (error) {
    throw asInvalidPdf(error);
  } finally {
    await doc.destroy();
  }
}

function checkHeader(pdf: Uint8Array): void {
  if (pdf.length === 0) throw new InvalidPdfError('empty');
  const head = Buffer.from(pdf.subarray(0, HEADER_WINDOW)).toString('latin1');
  if (!head.includes('%PDF-')) throw new InvalidPdfError('not_a_pdf');
}

async function open(pdf: Uint8Array): Promise<PDFDocumentProxy> {
  const task = getDocument({
    // A fresh plain Uint8Array: pdf.js refuses Buffers and takes ownership of what it is given.
    data: new Uint8Array(pdf),
    ...OPEN_OPTIONS,
    worker: threadWorker().worker,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy();
    throw asInvalidPdf(error);
  }
}

async function readPage(
  doc: PDFDocumentProxy,
  pageNumber: number,
  options: LayoutOptions,
): Promise<PageLayout> {
  const page = await doc.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const items = await textItems(page, viewport.transform);
    return {
      pageNumber,
      width: round(viewport.width),
      height: round(viewport.height),
      items,
      lines: buildLines(items, options),
    };
  } finally {
    page.cleanup();
  }
}

/**
 * Each item's transform maps text space to PDF user space (origin bottom-left); composing it with the
 * viewport's transform gives top-left page coordinates, whatever the page's rotation or crop box.
 */
async function textItems(page: PDFPageProxy, viewportTransform: number[]): Promise<TextItem[]> {
  const content = await page.getTextContent({ disableNormalization: true });
  const items: TextItem[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    const [, , c, d, x, y] = Util.transform(viewportTransform, item.transform) as number[];
    items.push({
      str: normalised(item.str),
      x: round(x ?? 0),
      y: round(y ?? 0),
      width: round(item.width),
      height: round(item.height),
      fontSize: round(Math.hypot(c ?? 0, d ?? 0)),
    });
  }
  return items;
}

/**
 * pdf.js's own normalisation (ligatures such as "ﬁ" split, odd spaces made plain) except for the micro
 * sign: NFKC turns U+00B5 into Greek mu, so "µg/dL" as printed came out "μg/dL". Units are kept as printed.
 */
function normalised(text: string): string {
  return text.includes(MICRO) ? text.split(MICRO).map(normalizeUnicode).join(MICRO) : normalizeUnicode(text);
}

const MICRO = '\u00b5';

function asInvalidPdf(error: unknown): InvalidPdfError | DocumentTooComplexError {
  if (error instanceof InvalidPdfError || error instanceof DocumentTooComplexError) return error;
  const name = error instanceof Error ? error.name : 'UnknownError';
  return new InvalidPdfError(name === 'PasswordException' ? 'password_protected' : 'malformed', name);
}
