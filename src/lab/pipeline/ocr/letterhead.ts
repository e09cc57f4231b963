/**
 * The first page's letterhead read from its picture. Many laboratories print their name only as an image
 * (a logo, a banner in display type): the text layer has no such text, and the page OCR (segmentation 4,
 * one column of lines, ocr/page.ts) merges large type into the line below it. Here the top of page 1 is
 * rendered alone and read with automatic segmentation, which keeps a banner's lines apart.
 *
 * Asked only when no laboratory name was found otherwise, and never fatal: without the tools, or when
 * they fail, the letterhead is simply not read. The picture holds PHI (the patient block often reaches
 * into it), so it lives in a private temporary folder that is removed whatever happens, and the lines read
 * go only to the laboratory-name rules (screen/lab-names.ts), never to a log or an output.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ocrAvailable } from './ocr.js';

const DPI = 300;
/** One band of one page: far less than a page's budget (ocr/page.ts). */
const TOOL_TIMEOUT_MS = 20_000;

export interface PageSize {
  /** In PDF points. */
  width: number;
  height: number;
}

/**
 * The lines OCR reads in the top `share` of page 1's height (pipeline.ts says how much), top down; [] when
 * they cannot be read.
 */
export async function readLetterhead(
  pdf: Uint8Array,
  page: PageSize,
  signal: AbortSignal | undefined,
  share: number,
): Promise<string[]> {
  if (!(await ocrAvailable())) return [];
  const dir = await mkdtemp(join(tmpdir(), 'assay-letterhead-'));
  try {
    await writeFile(join(dir, 'input.pdf'), pdf, { mode: 0o600 });
    const opts = { cwd: dir, timeout: TOOL_TIMEOUT_MS, cancelSignal: signal };
    const pixels = (points: number) => String(Math.ceil((points * DPI) / 72));
    await execa(
      'pdftoppm',
      ['-r', String(DPI), '-gray', '-f', '1', '-l', '1', '-x', '0', '-y', '0'].concat(
        ['-W', pixels(page.width), '-H', pixels(page.height * share)],
        ['-singlefile', 'input.pdf', 'band'],
      ),
      opts,
    );
    const { stdout } = await execa('tesseract', ['band.pgm', 'stdout', '--dpi', String(DPI), '--psm', '3'], {
      ...opts,
      env: { OMP_THREAD_LIMIT: '1' },
    });
    return stdout.split('\n').filter((line) => line.trim() !== '');
  } catch {
    signal?.throwIfAborted();
    return [];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
