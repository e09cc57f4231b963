import type pg from 'pg';
import { type JobRow, toRecord } from '../sqlite/rows.js';
import type { ClaimedJob } from '../types.js';

export interface ClaimOptions {
  workerId: string;
  kinds: string[];
  leaseMs: number;
  limit: number;
  now: number;
}

/**
 * One statement, so one round trip: running jobs whose lease expired (their worker died) while attempts
 * remain, then ready jobs whose run_at has come, oldest due first, each on its own partial index. FOR UPDATE
 * SKIP LOCKED lets any number of workers on any number of nodes claim at once: a row another claim holds is
 * passed over, not waited for, and a row it already took no longer matches when re-checked. Each claim
 * counts an attempt and gets a fresh random lock token.
 */
const CLAIM = `
  WITH expired AS (
    SELECT id FROM jobs
     WHERE state = 'running' AND locked_until < $1 AND attempts < max_attempts AND kind = ANY($2::text[])
     ORDER BY locked_until
     LIMIT $3
       FOR UPDATE SKIP LOCKED
  ), ready AS (
    SELECT id FROM jobs
     WHERE state = 'ready' AND run_at <= $1 AND kind = ANY($2::text[])
     ORDER BY run_at, created_at
     LIMIT greatest($3 - (SELECT count(*) FROM expired), 0)
       FOR UPDATE SKIP LOCKED
  )
  UPDATE jobs
     SET state = 'running', status = running_status, attempts = attempts + 1, locked_until = $4,
         lock_token = gen_random_uuid()::text, worker_id = $5, updated_at = $1
   WHERE id IN (SELECT id FROM expired UNION ALL SELECT id FROM ready)
  RETURNING *`;

export async function claimJobs(pool: pg.Pool, o: ClaimOptions): Promise<ClaimedJob[]> {
  if (o.kinds.length === 0 || o.limit <= 0) return [];
  const { rows } = await pool.query<JobRow>(CLAIM, [o.now, o.kinds, o.limit, o.now + o.leaseMs, o.workerId]);
  // RETURNING order is unspecified; hand jobs out oldest due first.
  rows.sort((a, b) => a.run_at - b.run_at || a.created_at - b.created_at);
  return rows.map((row) => ({ ...toRecord(row), lockToken: row.lock_token as string }));
}
