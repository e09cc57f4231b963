import { availableParallelism } from 'node:os';
import { Engine } from '../engine/engine.js';
import { openJobStore, type StoreTarget } from '../engine/open-store.js';
import { createRegistry } from '../kinds.js';

/** The engine over the job store --store names (default: the home's SQLite file), with every job kind. */
export async function openEngine(target: StoreTarget): Promise<Engine> {
  return new Engine(await openJobStore(target), createRegistry(target));
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
