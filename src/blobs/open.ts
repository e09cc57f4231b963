import { postgresUrl, type StoreTarget } from '../store/target.js';
import { FileBlobStore } from './file.js';
import type { BlobStore } from './store.js';

/** Where kept bytes live: beside the jobs, chosen by the same --store / ASSAY_STORE. */
export async function openBlobStore(target: StoreTarget): Promise<BlobStore> {
  const url = postgresUrl(target, 'jobs and files');
  if (!url) return new FileBlobStore(target.home);
  // pg loads only for a PostgreSQL store: the SQLite default does not pay for it.
  const { PgBlobStore } = await import('./postgres.js');
  return PgBlobStore.open(url);
}
