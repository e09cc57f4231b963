import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { PgJobStore } from '../../src/engine/postgres/pg-store.js';
import { JobRegistry } from '../../src/engine/registry.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { crashSuite } from './crash-suite.js';
import { workerSuite } from './worker-suite.js';

const server = postgresForSuite();

workerSuite('postgres', async (registry) => ({
  engine: new Engine(await PgJobStore.open(await server.createDatabase()), registry),
  cleanup: () => {},
}));

describe('Worker (postgres): LISTEN/NOTIFY', () => {
  it('an idle worker takes a job another node enqueued at once, not at its next poll', async () => {
    const url = await server.createDatabase();
    const registry = new JobRegistry().register({ kind: 'k', handler: async () => ({ result: 'ran' }) });
    const workerNode = new Engine(await PgJobStore.open(url), registry);
    const apiNode = new Engine(await PgJobStore.open(url), registry);
    try {
      // A poll this long would time the test out: only the notification can bring the worker the job.
      const worker = workerNode.startWorker({ pollMs: 120_000 });
      const settled = new Promise((resolve) => worker.once('settled', resolve));
      await sleep(300); // let the first claim come back empty and the worker go idle
      const job = await apiNode.enqueue('k', {});
      const started = Date.now();
      await settled;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await apiNode.mustGet(job.id)).toMatchObject({ state: 'done', result: 'ran' });
    } finally {
      await Promise.all([workerNode.close(1_000), apiNode.close()]);
    }
  });
});

describe('Worker (postgres): the database drops every connection', () => {
  it('workers keep going: claims and the LISTEN connection come back, no job is lost', async () => {
    const url = await server.createDatabase();
    const registry = new JobRegistry().register({
      kind: 'k',
      handler: async () => {
        await sleep(5);
        return { result: 'ran' };
      },
    });
    const engine = new Engine(await PgJobStore.open(url), registry);
    const admin = await PgJobStore.open(url);
    try {
      engine.startWorker({ pollMs: 20, concurrency: 4, leaseMs: 1_000 });
      const before = await engine.enqueueMany(Array.from({ length: 80 }, () => registry.newJob('k', {})));
      // Cut every connection of the worker's store a few times while jobs are claimed, run and completed.
      for (let cut = 0; cut < 5; cut++) {
        await sleep(15);
        await admin.pool.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
      }
      const after = await admin.enqueue(Array.from({ length: 5 }, () => ({ kind: 'k' })));
      const finals = await engine.waitFor(
        [...before, ...after].map((j) => j.id),
        { pollMs: 50 },
      );
      expect(finals.every((j) => j.state === 'done' && j.result === 'ran')).toBe(true);
    } finally {
      await Promise.all([engine.close(1_000), admin.close()]);
    }
  });
});

crashSuite('postgres', async () => ({ target: await server.createDatabase(), cleanup: () => {} }));
