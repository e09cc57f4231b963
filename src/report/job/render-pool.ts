import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReportModel } from '../model/model.js';

/**
 * What a render is given: the model, or the model as the JSON text already written to <name>.report.json.
 * A job that writes that file anyway hands the thread its text: copying a string costs the calling thread
 * less than cloning the model's objects, the thread parses it about as fast as it would rebuild the clone,
 * and the model dies young on the calling thread instead of being held (and promoted) through the render.
 */
export type RenderInput = ReportModel | string;

export type RenderFn = (input: RenderInput) => Promise<Buffer>;

/** The model a render input stands for (text parsed back: the model is plain JSON data). */
export const modelOf = (input: RenderInput): ReportModel =>
  typeof input === 'string' ? (JSON.parse(input) as ReportModel) : input;

/**
 * Render on the calling thread: tests, benchmarks, and one-off CLI runs where nothing else needs the loop.
 * pdfkit is imported on the first render, so a process that renders in the pool never loads it.
 */
export const renderInline: RenderFn = async (input) =>
  (await import('../pdf/render.js')).renderReport(modelOf(input));

interface Task {
  /** Until posted to a thread; dropped then, so a queued or running task holds no model. */
  input: RenderInput | null;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
}

export interface WorkerReply {
  pdf?: Uint8Array;
  error?: { name: string; message: string };
}

/**
 * A render thread's heap. V8 sizes a thread's heap for throughput and lets it grow long before collecting:
 * two render threads of a 1,000-report batch held some 120 MB more than they use (peak RSS 345 MB against
 * 217 MB so limited, at the same rate; `npm run bench -- report`). The full 20-event report renders well
 * within these; a request that needed more would fail as ReportRenderError rather than swell the process.
 * The young generation is sized for a render: a report allocates tens of MB that die with it, and with 8 MB
 * (semi-spaces of under 3 MB) a fifth of a render thread's time went to scavenges; at 48 MB a warm thread
 * spends some 25% less CPU per report for about 40 MB more of the two threads' peak RSS (64 MB: no faster,
 * 60 MB more again).
 */
export const RENDER_THREAD_LIMITS = { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 128 } as const;

/**
 * The worker's entry. Built, it is render-worker.js; run from the .ts sources (tsx, vitest) the thread first
 * registers tsx's loader, which a worker does not inherit, then imports the .ts module.
 */
function startWorker(): Worker {
  const resourceLimits = RENDER_THREAD_LIMITS;
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./render-worker.js', import.meta.url), { resourceLimits });
  // The test suite's bundle of render-worker.ts, built from these sources once per run (see thread-pool.ts).
  const bundles = process.env.ASSAY_TEST_WORKER_BUNDLES;
  if (bundles) return new Worker(join(bundles, 'render-worker.mjs'), { resourceLimits });
  const entry = JSON.stringify(new URL('./render-worker.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); });`, {
    eval: true,
    resourceLimits,
  });
}

/** A pool's threads unless told: one per core, up to 4. */
export function defaultRenderThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Report jobs to run at once so that the process-wide pool's threads are never idle: two per thread. A job
 * spends part of its time on the calling thread (claiming, scoring and modelling, writing its files,
 * completing); with one job per thread, each thread waited through that part of every report (some 20% of
 * a 1,000-report batch), with two, the other job's render is queued by then.
 */
export function reportJobSlots(): number {
  return 2 * defaultRenderThreads();
}

/**
 * A small pool of worker threads rendering PDFs, so pdfkit's CPU time never blocks the event loop that
 * serves HTTP and heartbeats leases (DESIGN.md). Idle workers are unref'd: the pool never keeps a process
 * alive on its own.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private closed = false;

  constructor(readonly size = defaultRenderThreads()) {}

  readonly render: RenderFn = (input) =>
    new Promise<Buffer>((resolve, reject) => {
      if (this.closed) return reject(new Error('The render pool is closed.'));
      this.queue.push({ input, resolve, reject });
      this.dispatch();
    });

  /**
   * Start up to `threads` render threads now (never more than the pool's size), before any model is ready:
   * a thread loads pdfkit and the renderers while the caller is still loading, reading and scoring, rather
   * than after. Started threads are idle and unref'd until given work, as any other.
   */
  prestart(threads: number): void {
    if (this.closed) return;
    while (this.slots.length < Math.min(threads, this.size)) this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('The render pool is closed.'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots.length = 0;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.task === null) ?? this.spawn();
      if (!slot) return;
      const task = this.queue.shift() as Task;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage(task.input);
      task.input = null;
    }
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.size) return null;
    const slot: Slot = { worker: startWorker(), task: null };
    slot.worker.unref();
    slot.worker.on('message', (reply: WorkerReply) => this.settle(slot, reply));
    slot.worker.on('error', (error) => this.crashed(slot, error));
    slot.worker.on('exit', (code) => {
      if (code !== 0) this.crashed(slot, new Error(`render worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private settle(slot: Slot, reply: WorkerReply): void {
    const task = slot.task;
    slot.task = null;
    slot.worker.unref();
    if (task) {
      if (reply.pdf) task.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
      else
        task.reject(
          Object.assign(new Error(reply.error?.message ?? 'render failed'), { name: 'ReportRenderError' }),
        );
    }
    this.dispatch();
  }

  /** A dead worker fails its task and is replaced on the next dispatch. */
  private crashed(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    slot.task?.reject(Object.assign(error, { name: 'ReportRenderError' }));
    slot.task = null;
    if (!this.closed) this.dispatch();
  }
}

let shared: RenderPool | undefined;

let onThisThread = false;

/**
 * The process-wide pool the registered report kinds use, created on first render; or this thread, once
 * renderOnThisThread() said so.
 */
export const renderInPool: RenderFn = (input) => {
  if (onThisThread) return renderInline(input);
  shared ??= new RenderPool();
  return shared.render(input);
};

/**
 * From now on the registered report kinds render on this thread, not in the pool: for a process that
 * renders one report and exits (`assay report generate` of one request). A thread of its own would load
 * pdfkit and the renderers a second time and start a V8 isolate for one page, some 150 ms of CPU more than
 * rendering here, while this thread has nothing else to do until the report is written.
 */
export function renderOnThisThread(): void {
  onThisThread = true;
}

/**
 * Start the process-wide pool's threads for `reports` reports about to be rendered (one thread each, up to
 * the pool's size), so their start-up overlaps the caller's (`assay report generate`).
 */
export function prestartRenderThreads(reports: number): void {
  shared ??= new RenderPool();
  shared.prestart(reports);
}
