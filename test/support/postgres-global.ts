import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one PostgreSQL server (system tier): its admin URL and socket dir. */
    assayPg: { url: string; dir: string };
  }
}

/**
 * One PostgreSQL server for the whole system tier, started once (initdb costs a few seconds) and shared by
 * every file through postgresForSuite(); each test still takes a database of its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Room for the files that run at once, several `serve` and `jobs work` processes each with its own pool.
  const server = await startPostgres({ maxConnections: 300 });
  project.provide('assayPg', { url: server.url, dir: server.dir });
  return () => server.stop();
}
