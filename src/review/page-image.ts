/**
 * One page of a lab PDF as a PNG, rendered when the review page asks for it and never written anywhere:
 * pdftoppm reads the PDF (a path, or bytes on stdin) and writes the image to stdout, into memory. The page
 * shows the person's document as printed, identifiers included, so it lives only in the HTTP answer.
 */
/** Pixels per inch of the review image: sharp enough to read a row, small enough to send quickly. */
export const REVIEW_DPI = 110;

/** The PDF a page is rendered from: a file the user named, or bytes held in memory for one session. */
export type PdfSource = { path: string } | { bytes: Uint8Array };

// Renders are child processes; a reviewer paging quickly must not start one per keypress without bound.
const MAX_RENDERS = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/** The page (1-based) as PNG bytes, or null when the PDF has no such page or cannot be rendered. */
export async function renderPage(pdf: PdfSource, page: number, dpi = REVIEW_DPI): Promise<Buffer | null> {
  const release = await slot();
  try {
    const args = ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile'];
    const input = 'path' in pdf ? pdf.path : '-';
    // execa loads with the first page asked for: `serve` does not pay for it at start-up.
    const { execa } = await import('execa');
    const result = await execa('pdftoppm', [...args, input], {
      encoding: 'buffer',
      reject: false,
      timeout: 30_000,
      ...('bytes' in pdf ? { input: Buffer.from(pdf.bytes) } : {}),
    });
    const png = Buffer.from(result.stdout as Uint8Array);
    return result.exitCode === 0 && png.length > 0 ? png : null;
  } finally {
    release();
  }
}
