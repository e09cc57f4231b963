import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReportModel } from '../model/model.js';

export type RenderFn = (model: ReportModel) => Promise<Buffer>;

/**
 * Render on the calling thread: tests, benchmarks, and one-off CLI runs where nothing else needs the loop.
 * pdfkit is imported on the first render, so a process that renders in the pool never loads it.
 */
export const renderInline: RenderFn = async (model) => (await import('../pdf/render.js')).renderReport(model);

interface Task {
  model: ReportModel;
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
 */
export const RENDER_THREAD_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 } as const;

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

/**
 * A small pool of worker threads rendering PDFs, so pdfkit's CPU time never blocks the event loop that
 * serves HTTP and heartbeats leases (DESIGN.md). Idle workers are unref'd: the pool never keeps a process
 * alive on its own.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private closed = false;

  constructor(readonly size = Math.max(1, Math.min(4, availableParallelism()))) {}

  readonly render: RenderFn = (model) =>
    new Promise<Buffer>((resolve, reject) => {
      if (this.closed) return reject(new Error('The render pool is closed.'));
      this.queue.push({ model, resolve, reject });
      this.dispatch();
    });

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
      slot.worker.postMessage(task.model);
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

/** The process-wide pool the registered report kinds use, created on first render. */
export const renderInPool: RenderFn = (model) => {
  shared ??= new RenderPool();
  return shared.render(model);
};
