import type pg from 'pg';
import { inTransaction } from '../engine/postgres/connect.js';
import { openSharedPool, releasePool } from '../engine/postgres/pool.js';
import { type BlobInfo, type BlobStore, checkBlobKey } from './store.js';

/** Rows of at most this many bytes (migration 0004_blobs.sql says why). */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Blobs in the PostgreSQL database every node shares, so a job uploaded through one node's `serve` runs on
 * any node's `jobs work`, and a report rendered on one is delivered from another.
 */
export class PgBlobStore implements BlobStore {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  /** On the process's shared pool for `url`; brings the schema up (safe beside the job store doing so). */
  static async open(url: string): Promise<PgBlobStore> {
    const pool = await openSharedPool(url);
    return new PgBlobStore(pool, url);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    checkBlobKey(key);
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await inTransaction(this.pool, async (client) => {
      // The upsert locks the key's row until commit: a second writer waits here, then replaces it whole.
      await client.query(
        `INSERT INTO blobs (key, size, written_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET size = excluded.size, written_at = excluded.written_at`,
        [key, data.length, Date.now()],
      );
      await client.query('DELETE FROM blob_chunks WHERE key = $1', [key]);
      for (let seq = 0; seq * CHUNK_BYTES < data.length; seq++) {
        const chunk = data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES);
        await client.query('INSERT INTO blob_chunks (key, seq, data) VALUES ($1, $2, $3)', [key, seq, chunk]);
      }
    });
  }

  async putNew(key: string, bytes: Uint8Array): Promise<boolean> {
    checkBlobKey(key);
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return inTransaction(this.pool, async (client) => {
      // A racing insert of the same key waits on this row until commit, then finds it and does nothing.
      const { rowCount } = await client.query(
        `INSERT INTO blobs (key, size, written_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`,
        [key, data.length, Date.now()],
      );
      if (rowCount !== 1) return false;
      for (let seq = 0; seq * CHUNK_BYTES < data.length; seq++) {
        const chunk = data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES);
        await client.query('INSERT INTO blob_chunks (key, seq, data) VALUES ($1, $2, $3)', [key, seq, chunk]);
      }
      return true;
    });
  }

  async get(key: string): Promise<Buffer | null> {
    checkBlobKey(key);
    // One statement, so one snapshot: the row and every chunk of the same write.
    const { rows } = await this.pool.query<{ size: number; data: Buffer | null }>(
      `SELECT b.size, c.data FROM blobs b LEFT JOIN blob_chunks c ON c.key = b.key
       WHERE b.key = $1 ORDER BY c.seq`,
      [key],
    );
    if (rows.length === 0) return null;
    const bytes = Buffer.concat(rows.flatMap((r) => (r.data ? [r.data] : [])));
    if (bytes.length !== rows[0]?.size) throw new Error(`assay: blob ${key} is incomplete in the database`);
    return bytes;
  }

  async delete(key: string): Promise<void> {
    await this.pool.query('DELETE FROM blobs WHERE key = $1', [checkBlobKey(key)]);
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    const { rows } = await this.pool.query<{ key: string; size: number; written_at: number }>(
      'SELECT key, size, written_at FROM blobs WHERE starts_with(key, $1) ORDER BY key',
      [prefix],
    );
    return rows.map((r) => ({ key: r.key, size: r.size, writtenAt: r.written_at }));
  }

  private closing: Promise<void> | undefined;

  close(): Promise<void> {
    this.closing ??= releasePool(this.url);
    return this.closing;
  }
}
