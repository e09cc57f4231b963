import { postgresUrl, type StoreTarget } from '../store/target.js';
import type { LimitStore } from './store.js';

/** Where rate-limit counters live: beside the jobs, chosen by the same --store / ASSAY_STORE. */
export async function openLimitStore(target: StoreTarget): Promise<LimitStore> {
  const url = postgresUrl(target, 'jobs, keys and rate limits in the SQLite file');
  // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
  if (url) return (await import('./postgres.js')).PgLimitStore.open(url);
  const { SqliteLimitStore } = await import('./sqlite.js');
  return SqliteLimitStore.open(target);
}
