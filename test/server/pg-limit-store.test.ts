import { afterAll, beforeAll } from 'vitest';
import { PgLimitStore } from '../../src/server/postgres-limit-store.js';
import { type PgServer, startPostgres } from '../support/postgres-server.js';
import { testLimitStore } from './limit-store-conformance.js';

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

testLimitStore('postgres', async () => {
  const url = await server.createDatabase();
  let nodes = 0;
  // A URL of its own per node gives each its own pool: two processes' connections, as on two machines.
  return { node: () => PgLimitStore.open(`${url}&application_name=node-${++nodes}`), cleanup: () => {} };
});
