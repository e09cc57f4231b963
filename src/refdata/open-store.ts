import type Database from 'better-sqlite3';
import { isPostgresUrl } from '../engine/postgres/url.js';
import { openDatabase } from '../engine/sqlite/open-database.js';
import { UsageError } from '../errors.js';
import type { RefdataBackend } from './refdata-store.js';
import { SqliteRefdataBackend } from './sqlite-backend.js';
import { RefdataStore } from './store.js';

export interface RefdataTarget {
  home: string;
  /** Unset or 'sqlite': the home's file. A postgres:// URL: that database, shared by every node. */
  store?: string;
  /** An open connection to the home's file to use instead of opening one (the server's). */
  db?: Database.Database;
  /** See RefdataStore: how long a read may reuse the dataset version it last checked. */
  metaTtlMs?: number;
}

/** Reference data where --store / ASSAY_STORE says, like openJobStore. close() it when done. */
export async function openRefdataStore(target: RefdataTarget): Promise<RefdataStore> {
  return new RefdataStore(await openBackend(target), target.metaTtlMs);
}

async function openBackend({ home, store, db }: RefdataTarget): Promise<RefdataBackend> {
  if (!store || store === 'sqlite') {
    if (db) return new SqliteRefdataBackend(db);
    const own = openDatabase(home);
    return new SqliteRefdataBackend(own, () => own.close());
  }
  if (isPostgresUrl(store)) {
    // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
    const { PgRefdataBackend } = await import('./postgres-backend.js');
    return PgRefdataBackend.open(store);
  }
  throw new UsageError('--store (ASSAY_STORE) must be a postgres:// or postgresql:// connection string.', [
    'Leave it unset to keep reference data in the SQLite file under --home.',
  ]);
}
