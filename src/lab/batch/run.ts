/**
 * `assay lab extract FILES...`: submit every PDF, wait for the jobs, write each file's outputs. Identical
 * PDFs share one job (same bytes, same options) and each still gets its own outputs; an interrupted batch
 * stops waiting, hands in-flight jobs back to the store, and reports what ended and what is left, which
 * the same command picks up again (the idempotency key gives back the same jobs).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Interrupt } from '../../cli/interrupt.js';
import { waitWithProgress } from '../../cli/progress.js';
import type { Engine } from '../../engine/engine.js';
import { isTerminal } from '../../engine/engine.js';
import type { JobRecord } from '../../engine/types.js';
import { reviewedResult } from '../../review/job-reviews.js';
import { type LabSubmission, submitLabFile } from '../job/kind.js';
import { labStatusBody } from '../job/status-body.js';
import { type Format, writeOne } from '../output/formats.js';
import { outputNames } from '../output/names.js';
import type { FileResult } from './files.js';

/** How long in-flight jobs may finish after Ctrl-C before they are handed back: an answer within seconds. */
export const INTERRUPT_GRACE_MS = 3_000;

/** A file the interrupt came before: it has no job yet. */
export const NOT_SUBMITTED = 'not_submitted';

export interface BatchOptions {
  home: string;
  submission: Omit<LabSubmission, 'pdf' | 'filename'>;
  /** Write each finished file's outputs here (names from output/names.ts), in each format. */
  outDir?: string;
  formats: Format[];
  subject?: string;
  quiet: boolean;
  interrupt: Pick<Interrupt, 'signal' | 'received'>;
  /** Add each rejection's evidence to its status body (`--explain`). */
  explain?: boolean;
}

export interface BatchRun {
  files: FileResult[];
  /** Set when a signal ended the wait. */
  interrupted?: NodeJS.Signals;
}

export async function runBatch(engine: Engine, files: string[], opts: BatchOptions): Promise<BatchRun> {
  const { signal } = opts.interrupt;
  const jobOf = new Map<string, JobRecord>();
  for (const file of files) {
    if (signal.aborted) break;
    const pdf = await readFile(file);
    jobOf.set(
      file,
      await submitLabFile(engine, opts.home, { pdf, filename: basename(file), ...opts.submission }),
    );
  }
  const names = outputNames(files);
  // Each job's files, written as soon as it ends: an interrupted batch keeps what it finished.
  const filesOf = new Map<string, string[]>();
  for (const [file, job] of jobOf) filesOf.set(job.id, [...(filesOf.get(job.id) ?? []), file]);
  const recorded = new Map<string, Promise<FileResult[]>>();
  const onEnd = (job: JobRecord) => {
    if (recorded.has(job.id)) return;
    const mine = filesOf.get(job.id) ?? [];
    recorded.set(
      job.id,
      Promise.all(mine.map((f) => record(engine, f, names.get(f) ?? basename(f), job, opts))),
    );
  };
  const labels = [...filesOf].map(([id, [first]]) => ({ id, label: basename(first ?? id) }));
  for (const job of await waitForJobs(engine, labels, onEnd, opts)) onEnd(job);
  const byFile = new Map<string, FileResult>();
  for (const results of await Promise.all(recorded.values()))
    for (const result of results) byFile.set(result.file, result);
  const results = files.map(
    (file) => byFile.get(file) ?? { file, output: null, result: { jobId: '', status: NOT_SUBMITTED } },
  );
  const interrupted = opts.interrupt.received();
  return interrupted ? { files: results, interrupted } : { files: results };
}

/** Every job once (labelled by its first file) until it ends, or as the store has it after an interrupt. */
async function waitForJobs(
  engine: Engine,
  jobs: Array<{ id: string; label: string }>,
  onEnd: (job: JobRecord) => void,
  opts: BatchOptions,
): Promise<JobRecord[]> {
  const { signal } = opts.interrupt;
  if (!signal.aborted) {
    try {
      const records = await waitWithProgress(engine, jobs, { quiet: opts.quiet, signal, onEnd });
      if (!signal.aborted) return records;
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  }
  // Interrupted: what ends within the grace counts as ended, the rest goes back to `queued`.
  await engine.stopWorkers(INTERRUPT_GRACE_MS);
  const now: JobRecord[] = [];
  for (const { id } of jobs) now.push(await engine.mustGet(id));
  return now;
}

/** The status body of a job, and its outputs written when it ended (a queued body would go stale). */
export async function record(
  engine: Engine,
  file: string,
  name: string,
  job: JobRecord,
  opts: Pick<BatchOptions, 'outDir' | 'formats' | 'subject' | 'explain'>,
): Promise<FileResult> {
  // A PDF reviewed before (jobs are shared by content) is written as reviewed.
  const result = await reviewedResult(engine.blobs, job.id, labStatusBody(job, { explain: opts.explain }));
  let output: string | null = null;
  if (opts.outDir && isTerminal(job)) {
    for (const format of opts.formats) {
      const written = await writeOne(opts.outDir, format, { file, name, result }, { subject: opts.subject });
      if (format === 'json') output = written;
    }
  }
  return { file, output, result };
}
