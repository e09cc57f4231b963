import { PgLimitStore } from '../../src/limits/postgres.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { testLimitStore } from './limit-store-conformance.js';

const server = postgresForSuite();

testLimitStore('postgres', async () => {
  const url = await server.createDatabase();
  let nodes = 0;
  // A URL of its own per node gives each its own pool: two processes' connections, as on two machines.
  return { node: () => PgLimitStore.open(`${url}&application_name=node-${++nodes}`), cleanup: () => {} };
});
