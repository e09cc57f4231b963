import { availableParallelism } from 'node:os';
import { openBlobStore } from '../blobs/open.js';
import { Engine } from '../engine/engine.js';
import { openJobStore } from '../engine/open-store.js';
import { createRegistry } from '../kinds.js';
import type { StoreTarget } from '../store/target.js';

/**
 * The engine over the job store --store names (default: the home's SQLite file), with every job kind and the
 * blob store beside it (the home's files, or the same PostgreSQL database), so a job enqueued on one node
 * finds its files on whichever node runs it.
 */
export async function openEngine(target: StoreTarget): Promise<Engine> {
  const store = await openJobStore(target);
  const blobs = await openBlobStore(target).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  return new Engine(store, createRegistry({ ...target, blobs }), blobs);
}

/** Worker slots when no flag or ASSAY_CONCURRENCY says: one per core, as the CPU-heavy work is per core. */
export function defaultConcurrency(): number {
  const env = Number(process.env.ASSAY_CONCURRENCY);
  return Number.isInteger(env) && env > 0 ? env : availableParallelism();
}

export function leaseMsFromEnv(): number | undefined {
  const env = Number(process.env.ASSAY_LEASE_MS);
  return Number.isInteger(env) && env > 0 ? env : undefined;
}
