/**
 * A small pool of worker threads for the CPU-heavy part of lab extraction (PDF parsing, layout, PHI scan,
 * table parsing), so a batch never blocks the event loop that serves HTTP and renews job leases. One task
 * per thread at a time; extra tasks wait in a FIFO queue. A task whose signal aborts (job timeout, lost
 * lease, shutdown) has its thread terminated, as that is the only way to stop a parser stuck in a hostile
 * PDF; a fresh thread takes its place on demand.
 */

import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DocumentTooComplexError } from '../pipeline/pdf/document-budget.js';
import type { PipelineOutcome, PipelineRequest, PipelineStage } from '../pipeline/pipeline.js';
import type { ThreadReply, ThreadTask } from './thread-worker.js';

/** An error raised inside a thread, carried back as plain data (errors do not cross threads intact). */
export class ThreadTaskError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ThreadTaskError';
  }
}

/** The code of a task whose thread died under it, as opposed to an error the pipeline reported. */
export const THREAD_CRASHED = 'thread_crashed';

export interface RunOptions {
  signal?: AbortSignal;
  onStage?: (stage: PipelineStage) => void;
  /** Pages of a scan read so far. */
  onPages?: (done: number, total: number) => void;
}

interface Pending {
  task: ThreadTask;
  transfer: ArrayBuffer[];
  opts: RunOptions;
  resolve: (outcome: PipelineOutcome) => void;
  /** Both detach the abort listener, so a long-lived signal shared by many tasks does not collect them. */
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  current: Pending | undefined;
}

/**
 * Built, the thread starts from thread-bundle.js: the whole thread compiled from one bundle and its code
 * cache when `npm run build` made them, else thread-worker.js and its modules. Under vitest or tsx this
 * module is TypeScript, and Node 20 does not apply `--import tsx` to a worker's entry module, so a one-line
 * bootstrap loads the worker through tsx's API instead.
 */
function newWorker(): Worker {
  const here = import.meta.url;
  const resourceLimits = threadLimits();
  if (!here.endsWith('.ts')) {
    const entry = new URL('./thread-bundle.js', here).href;
    return new Worker(`import(${JSON.stringify(entry)}).then((m) => m.startThread())`, {
      eval: true,
      resourceLimits,
    });
  }
  // The test suite bundles thread-worker.ts from these sources once per run (test/support/worker-bundles.ts):
  // the same code, started in a fraction of the time tsx's per-module hooks take in every new thread.
  const bundles = process.env.ASSAY_TEST_WORKER_BUNDLES;
  if (bundles) return new Worker(join(bundles, 'thread-worker.mjs'), { resourceLimits });
  // Resolved here, where the package is known to be installed; the ESM entry, not require()'s.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const script = new URL('./thread-worker.ts', here).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(script)}, ${JSON.stringify(here)}))`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

/**
 * Each thread's heap. The old generation is bounded so that one document cannot take the process's memory
 * with it. The young generation is held small: nearly all a document allocates dies with it, and V8 left
 * to itself grows every thread's nursery to some 32 MB that stays committed (YOUNG_GENERATION_MB).
 */
function threadLimits(): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: threadHeapMb(), maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
}

/**
 * Measured on the CLI extracting 48 text PDFs with two threads: peak RSS 237 MB with V8's default, 186 MB
 * at 8 MB; the extra scavenges cost less than the run-to-run noise of its CPU time.
 */
const YOUNG_GENERATION_MB = 8;

function threadHeapMb(): number {
  const env = Number(process.env.ASSAY_THREAD_HEAP_MB);
  return Number.isInteger(env) && env > 0 ? env : 1024;
}

export function defaultThreadCount(): number {
  const env = Number(process.env.ASSAY_THREADS);
  return Number.isInteger(env) && env > 0 ? env : availableParallelism();
}

