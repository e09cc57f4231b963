import { openEngine } from '../../../src/cli/engine.js';
import { openDatabase } from '../../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../../src/keys/sqlite.js';
import { type RunningServer, startServer } from '../../../src/server/serve.js';

/** A new API key in the home's store, as `assay keys create` makes it. */
export function createKey(home: string, name = 'test') {
  const db = openDatabase(home);
  try {
    return new ApiKeys(db, { home }).create(name);
  } finally {
    db.close();
  }
}

/** The real server and its workers over `home`, on a free port of 127.0.0.1, logging nothing. */
export async function startTestServer(
  home: string,
  opts: { workers?: number; allowPrivateTargets?: boolean } = {},
): Promise<RunningServer> {
  return startServer(await openEngine({ home }), {
    home,
    host: '127.0.0.1',
    port: 0,
    workers: opts.workers ?? 1,
    logLevel: 'silent',
    allowPrivateTargets: opts.allowPrivateTargets,
  });
}
