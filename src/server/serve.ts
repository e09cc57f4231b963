import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.js';
import { openDatabase } from '../engine/sqlite/open-database.js';
import { logStoreErrors } from '../engine/store-errors.js';
import { buildApp } from './app.js';
import { AREAS } from './areas.js';

export interface ServeOptions {
  home: string;
  host: string;
  port: number;
  workers: number;
  leaseMs?: number;
  logLevel: string;
  /** Where request log lines go: a file descriptor or path (default 1, stdout). */
  logDestination?: number | string;
  version?: string;
  allowPrivateTargets?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Drain: stop accepting requests, let in-flight ones finish, stop workers (handing jobs back), close. */
  close(): Promise<void>;
}

/** `assay serve`: Fastify and workers in one process over one ASSAY_HOME. */
export async function startServer(engine: Engine, opts: ServeOptions): Promise<RunningServer> {
  const db = openDatabase(opts.home);
  const app = await buildApp({
    engine,
    db,
    home: opts.home,
    areas: AREAS,
    version: opts.version,
    allowPrivateTargets: opts.allowPrivateTargets,
    logger: opts.logLevel === 'silent' ? false : { level: opts.logLevel, destination: opts.logDestination },
  });
  const worker = engine.startWorker({ concurrency: opts.workers, leaseMs: opts.leaseMs });
  logStoreErrors(worker, (line) => app.log.warn(line));
  const url = await app.listen({ host: opts.host, port: opts.port });
  return {
    app,
    url,
    async close() {
      await app.close();
      await engine.close();
      db.close();
    },
  };
}
