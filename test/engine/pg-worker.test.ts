import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { PgJobStore } from '../../src/engine/postgres/pg-store.js';
import { JobRegistry } from '../../src/engine/registry.js';
import { type PgServer, startPostgres } from '../support/postgres-server.js';
import { crashSuite } from './crash-suite.js';
import { workerSuite } from './worker-suite.js';

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

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

crashSuite('postgres', async () => ({ target: await server.createDatabase(), cleanup: () => {} }));
