import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { SqliteKeyStore } from '../../src/keys/sqlite.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { testKeyStore } from './key-store-conformance.js';

// "Nodes" here are processes on one SQLite file; `home` only names whose keys/ folder seals the secrets.
testKeyStore('sqlite', async () => {
  const file = tmpHome();
  return {
    node: async (home) => new SqliteKeyStore(openDatabase(file.dir), { home, owned: true }),
    async storedSecrets() {
      const db = openDatabase(file.dir);
      try {
        return db.prepare('SELECT webhook_secret FROM api_keys').pluck().all() as string[];
      } finally {
        db.close();
      }
    },
    cleanup: file.cleanup,
  };
});
