import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, PgBlobStore } from '../../src/blobs/postgres.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { testBlobStore } from './blob-store-conformance.js';

const server = postgresForSuite();

testBlobStore('postgres', async () => {
  const url = await server.createDatabase();
  return { open: () => PgBlobStore.open(url), cleanup: () => {} };
});

describe('the PostgreSQL blob store', () => {
  it('keeps a blob as rows of at most 1 MiB, and a delete takes every chunk', async () => {
    const url = await server.createDatabase();
    const store = await PgBlobStore.open(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await store.put('uploads/big.pdf', Buffer.alloc(5 * CHUNK_BYTES + 1, 7));
      const { rows } = await client.query<{ seq: number; n: number }>(
        'SELECT seq, length(data) AS n FROM blob_chunks WHERE key = $1 ORDER BY seq',
        ['uploads/big.pdf'],
      );
      expect(rows.map((r) => r.n)).toEqual([...Array(5).fill(CHUNK_BYTES), 1]);
      await store.delete('uploads/big.pdf');
      const left = await client.query('SELECT count(*)::int AS n FROM blob_chunks');
      expect(left.rows[0].n).toBe(0);
    } finally {
      await client.end();
      await store.close();
    }
  });

  it('the migration is recorded as step 4 beside the job store’s', async () => {
    const url = await server.createDatabase();
    const store = await PgBlobStore.open(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT name FROM assay_migrations ORDER BY version');
      expect(rows.map((r) => r.name)).toContain('0004_blobs.sql');
    } finally {
      await client.end();
      await store.close();
    }
  });
});
