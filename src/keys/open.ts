import { postgresUrl, type StoreTarget } from '../store/target.js';
import type { KeyStore } from './store.js';

/** Where API keys live: beside the jobs, chosen by the same --store / ASSAY_STORE. */
export async function openKeyStore(target: StoreTarget): Promise<KeyStore> {
  const url = postgresUrl(target, 'jobs, keys and rate limits in the SQLite file');
  // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
  if (url) return (await import('./postgres.js')).PgKeyStore.open(url, { home: target.home });
  const { SqliteKeyStore } = await import('./sqlite.js');
  return SqliteKeyStore.open(target);
}
