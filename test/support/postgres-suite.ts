import { afterAll, beforeAll } from 'vitest';
import { type PgServer, type StartOptions, startPostgres } from './postgres-server.js';

/**
 * A throwaway server for the calling test file: started before its tests, stopped after them. Each test
 * takes a database of its own with createDatabase().
 */
export function postgresForSuite(opts: StartOptions = {}): Pick<PgServer, 'createDatabase' | 'dir'> {
  let server: PgServer | undefined;
  beforeAll(async () => {
    server = await startPostgres(opts);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  const started = (): PgServer => {
    if (!server) throw new Error('postgresForSuite: the server starts in beforeAll; use it inside tests.');
    return server;
  };
  return {
    createDatabase: () => started().createDatabase(),
    get dir() {
      return started().dir;
    },
  };
}
