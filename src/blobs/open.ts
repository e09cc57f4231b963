import type { StoreTarget } from '../engine/open-store.js';
import { isPostgresUrl } from '../engine/postgres/url.js';
import { UsageError } from '../errors.js';
import { FileBlobStore } from './file.js';
import type { BlobStore } from './store.js';

/** Where kept bytes live: beside the jobs, chosen by the same --store / ASSAY_STORE. */
export async function openBlobStore({ home, store }: StoreTarget): Promise<BlobStore> {
  if (!store || store === 'sqlite') return new FileBlobStore(home);
  if (isPostgresUrl(store)) {
    // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
    const { PgBlobStore } = await import('./postgres.js');
    return PgBlobStore.open(store);
  }
  throw new UsageError('--store (ASSAY_STORE) must be a postgres:// or postgresql:// connection string.', [
    'Leave it unset to keep jobs and files under --home.',
  ]);
}
