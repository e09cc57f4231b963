import { postgresUrl, type StoreTarget } from '../store/target.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { JobStore } from './store.js';

/** Where jobs live: the PostgreSQL database --store names, shared by several nodes, else the home's file. */
export async function openJobStore(target: StoreTarget): Promise<JobStore> {
  const url = postgresUrl(target, 'jobs in the SQLite file');
  if (!url) return new SqliteStore(target.home);
  // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
  const { PgJobStore } = await import('./postgres/pg-store.js');
  return PgJobStore.open(url);
}
