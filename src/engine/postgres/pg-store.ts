import type pg from 'pg';
import { toJson } from '../sqlite/rows.js';
import type { JobStateRow, JobStore } from '../store.js';
import type { ClaimedJob, JobError, JobOutcome, JobRecord, ListFilter, NewJob } from '../types.js';
import * as admin from './admin.js';
import { completionBatcher, heartbeatBatcher } from './batched-writes.js';
import { claimJobs } from './claim.js';
import { createPool, openFailure } from './connect.js';
import { insertJobs } from './enqueue.js';
import * as finish from './finish.js';
import { JobListener } from './listener.js';
import { migratePg } from './migrate.js';
import { openSharedPool, releasePool } from './pool.js';

export interface PgStoreOptions {
  /**
   * Connections of a pool of its own (benchmarks). Without it the store uses the process's shared pool of
   * that URL (pool.ts), with the key, limit, reference-data and blob stores: one set of connections per
   * node. The LISTEN connection is one more either way.
   */
  poolSize?: number;
}

/**
 * The JobStore over one PostgreSQL database, shared by every node. Same promises as the SQLite store and the
 * same conformance suite (test/engine/store-conformance.ts); in addition it tells idle workers on every node
 * at once when a job becomes claimable (LISTEN/NOTIFY).
 */
export class PgJobStore implements JobStore {
  private readonly listener: JobListener;
  private readonly completions: ReturnType<typeof completionBatcher>;
  private readonly heartbeats: ReturnType<typeof heartbeatBatcher>;

  private constructor(
    readonly pool: pg.Pool,
    url: string,
    private readonly releaseConnections: () => Promise<void>,
  ) {
    this.listener = new JobListener(url);
    this.completions = completionBatcher(pool);
    this.heartbeats = heartbeatBatcher(pool);
  }

  /** Connect and bring the schema to this version's (see migratePg); refuses a newer schema. */
  static async open(url: string, opts: PgStoreOptions = {}): Promise<PgJobStore> {
    if (opts.poolSize === undefined)
      return new PgJobStore(await openSharedPool(url), url, () => releasePool(url));
    const own = createPool(url, opts.poolSize);
    try {
      await migratePg(own);
    } catch (cause) {
      await own.end().catch(() => {});
      throw openFailure(url, cause);
    }
    return new PgJobStore(own, url, () => own.end());
  }

  subscribe(onWake: () => void): () => void {
    return this.listener.subscribe(onWake);
  }

  enqueue(jobs: NewJob[]): Promise<JobRecord[]> {
    return insertJobs(this.pool, jobs, Date.now());
  }

  claim(o: {
    workerId: string;
    kinds: string[];
    leaseMs: number;
    limit: number;
    now?: number;
  }): Promise<ClaimedJob[]> {
    return claimJobs(this.pool, { ...o, now: o.now ?? Date.now() });
  }

  heartbeat(id: string, lockToken: string, lockedUntil: number): Promise<boolean> {
    return this.heartbeats.add({ id, token: lockToken, until: lockedUntil });
  }

  setStatus(id: string, lockToken: string, status: string): Promise<boolean> {
    return finish.setStatus(this.pool, id, lockToken, status, Date.now());
  }

  complete(id: string, lockToken: string, outcome: JobOutcome): Promise<boolean> {
    if (!outcome.followUps?.length) {
      const status = outcome.status ?? 'completed';
      return this.completions.add({
        id,
        token: lockToken,
        status,
        result: toJson(outcome.result),
        now: Date.now(),
      });
    }
    return finish.complete(this.pool, id, lockToken, outcome, Date.now());
  }

  fail(
    id: string,
    lockToken: string,
    error: JobError,
    retryAt: number | null,
    followUps?: NewJob[],
  ): Promise<boolean> {
    return finish.fail(this.pool, id, lockToken, error, retryAt, Date.now(), followUps);
  }

  release(id: string, lockToken: string): Promise<boolean> {
    return finish.release(this.pool, id, lockToken, Date.now());
  }

  failExhaustedLeases(
    now = Date.now(),
    followUpsFor: (job: JobRecord, error: JobError) => NewJob[] = () => [],
  ): Promise<number> {
    return finish.failExhausted(this.pool, now, followUpsFor);
  }

  get(id: string): Promise<JobRecord | null> {
    return admin.getJob(this.pool, id);
  }

  states(ids: string[]): Promise<JobStateRow[]> {
    return admin.jobStates(this.pool, ids);
  }

  list(filter?: ListFilter): Promise<JobRecord[]> {
    return admin.listJobs(this.pool, filter);
  }

  releaseHeld(id: string, payload?: unknown): Promise<JobRecord> {
    return admin.releaseHeld(this.pool, id, payload, Date.now());
  }

  failHeld(id: string, error: JobError, followUps: NewJob[] = []): Promise<boolean> {
    return admin.failHeld(this.pool, id, error, followUps, Date.now());
  }

  retry(id: string): Promise<JobRecord> {
    return admin.retryJob(this.pool, id, Date.now());
  }

  cancel(id: string): Promise<JobRecord> {
    return admin.cancelJob(this.pool, id, Date.now());
  }

  prune(finishedBefore: number, opts: { dryRun?: boolean } = {}): Promise<number> {
    if (opts.dryRun) return admin.countPrunableJobs(this.pool, finishedBefore);
    return admin.pruneJobs(this.pool, finishedBefore);
  }

  private closing: Promise<void> | undefined;

  close(): Promise<void> {
    this.closing ??= Promise.all([this.listener.close(), this.releaseConnections()]).then(() => undefined);
    return this.closing;
  }
}
