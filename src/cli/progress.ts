import { Listr, ListrLogger, ProcessOutput } from 'listr2';
import { type Engine, isTerminal } from '../engine/engine.js';
import type { JobRecord } from '../engine/types.js';
import { onPages } from '../lab/job/progress.js';

/**
 * Wait for jobs, showing a listr2 list on stderr when it is a TTY (one row per job for small batches, one
 * counter row for large ones). Off a TTY, or under --json, it waits silently: CI logs stay clean.
 */
export interface WaitOptions {
  quiet?: boolean;
  signal?: AbortSignal;
  /** Called once per job as it ends, so its outputs can be written before the batch is over. */
  onEnd?: (job: JobRecord) => void;
}

export async function waitWithProgress(
  engine: Engine,
  jobs: Array<{ id: string; label: string }>,
  opts: WaitOptions = {},
): Promise<JobRecord[]> {
  const pageTitles = new Map<string, (done: number, total: number) => void>();
  const stopPages = onPages(({ jobId, done, total }) => pageTitles.get(jobId)?.(done, total));
  try {
    return await waitShowing(engine, jobs, opts, pageTitles);
  } finally {
    stopPages();
  }
}

async function waitShowing(
  engine: Engine,
  jobs: Array<{ id: string; label: string }>,
  opts: WaitOptions,
  pageTitles: Map<string, (done: number, total: number) => void>,
): Promise<JobRecord[]> {
  const ids = jobs.map((j) => j.id);
  if (opts.quiet || !process.stderr.isTTY)
    return engine.waitFor(ids, {
      signal: opts.signal,
      onChange: (job) => {
        if (isTerminal(job)) opts.onEnd?.(job);
      },
    });

  const results = new Map<string, JobRecord>();
  const one = (id: string) =>
    engine.waitFor([id], { signal: opts.signal }).then(([r]) => {
      results.set(id, r as JobRecord);
      opts.onEnd?.(r as JobRecord);
    });
  const tasks =
    jobs.length <= 12
      ? jobs.map((j) => ({
          title: j.label,
          task: async (_: unknown, task: { title: string }) => {
            // A scan shows its pages as OCR reads them.
            pageTitles.set(j.id, (done, total) => {
              task.title = `${j.label}: OCR page ${done}/${total}`;
            });
            await one(j.id);
            const r = results.get(j.id);
            task.title = `${j.label}: ${r?.status}`;
            if (r?.state !== 'done')
              throw new Error(`${j.label}: ${r?.status} ${r?.errorMessage ?? ''}`.trim());
          },
        }))
      : [
          {
            title: `0/${jobs.length} jobs finished`,
            task: async (_: unknown, task: { title: string }) => {
              let finished = 0;
              await Promise.all(
                ids.map((id) =>
                  one(id).then(() => {
                    finished += 1;
                    task.title = `${finished}/${jobs.length} jobs finished`;
                  }),
                ),
              );
            },
          },
        ];
  await new Listr(tasks, {
    concurrent: true,
    exitOnError: false,
    // stdout is kept for results (and --json); progress belongs on stderr.
    rendererOptions: {
      collapseErrors: false,
      logger: new ListrLogger({ processOutput: new ProcessOutput(process.stderr, process.stderr) }),
    },
    registerSignalListeners: false,
  }).run();
  // listr2 can swallow per-task errors; the records in the store are the truth.
  return ids.map((id) => results.get(id) as JobRecord);
}
