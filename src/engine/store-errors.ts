import type { Worker } from './worker.js';

const QUIET_MS = 10_000;

/**
 * Tell the operator when the worker cannot reach its store (PostgreSQL down, a dropped connection): one line
 * at the first error, then at most one every ten seconds while it lasts, not one per poll. The worker keeps
 * retrying on its own; this only makes the outage visible.
 */
export function logStoreErrors(workers: Worker | Worker[], log: (line: string) => void): void {
  // One throttle for all of a process's workers: they share the store, so one outage is one line.
  let last = 0;
  for (const worker of [workers].flat()) {
    worker.on('storeError', (err: Error) => {
      const now = Date.now();
      if (now - last < QUIET_MS) return;
      last = now;
      log(`job store unreachable, retrying: ${err.message}`);
    });
  }
}
