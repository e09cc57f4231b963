/**
 * One page through tesseract, within a budget of processor time. tesseract's OpenMP threads fight over a
 * small machine's cores (most of their time then goes to the kernel), so each process runs one thread and
 * pages run side by side instead. The budget counts the process's own processor time, not the wall
 * clock: a page that fits alone fits in a batch of forty, where it waits for a core, so the same document
 * always ends in the same state.
 */
import { readFile } from 'node:fs/promises';
import { execa } from 'execa';
import { AssayError, EXIT } from '../../../errors.js';

/** Processor time one page may take; a clean 300 dpi page takes 2-4 s with one thread. */
export const PAGE_CPU_BUDGET_MS = 40_000;

/** The budget in force: ASSAY_OCR_PAGE_CPU_MS, else the default. */
export function pageBudgetMs(): number {
  const set = Number(process.env.ASSAY_OCR_PAGE_CPU_MS);
  return Number.isFinite(set) && set > 0 ? set : PAGE_CPU_BUDGET_MS;
}
/** A page that makes no progress at all (a stuck process) is stopped after this much wall time. */
const PAGE_WALL_LIMIT_MS = 10 * 60_000;
const POLL_MS = 250;

export class OcrTimeoutError extends AssayError {
  constructor(pageNumber: number, budgetMs: number) {
    super(
      'ocr_timeout',
      `OCR of page ${pageNumber} needed more than its budget of ${Math.round(budgetMs / 1000)} s of processor time.`,
      {
        exitCode: EXIT.jobFailed,
        suggestions: [
          'A scan at 300 dpi or less, straight and without background noise, reads within budget.',
        ],
      },
    );
  }
}

/**
 * How tesseract is asked to read a page. `rows`: page segmentation 4 reads the page as one column of lines
 * of varying sizes, keeping a table row's cells on one line where the default (automatic) may split
 * columns into separate blocks; 6 (one uniform block) misreads large letterhead type. Thresholding 2
 * (Sauvola's, a threshold per neighbourhood) keeps the decimal points and thin strokes of a soft or
 * unevenly lit scan that the default global threshold (Otsu's) loses: on the scanned fixture family, value
 * accuracy 0.95 -> 0.97 with it, before any repair. `blocks`: the default segmentation and threshold, which
 * read each column of a photographed table as a block of its own (drift.ts): on a real phone photo whose
 * columns drift apart, rows lost its range column and garbled 6 of 12 names; blocks read every name.
 */
export type Segmentation = 'rows' | 'blocks';

const SEGMENTATION: Record<Segmentation, string[]> = {
  rows: ['--psm', '4', '-c', 'thresholding_method=2'],
  blocks: ['--psm', '3', '-c', 'thresholding_method=0'],
};

/** tesseract's hOCR of one image, with a box and confidence for every character (hocr.ts). */
export async function ocrPage(
  dir: string,
  image: string,
  pageNumber: number,
  dpi: number,
  signal?: AbortSignal,
  budgetMs = pageBudgetMs(),
  segmentation: Segmentation = 'rows',
): Promise<string> {
  const args = [
    image,
    'stdout',
    '--dpi',
    String(dpi),
    ...SEGMENTATION[segmentation],
    '-c',
    'hocr_char_boxes=1',
    'hocr',
  ];
  const child = execa('tesseract', args, {
    cwd: dir,
    env: { OMP_THREAD_LIMIT: '1' },
    timeout: PAGE_WALL_LIMIT_MS,
    cancelSignal: signal,
  });
  let overBudget = false;
  const watch = setInterval(() => {
    void cpuMs(child.pid).then((used) => {
      if (used !== null && used > budgetMs && !overBudget) {
        overBudget = true;
        child.kill('SIGKILL');
      }
    });
  }, POLL_MS);
  try {
    const { stdout } = await child;
    return stdout;
  } catch (error) {
    if (overBudget) throw new OcrTimeoutError(pageNumber, budgetMs);
    throw error;
  } finally {
    clearInterval(watch);
  }
}

/** User + system time of a running process, from /proc (Linux); null where that cannot be read. */
async function cpuMs(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are
    // the 12th and 13th of them, in clock ticks (100 per second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}
