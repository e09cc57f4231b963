import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Engine } from '../engine/engine.js';
import { SERVER_KEY_CACHE_MS } from '../keys/api-keys.js';
import { SqliteKeyStore } from '../keys/sqlite.js';
import type { KeyStore } from '../keys/store.js';
import { KeyVerifier } from '../keys/verifier.js';
import { RateLimiter } from '../limits/rate-limit.js';
import { connectionLimitsFromEnv } from '../limits/rules.js';
import { SqliteLimitStore } from '../limits/sqlite.js';
import type { LimitStore } from '../limits/store.js';
import type { Area, AreaDeps } from './area.js';
import { reviewAuthenticatesItself } from './areas/review.js';
import { registerAuth } from './auth.js';
import { capConnectionsPerIp } from './connection-cap.js';
import { answerError, normaliseError, notFound } from './error-bodies.js';
import { clientErrorHandler, frameworkErrors } from './framework-errors.js';
import { type ApiComponents, type RouteDoc, registerOpenApi } from './openapi.js';
import { requestLog } from './request-log.js';
import { StoreHealth, storeWriteGate } from './store-health.js';

const PROBES: RouteDoc[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    summary: 'The process is up.',
    tag: 'probes',
    public: true,
    responses: { 200: { description: 'ok' } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    summary: 'The job store answers.',
    tag: 'probes',
    public: true,
    responses: { 200: { description: 'ready' }, 503: { description: 'store unavailable' } },
  },
];

/** The areas' named schemas together; two areas may name the same schema, never two schemas alike. */
function areaComponents(areas: Area[]): ApiComponents {
  const all: ApiComponents = {};
  for (const [name, schema] of areas.flatMap((a) => Object.entries(a.components ?? {}))) {
    if (all[name] !== undefined && all[name] !== schema)
      throw new Error(`assay: two areas name different schemas ${name} in the API description`);
    all[name] = schema;
  }
  return all;
}

export interface AppOptions {
  engine: Engine;
  db: Database.Database;
  home: string;
  /** --store / ASSAY_STORE, as for the jobs: where the areas' shared state (reference data) lives. */
  store?: string;
  areas?: Area[];
  version?: string;
  allowPrivateTargets?: boolean;
  /**
   * The request log (request-log.ts: never headers, bodies or signatures), or false for none. Lines go to
   * `destination`, a file descriptor or path (default 1, stdout).
   */
  logger?: boolean | { level: string; destination?: number | string };
  /** Where background writers report whether the store takes writes; /readyz reads it. */
  health?: StoreHealth;
  /** API keys (default: the home's SQLite file through `db`); the caller closes it. */
  keys?: KeyStore;
  /** Rate-limit counters (default: the home's SQLite file through `db`); the caller closes it. */
  limits?: LimitStore;
}

/**
 * The HTTP face of the engine. Areas register as plugins; errors become the SPEC.md bodies at this one
 * boundary: lab routes (/extraction) answer `{error, message, timestamp, requestId}`, the rest `{detail}`.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const log = opts.logger
    ? requestLog(typeof opts.logger === 'object' ? opts.logger : { level: 'info' })
    : null;
  const connections = connectionLimitsFromEnv();
  const app = Fastify({
    genReqId: () => randomUUID(),
    ...(log ? log.fastify : { logger: false }),
    // Router and HTTP-parser errors get the SPEC.md bodies too, not Fastify's own shape.
    frameworkErrors,
    clientErrorHandler,
    requestTimeout: connections.requestTimeoutMs,
    // Node enforces the timeouts on a periodic sweep (30 s by default); a short limit needs a shorter sweep.
    http: {
      headersTimeout: Math.min(60_000, connections.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, connections.requestTimeoutMs / 4)),
    },
  });
  log?.attach(app);
  // A request's rare lines (a fault, a store problem) carry its request id; Fastify makes no logger per request.
  const logOf = (req: FastifyRequest) => (log ? log.of(req) : req.log);
  capConnectionsPerIp(app.server, connections.maxConnectionsPerIp);
  const keys = opts.keys ?? new SqliteKeyStore(opts.db, { home: opts.home });
  await keys.sealPlainSecrets();
  // The pre-signed upload URL carries its own HMAC signature instead of an API key; the review pages a
  // signed one-time URL and then a session cookie (src/server/areas/review.ts).
  registerAuth(app, new KeyVerifier(keys, SERVER_KEY_CACHE_MS), {
    signedByUrl: (req, path) =>
      (req.method === 'PUT' && /^\/extraction\/lab\/upload\/[^/]+$/.test(path)) ||
      reviewAuthenticatesItself(req, path),
  });

  app.setErrorHandler((err, req, reply) => {
    const e = normaliseError(err);
    if (e.statusCode >= 500) logOf(req).error({ err: { type: (err as Error).name } }, 'request failed');
    return answerError(req, reply, e);
  });
  app.setNotFoundHandler((req, reply) =>
    notFound(req, reply, `No route ${req.method} ${req.url.split('?')[0]}.`),
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  const health = opts.health ?? new StoreHealth(opts.db);
  app.get('/readyz', async (req, reply) => {
    let problem: string | null;
    try {
      problem = health.problem();
      // The job store may be another server (PostgreSQL --store): a node that cannot reach it is not ready.
      if (problem === null) await opts.engine.store.list({ limit: 1 });
    } catch (error) {
      problem = (error as { code?: string }).code ?? 'error';
    }
    if (problem === null) return { status: 'ready' };
    logOf(req).warn({ store: problem }, 'store not writable');
    reply.status(503).header('retry-after', '5');
    return { status: 'unavailable', reason: 'The job store cannot take writes right now.' };
  });

  const limiter = new RateLimiter(opts.limits ?? new SqliteLimitStore(opts.db), (error) => {
    health.report('rate-limits', error);
    if (error) app.log.error({ store: (error as { code?: string }).code }, 'rate counters not written');
  });
  // Counted hits are written behind; write the last ones before the database closes.
  app.addHook('onClose', async () => {
    try {
      await limiter.flush();
    } catch (error) {
      app.log.error({ store: (error as { code?: string }).code }, 'last rate counters not written');
    }
    log?.flush();
  });
  const deps: AreaDeps = {
    engine: opts.engine,
    db: opts.db,
    home: opts.home,
    store: opts.store,
    limiter,
    allowPrivateTargets: opts.allowPrivateTargets ?? false,
    storeWriteGate: storeWriteGate(health),
  };
  const areas = opts.areas ?? [];
  for (const area of areas) await app.register(async (scope) => area.register(scope, deps));
  await registerOpenApi(
    app,
    [...PROBES, ...areas.flatMap((a) => a.routes)],
    opts.version ?? '0.0.0',
    areaComponents(areas),
  );
  return app;
}
