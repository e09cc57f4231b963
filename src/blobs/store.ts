/**
 * Bytes a job needs wherever it runs: uploaded lab PDFs, report PDFs kept for delivery, sealed callback
 * credentials. Keys are relative paths (`uploads/<jobId>.pdf`). Two stores implement it, the home's files
 * (file-blob-store.ts, one box) and PostgreSQL (postgres-blob-store.ts, every node of one database), and
 * both pass test/blobs/blob-store-conformance.ts.
 */
export interface BlobStore {
  /** Store `bytes` under `key`, replacing what was there; a reader sees the old bytes or the new, never part. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Store `bytes` under `key` only if nothing is stored there, as one step: of several writers racing for
   * one key exactly one gets true, and a writer that gets false has changed nothing (the bytes are written
   * under a private name first and moved into place only if the key is free).
   */
  putNew(key: string, bytes: Uint8Array): Promise<boolean>;
  /** The bytes stored under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Remove `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The blobs whose key starts with `prefix` (`uploads/`), for pruning. */
  list(prefix: string): Promise<BlobInfo[]>;
  close(): Promise<void>;
}

export interface BlobInfo {
  key: string;
  size: number;
  /** When the blob was last written, ms since the epoch. */
  writtenAt: number;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Keys name files in the home store, so one that could climb out of the home (`..`, `/x`) is refused. */
export function checkBlobKey(key: string): string {
  if (!KEY.test(key) || key.split('/').includes('..'))
    throw new Error(`assay: invalid blob key ${JSON.stringify(key)}`);
  return key;
}

/** The keys of what the jobs keep; the job id in each lets pruning find the blobs of pruned jobs. */
export const blobKeys = {
  upload: (jobId: string) => `uploads/${jobId}.pdf`,
  reportPdf: (jobId: string) => `reports/${jobId}.pdf`,
  credential: (ref: string) => `reports/credentials/${ref}.secret`,
};
