import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../engine/engine.js';
import { logStoreErrors } from '../engine/store-errors.js';
import type { SettledEvent, Worker } from '../engine/worker.js';
import { closeSharedThreadPool } from '../lab/job/thread-pool.js';
import { closeOnSignal, type Interrupt, listenForInterrupt } from './interrupt.js';

export interface WorkerSlots {
  concurrency: number;
  leaseMs?: number;
  kinds?: string[];
}

export interface WithWorkersOptions extends WorkerSlots {
  /**
   * What the first SIGINT/SIGTERM does. 'close' (default): close and exit 0, as the store gives unfinished
   * jobs to the next worker. 'report': only abort `signal`; the command says what ended and what is left,
   * then exits with signalExitCode.
   */
  onSignal?: 'close' | 'report';
}

export interface RunningWorkers extends Pick<Interrupt, 'signal' | 'received'> {
  worker: Worker;
  /** Run before the engine closes, however the command ends: a hot folder stops taking files first. */
  beforeClose(stop: () => Promise<void>): void;
}

/**
 * Workers of `engine` in this process while `run` runs, then closed, whether it ended, failed or was
 * interrupted: workers finish or hand back their jobs, the store closes, and the extraction threads the
 * lab jobs started end with them.
 */
export async function withWorkers<T>(
  engine: Engine,
  opts: WithWorkersOptions,
  run: (workers: RunningWorkers) => Promise<T>,
): Promise<T> {
  const worker = engine.startWorker({
    concurrency: opts.concurrency,
    leaseMs: opts.leaseMs,
    kinds: opts.kinds,
  });
  const stops: Array<() => Promise<void>> = [];
  let closing: Promise<void> | undefined;
  // Once only: a signal and the end of `run` may both close.
  const close = () => {
    closing ??= (async () => {
      for (const stop of stops) await stop();
      await engine.close();
      await closeSharedThreadPool();
    })();
    return closing;
  };
  const interrupt = opts.onSignal === 'report' ? listenForInterrupt() : closeOnSignal(close);
  try {
    return await run({
      worker,
      signal: interrupt.signal,
      received: interrupt.received,
      beforeClose: (stop) => stops.push(stop),
    });
  } finally {
    // Still listening while the store closes: a late Ctrl-C must not cut the close short.
    await close();
    interrupt.dispose();
  }
}

export interface RunWorkersOptions extends WorkerSlots {
  /** Return once nothing is ready or running instead of waiting for Ctrl-C. */
  drain: boolean;
  log: (line: string) => void;
}

/** A worker in this process until a signal, or until the store has nothing left to do. */
export async function runWorkers(engine: Engine, opts: RunWorkersOptions) {
  return withWorkers(engine, opts, async ({ worker, signal }) => {
    logStoreErrors(worker, opts.log);
    const counts = { done: 0, failed: 0, retried: 0 };
    worker.on('settled', (e: SettledEvent) => {
      if (e.state === 'done') counts.done += 1;
      else if (e.state === 'failed') counts.failed += 1;
      else if (e.state === 'retry') counts.retried += 1;
      opts.log(`${e.kind} ${e.id} ${e.state === 'retry' ? 'will retry' : e.status}`);
    });
    if (!opts.drain) await new Promise<never>(() => {});
    while (!signal.aborted && (await hasWork(engine, opts.kinds))) await sleep(100);
    return { workerId: worker.id, ...counts };
  });
}

async function hasWork(engine: Engine, kinds?: string[]): Promise<boolean> {
  for (const state of ['ready', 'running'] as const) {
    const jobs = await engine.store.list({ state, limit: 1000 });
    if (jobs.some((j) => !kinds || kinds.includes(j.kind))) return true;
  }
  return false;
}
