/**
 * `assay lab extract --watch DIR`: every PDF that appears in DIR, once whole, is extracted and its outputs
 * written to the out folder. A marker in DIR/.assay-done records each file done, with its size and time, so
 * a restarted watcher skips what it already did but redoes a file that was replaced.
 */
import { mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { whenAborted } from '../../cli/interrupt.js';
import type { Engine } from '../../engine/engine.js';
import { watchHotFolder } from '../../hot-folder/hot-folder.js';
import { readRegular } from '../../hot-folder/regular-file.js';
import { watchStableMs } from '../../hot-folder/stable.js';
import { submitLabFile } from '../job/kind.js';
import { alreadyDone, isPdf, markDone } from './files.js';
import { endsWithPdfTrailer } from './pdf-trailer.js';
import { type BatchOptions, INTERRUPT_GRACE_MS, record } from './run.js';

export interface WatchOptions
  extends Pick<BatchOptions, 'home' | 'submission' | 'formats' | 'subject' | 'explain'> {
  dir: string;
  outDir: string;
  /** One JSON line per file instead of one line of words. */
  json: boolean;
  /** The watch runs until this aborts. */
  signal: AbortSignal;
  /** Each file extracted (stdout). */
  say: (line: string) => void;
  /** Skips, waits and failures (stderr). */
  warn: (line: string) => void;
}

/** Watches until `signal` aborts, then hands back what is in flight; counts what ended and what is left. */
export async function watchPdfs(
  engine: Engine,
  opts: WatchOptions,
): Promise<{ extracted: number; unfinished: number }> {
  const doneDir = join(opts.dir, '.assay-done');
  await mkdir(doneDir, { recursive: true });
  let extracted = 0;
  const unfinished = new Set<string>();
  // Files whose job has ended and whose outputs are being written: Ctrl-C waits for these, so a result
  // written to the out folder is always also said and counted (it once was written, then not said).
  const reporting = new Set<Promise<void>>();
  const report = async (file: string, job: Awaited<ReturnType<typeof submitLabFile>>) => {
    const result = await record(engine, file, basename(file, extname(file)), job, opts);
    await markDone(doneDir, file, job.id);
    unfinished.delete(file);
    extracted += 1;
    opts.say(
      opts.json
        ? JSON.stringify(result)
        : `${basename(file)}: ${result.result.status}${result.output ? ` -> ${result.output}` : ''}`,
    );
  };
  const take = async (file: string) => {
    if (await alreadyDone(doneDir, file)) return;
    const pdf = await readRegular(file);
    if (!pdf) throw new Error('no longer a regular file: skipped.');
    const job = await submitLabFile(engine, opts.home, { pdf, filename: basename(file), ...opts.submission });
    unfinished.add(file);
    const [finished] = await engine.waitFor([job.id], { signal: opts.signal });
    const reported = report(file, finished ?? job);
    reporting.add(reported);
    try {
      await reported;
    } finally {
      reporting.delete(reported);
    }
  };
  const folder = watchHotFolder({
    dir: opts.dir,
    matches: isPdf,
    stableMs: watchStableMs(),
    isWhole: endsWithPdfTrailer,
    take,
    onSkip: (file, why) =>
      opts.warn(
        why === 'not_a_file'
          ? `${basename(file)}: not a regular file in the folder (a link, FIFO or device): skipped.`
          : `${basename(file)}: not a whole PDF yet (no %%EOF trailer): waiting for the rest.`,
      ),
    onError: (file, error) => {
      // Waits cut short by Ctrl-C are counted in the summary, not reported one by one.
      if (!opts.signal.aborted) opts.warn(`${basename(file)}: ${error.message}`);
    },
    signal: opts.signal,
  });
  await folder.ready;
  // Said once the folder has been read and Ctrl-C is handled: a caller may wait for this line.
  if (!opts.json && !opts.signal.aborted)
    opts.warn(`Watching ${opts.dir} for PDFs (Ctrl-C to stop); results go to ${opts.outDir}.`);
  await whenAborted(opts.signal);
  await folder.close();
  await Promise.allSettled([...reporting]);
  // Unfinished files have no done marker: the next watch submits them again and gets the same job back.
  await engine.stopWorkers(INTERRUPT_GRACE_MS);
  return { extracted, unfinished: unfinished.size };
}
