import { openDatabase } from '../engine/sqlite/open-database.js';
import { postgresUrl, type StoreTarget } from '../store/target.js';
import type { RefdataBackend } from './refdata-store.js';
import { SqliteRefdataBackend } from './sqlite.js';
import { RefdataStore } from './store.js';

/**
 * Reference data where --store / ASSAY_STORE says, like openJobStore. `metaTtlMs`: see RefdataStore, how long
 * a read may reuse the dataset version it last checked. close() it when done.
 */
export async function openRefdataStore(target: StoreTarget & { metaTtlMs?: number }): Promise<RefdataStore> {
  return new RefdataStore(await openBackend(target), target.metaTtlMs);
}

async function openBackend(target: StoreTarget): Promise<RefdataBackend> {
  const url = postgresUrl(target, 'reference data in the SQLite file');
  if (url) {
    // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
    const { PgRefdataBackend } = await import('./postgres.js');
    return PgRefdataBackend.open(url);
  }
  if (target.db) return new SqliteRefdataBackend(target.db);
  const own = openDatabase(target.home);
  return new SqliteRefdataBackend(own, () => own.close());
}
