import { afterAll, beforeAll } from 'vitest';
import { createPool } from '../../src/engine/postgres/connect.js';
import { openKeyStore } from '../../src/server/key-store.js';
import { type PgServer, startPostgres } from '../support/postgres-server.js';
import { testKeyStore } from './key-store-conformance.js';

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

// Each "node" opens the store as `assay serve --store` does, with its own home's keys/ folder.
testKeyStore('postgres', async () => {
  const url = await server.createDatabase();
  let nodes = 0;
  return {
    // A URL of its own per node gives each its own pool: two processes' connections, as on two machines.
    node: (home) => openKeyStore({ home, store: `${url}&application_name=node-${++nodes}` }),
    async storedSecrets() {
      const pool = createPool(url, 1);
      try {
        const { rows } = await pool.query<{ webhook_secret: string }>('SELECT webhook_secret FROM api_keys');
        return rows.map((r) => r.webhook_secret);
      } finally {
        await pool.end();
      }
    },
    cleanup: () => {},
  };
});