export class ThreadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size = defaultThreadCount()) {}

  /** Run the pipeline on `pdf` in a thread. The bytes are copied once and the copy moved to the thread. */
  run(pdf: Uint8Array, request: PipelineRequest, opts: RunOptions = {}): Promise<PipelineOutcome> {
    if (this.closed) return Promise.reject(new Error('The thread pool is closed.'));
    opts.signal?.throwIfAborted();
    const bytes = new Uint8Array(pdf);
    return new Promise((resolve, reject) => {
      const onAbort = () => this.abort(pending);
      const detach = () => opts.signal?.removeEventListener('abort', onAbort);
      const pending: Pending = {
        task: { id: this.nextId++, pdf: bytes, request },
        transfer: [bytes.buffer],
        opts,
        resolve: (outcome) => {
          detach();
          resolve(outcome);
        },
        reject: (error) => {
          detach();
          reject(error);
        },
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /**
   * Start up to `count` threads now rather than on the first tasks, so their start-up (module compilation)
   * overlaps the caller's own work, such as submitting a batch. Idle threads never keep the process alive.
   */
  prestart(count = this.size): void {
    while (!this.closed && this.slots.length < Math.min(count, this.size)) this.spawn();
  }

  /** How many threads exist now (they start lazily, up to `size`). */
  get threads(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('The thread pool was closed.'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.current) ?? this.spawn();
      if (!slot) return;
      const pending = this.queue.shift() as Pending;
      slot.current = pending;
      // A busy thread keeps the process alive; an idle one must not hold it open after the work is done.
      slot.worker.ref();
      slot.worker.postMessage(pending.task, pending.transfer);
    }
  }

  private spawn(): Slot | undefined {
    if (this.slots.length >= this.size) return undefined;
    const slot: Slot = { worker: newWorker(), current: undefined };
    slot.worker.unref();
    slot.worker.on('message', (reply: ThreadReply) => this.onReply(slot, reply));
    slot.worker.on('error', (error) => this.onCrash(slot, error));
    slot.worker.on('exit', () => this.onCrash(slot, new Error('The extraction thread exited.')));
    this.slots.push(slot);
    return slot;
  }

  private onReply(slot: Slot, reply: ThreadReply): void {
    const pending = slot.current;
    if (!pending || reply.id !== pending.task.id) return;
    if (reply.type === 'stage') {
      pending.opts.onStage?.(reply.stage);
      return;
    }
    if (reply.type === 'pages') {
      pending.opts.onPages?.(reply.done, reply.total);
      return;
    }
    this.finish(slot);
    if (reply.type === 'done') pending.resolve(reply.outcome);
    else pending.reject(new ThreadTaskError(reply.error.code, reply.error.message));
  }

  /** A thread died (out of memory, a native crash): fail its task and forget it; the next task spawns anew. */
  private onCrash(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    const pending = slot.current;
    slot.current = undefined;
    // Out of its heap limit, the thread's own document is what filled it: retrying cannot help.
    const tooBig = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    pending?.reject(
      tooBig
        ? new ThreadTaskError('document_too_complex', new DocumentTooComplexError().message)
        : new ThreadTaskError(THREAD_CRASHED, `The extraction thread stopped unexpectedly (${error.name}).`),
    );
    if (!this.closed) this.dispatch();
  }

  private abort(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      pending.reject(pending.opts.signal?.reason);
      return;
    }
    const slot = this.slots.find((s) => s.current === pending);
    if (!slot) return;
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.current = undefined;
    void slot.worker.terminate();
    pending.reject(pending.opts.signal?.reason);
    this.dispatch();
  }

  private finish(slot: Slot): void {
    slot.current = undefined;
    slot.worker.unref();
    this.dispatch();
  }
}

let shared: ThreadPool | undefined;

/** The process-wide pool the lab job kind uses. */
export function sharedThreadPool(): ThreadPool {
  shared ??= new ThreadPool();
  return shared;
}

export async function closeSharedThreadPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
