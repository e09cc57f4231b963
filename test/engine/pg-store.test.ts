import { describe, expect, it } from 'vitest';
import { PgJobStore } from '../../src/engine/postgres/pg-store.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { testStore } from './store-conformance.js';

const server = postgresForSuite();

testStore('postgres', async () => ({
  store: await PgJobStore.open(await server.createDatabase()),
  cleanup: () => {},
}));

describe('the PostgreSQL job store', () => {
  it('wakes a subscriber on another node when a job becomes claimable there', async () => {
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([PgJobStore.open(url), PgJobStore.open(url)]);
    try {
      let wakes = 0;
      let woken: () => void = () => {};
      const unsubscribe = a.subscribe(() => {
        wakes += 1;
        woken();
      });
      // The subscription wakes once when its LISTEN is in place (anything sent before it was missed).
      await new Promise<void>((resolve) => {
        woken = resolve;
      });
      const before = wakes;
      const wokenByEnqueue = new Promise<void>((resolve) => {
        woken = resolve;
      });
      await b.enqueue([{ kind: 'k' }]);
      await wokenByEnqueue;
      expect(wakes).toBe(before + 1);
      unsubscribe();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('nodes starting together migrate once; the numbered steps are recorded', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PgJobStore.open(url)));
    try {
      const { rows } = await (stores[0] as PgJobStore).pool.query(
        'SELECT version, name FROM assay_migrations ORDER BY version',
      );
      expect(rows).toEqual([
        { version: 1, name: '0001_jobs.sql' },
        { version: 2, name: '0002_job_owner.sql' },
        { version: 3, name: '0003_keys_limits.sql' },
        { version: 4, name: '0004_blobs.sql' },
        { version: 5, name: '0005_refdata.sql' },
      ]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('a claim passes over jobs another claim holds locked, fair turn or not, and still fills its limit', async () => {
    const store = await PgJobStore.open(await server.createDatabase());
    const other = await store.pool.connect();
    try {
      const now = Date.now();
      const jobs = await store.enqueue(
        Array.from({ length: 30 }, (_, n) => ({
          kind: 'k',
          owner: n % 2 ? 'a' : 'b',
          runAt: now - 1_000 + n,
        })),
      );
      // Another claimer's transaction holds the twenty oldest: every job the fair order would pick first.
      await other.query('BEGIN');
      const held = jobs.slice(0, 20).map((j) => j.id);
      await other.query('SELECT id FROM jobs WHERE id = ANY($1) FOR UPDATE', [held]);
      const claimed = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 60_000, limit: 5, now });
      expect(claimed.map((j) => j.id)).toEqual(jobs.slice(20, 25).map((j) => j.id));
    } finally {
      await other.query('ROLLBACK');
      other.release();
      await store.close();
    }
  });

  it('refuses a schema written by a newer assay instead of guessing', async () => {
    const url = await server.createDatabase();
    const store = await PgJobStore.open(url);
    await store.pool.query("INSERT INTO assay_migrations (version, name) VALUES (9999, 'future.sql')");
    await store.close();
    await expect(PgJobStore.open(url)).rejects.toThrow(/newer assay/);
  });

  it('an unreachable server is a store error naming host and database, never the password', async () => {
    const url = `postgresql://assay:s3cret-pw@localhost/nowhere?host=${encodeURIComponent(`${server.dir}/none`)}`;
    const err = await PgJobStore.open(url).catch((e: Error & { code?: string }) => e);
    expect(err).toMatchObject({ code: 'store_unavailable' });
    expect((err as Error).message).toContain('/nowhere');
    expect((err as Error).message).not.toContain('s3cret-pw');
  });
});
