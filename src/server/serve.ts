import type { FastifyInstance } from 'fastify';
import { onDeliveryFailure } from '../delivery/http.js';
import { allowPrivateTargets } from '../delivery/target-guard.js';
import type { Engine } from '../engine/engine.js';
import { STATEMENT_BUSY_MS } from '../engine/sqlite/busy.js';
import { openDatabase } from '../engine/sqlite/open-database.js';
import { logStoreErrors } from '../engine/store-errors.js';
import { openKeyStore } from '../keys/open.js';
import { LAB_WEBHOOK_KIND } from '../lab/http/webhook.js';
import { openLimitStore } from '../limits/open.js';
import { DELIVERY_KIND } from '../report/delivery/payload.js';
import type { StoreTarget } from '../store/target.js';
import { buildApp } from './app.js';
import { AREAS } from './areas.js';
import { isStoreUnreachable } from './error-bodies.js';
import { isStoreUnavailable, StoreHealth } from './store-health.js';

/** Job kinds that only send HTTP requests: cheap in CPU, and run beside the heavy work, never behind it. */
const DELIVERY_KINDS: readonly string[] = [LAB_WEBHOOK_KIND, DELIVERY_KIND];
/** Slots for deliveries; each mostly waits on a receiver (up to 15 s). */
const DELIVERY_WORKERS = 4;

export interface ServeOptions {
  home: string;
  /** --store / ASSAY_STORE: a postgres:// URL shared by every node, or unset for the home's file. */
  store?: string;
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
  // The server's own connection (keys, rate counters, readiness) waits for locks between event-loop turns.
  const db = openDatabase(opts.home, { busyTimeoutMs: STATEMENT_BUSY_MS });
  const health = new StoreHealth(db);
  const target: StoreTarget = { home: opts.home, store: opts.store, db };
  const keys = await openKeyStore(target);
  const limits = await openLimitStore(target).catch(async (error: unknown) => {
    await keys.close();
    throw error;
  });
  const app = await buildApp({
    keys,
    limits,
    engine,
    db,
    home: opts.home,
    store: opts.store,
    areas: AREAS,
    version: opts.version,
    allowPrivateTargets: opts.allowPrivateTargets,
    health,
    logger: opts.logLevel === 'silent' ? false : { level: opts.logLevel, destination: opts.logDestination },
  });
  // Deliveries this process makes follow this server's policy, whatever it was when the job was accepted.
  allowPrivateTargets(opts.allowPrivateTargets ?? false);
  const unsubscribe = onDeliveryFailure((failure) => app.log.warn({ delivery: failure }, 'delivery failed'));
  // Deliveries (webhooks, callbacks) get workers of their own: a pool full of long extractions must not
  // hold back the notice that another job has ended.
  const deliveries = engine.registry.names().filter((k) => DELIVERY_KINDS.includes(k));
  const others = engine.registry.names().filter((k) => !DELIVERY_KINDS.includes(k));
  const workers = [
    engine.startWorker({ concurrency: opts.workers, leaseMs: opts.leaseMs, kinds: others }),
    engine.startWorker({ concurrency: DELIVERY_WORKERS, leaseMs: opts.leaseMs, kinds: deliveries }),
  ];
  for (const [i, worker] of workers.entries()) {
    worker.on('storeError', (error: unknown) => health.report(`workers-${i}`, error));
    worker.on('storeOk', () => health.report(`workers-${i}`, null));
  }
  logStoreErrors(workers, (line) => app.log.warn(line));
  const url = await app.listen({ host: opts.host, port: opts.port });
  return {
    app,
    url,
    async close() {
      await app.close();
      // A store that cannot be reached while draining loses nothing: leased jobs return to the queue when
      // their lease ends. Only other failures make the exit say the drain failed.
      const unlessUnreachable = (error: unknown) => {
        if (!isStoreUnreachable(error) && !isStoreUnavailable(error)) throw error;
        app.log.warn(
          'job store unreachable while draining; its jobs return to the queue when their leases end',
        );
      };
      await engine.close().catch(unlessUnreachable);
      unsubscribe();
      await Promise.all([keys.close().catch(unlessUnreachable), limits.close().catch(unlessUnreachable)]);
      db.close();
    },
  };
}
