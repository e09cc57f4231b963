import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { SqliteLimitStore } from '../../src/limits/sqlite.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { testLimitStore } from './limit-store-conformance.js';

// "Nodes" here are processes on one SQLite file, each with its own connection.
testLimitStore('sqlite', async () => {
  const file = tmpHome();
  return { node: async () => new SqliteLimitStore(openDatabase(file.dir), true), cleanup: file.cleanup };
});
