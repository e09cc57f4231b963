import type Database from 'better-sqlite3';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../engine/engine.js';
import type { RateLimiter } from '../limits/rate-limit.js';
import type { ApiComponents, RouteDoc } from './openapi.js';

/** What an area's routes get: the engine, the store's database, limits and the kept-files dir. */
export interface AreaDeps {
  engine: Engine;
  db: Database.Database;
  home: string;
  /** --store / ASSAY_STORE: a postgres:// URL shared by every node, or unset for the home's file. */
  store?: string;
  limiter: RateLimiter;
  /** Let callers name http and private/loopback callback, webhook and upload targets (tests, closed networks). */
  allowPrivateTargets: boolean;
  /**
   * The onRequest hook of every route that writes work into the store: 503 with Retry-After while the
   * store's file is deleted, replaced or fails its integrity check, as /readyz says (store-health.ts).
   */
  storeWriteGate: (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;
}

/** One area of SPEC.md (lab, reports, reference data) as a Fastify plugin plus its route docs. */
export interface Area {
  name: string;
  routes: RouteDoc[];
  /** The area's main shapes, named under components/schemas of /openapi.json and referred to by `$ref`. */
  components?: ApiComponents;
  register(app: FastifyInstance, deps: AreaDeps): Promise<void>;
}
