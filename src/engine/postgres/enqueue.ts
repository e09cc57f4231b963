import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type JobRow, toJson, toRecord } from '../sqlite/rows.js';
import type { JobRecord, NewJob } from '../types.js';

const DEFAULT_MAX_ATTEMPTS = 3;

/** A pool (a statement is its own transaction) or a client inside BEGIN ... COMMIT. */
export type Queryable = pg.Pool | pg.PoolClient;

// One statement for the whole batch: each column travels as one array parameter and unnest() zips them
// back into rows, so 500 jobs cost one round trip, not 500.
const INSERT = `
  INSERT INTO jobs (id, kind, state, status, waiting_status, running_status, payload, max_attempts, run_at,
                    parent_id, idempotency_key, owner, created_at, updated_at)
  SELECT t.*, $13::bigint, $13::bigint
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::integer[], $9::bigint[], $10::text[], $11::text[], $12::text[])
         AS t(id, kind, state, status, waiting_status, running_status, payload, max_attempts, run_at,
              parent_id, idempotency_key, owner)
  ON CONFLICT (kind, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
  RETURNING *`;

const BY_KEYS = `
  SELECT j.* FROM jobs j
    JOIN unnest($1::text[], $2::text[]) AS k(kind, idempotency_key)
      ON j.kind = k.kind AND j.idempotency_key = k.idempotency_key`;

const keyOf = (kind: string, key: string) => `${kind}\u0000${key}`;

/**
 * Insert jobs; a job whose (kind, idempotency key) already exists is not inserted again and the existing row
 * is returned instead, so a retried submission never makes a second job. Records come back in input order.
 */
export async function insertJobs(db: Queryable, jobs: NewJob[], now: number): Promise<JobRecord[]> {
  if (jobs.length === 0) return [];
  const rows = jobs.map((job) => {
    const waiting = job.waitingStatus ?? 'queued';
    return {
      id: job.id ?? randomUUID(),
      kind: job.kind,
      state: job.held ? 'held' : 'ready',
      status: job.held ? (job.heldStatus ?? waiting) : waiting,
      waiting,
      running: job.runningStatus ?? 'processing',
      payload: toJson(job.payload),
      maxAttempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      runAt: job.runAt ?? now,
      parentId: job.parentId ?? null,
      key: job.idempotencyKey ?? null,
      owner: job.owner ?? null,
    };
  });
  const column = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
  const inserted = await db.query<JobRow>(INSERT, [
    column('id'),
    column('kind'),
    column('state'),
    column('status'),
    column('waiting'),
    column('running'),
    column('payload'),
    column('maxAttempts'),
    column('runAt'),
    column('parentId'),
    column('key'),
    column('owner'),
    now,
  ]);
  const byId = new Map(inserted.rows.map((r) => [r.id, r]));
  const byKey = new Map<string, JobRow>();
  const missing = rows.filter((r) => !byId.has(r.id));
  if (missing.length) {
    const existing = await db.query<JobRow>(BY_KEYS, [missing.map((r) => r.kind), missing.map((r) => r.key)]);
    for (const r of existing.rows) byKey.set(keyOf(r.kind, r.idempotency_key as string), r);
  }
  return rows.map((r) => {
    const row = byId.get(r.id) ?? (r.key === null ? undefined : byKey.get(keyOf(r.kind, r.key)));
    if (!row) throw new Error(`enqueue of ${r.kind} returned no row`);
    return toRecord(row);
  });
}

/** Follow-ups of a job are its children unless they name another parent. */
export const asChildren = (followUps: NewJob[], parentId: string): NewJob[] =>
  followUps.map((f) => ({ ...f, parentId: f.parentId ?? parentId }));
