import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../engine/engine.js';
import { onShutdownSignal } from '../engine/shutdown.js';
import { logStoreErrors } from '../engine/store-errors.js';
import type { SettledEvent } from '../engine/worker.js';

export interface RunWorkersOptions {
  concurrency: number;
  leaseMs?: number;
  kinds?: string[];
  /** Return once nothing is ready or running instead of waiting for Ctrl-C. */
  drain: boolean;
  log: (line: string) => void;
}

/** A worker in this process until a signal, or until the store has nothing left to do. */
export async function runWorkers(engine: Engine, opts: RunWorkersOptions) {
  const worker = engine.startWorker({
    concurrency: opts.concurrency,
    leaseMs: opts.leaseMs,
    kinds: opts.kinds,
  });
  logStoreErrors(worker, opts.log);
  const counts = { done: 0, failed: 0, retried: 0 };
  worker.on('settled', (e: SettledEvent) => {
    if (e.state === 'done') counts.done += 1;
    else if (e.state === 'failed') counts.failed += 1;
    else if (e.state === 'retry') counts.retried += 1;
    opts.log(`${e.kind} ${e.id} ${e.state === 'retry' ? 'will retry' : e.status}`);
  });
  let stopped = false;
  const stopSignals = onShutdownSignal(async () => {
    stopped = true;
    await engine.close();
  });
  try {
    if (!opts.drain) await new Promise<never>(() => {});
    while (!stopped && (await hasWork(engine, opts.kinds))) await sleep(100);
  } finally {
    stopSignals();
    if (!stopped) await engine.close();
  }
  return { workerId: worker.id, ...counts };
}

async function hasWork(engine: Engine, kinds?: string[]): Promise<boolean> {
  for (const state of ['ready', 'running'] as const) {
    const jobs = await engine.store.list({ state, limit: 1000 });
    if (jobs.some((j) => !kinds || kinds.includes(j.kind))) return true;
  }
  return false;
}
