import { UsageError } from '../errors.js';
import { isPostgresUrl } from './postgres/url.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { JobStore } from './store.js';

/** Where jobs live: `store` names a PostgreSQL database shared by several nodes, else the home's SQLite file. */
export interface StoreTarget {
  home: string;
  store?: string;
}

export async function openJobStore({ home, store }: StoreTarget): Promise<JobStore> {
  if (!store || store === 'sqlite') return new SqliteStore(home);
  if (isPostgresUrl(store)) {
    // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
    const { PgJobStore } = await import('./postgres/pg-store.js');
    return PgJobStore.open(store);
  }
  throw new UsageError('--store (ASSAY_STORE) must be a postgres:// or postgresql:// connection string.', [
    'Leave it unset to keep jobs in the SQLite file under --home.',
  ]);
}
