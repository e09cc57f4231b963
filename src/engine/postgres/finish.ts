import type pg from 'pg';
import { type JobRow, toJson, toRecord } from '../sqlite/rows.js';
import type { JobError, JobOutcome, JobRecord, NewJob } from '../types.js';
import { inTransaction } from './connect.js';
import { asChildren, insertJobs, type Queryable } from './enqueue.js';

const WORKER_LOST: JobError = {
  type: 'WorkerLost',
  message: 'The worker running this job stopped on every attempt.',
};

/**
 * The writes a worker makes on a job it holds. Each matches on the lock token as well as the id, so it
 * changes nothing once the lease has passed to another worker or the job was cancelled: a false return
 * tells the worker it no longer owns the job. Parameters $1 and $2 are always the id and the token.
 */
const OWNED = `WHERE id = $1 AND lock_token = $2 AND state = 'running'`;
const SQL = {
  setStatus: `UPDATE jobs SET status = $3, updated_at = $4 ${OWNED}`,
  complete: `UPDATE jobs SET state = 'done', status = $3, result = $4, locked_until = NULL, lock_token = NULL,
                    error_type = NULL, error_message = NULL, updated_at = $5 ${OWNED}`,
  retry: `UPDATE jobs SET state = 'ready', status = waiting_status, run_at = $3, locked_until = NULL,
                 lock_token = NULL, error_type = $4, error_message = $5, updated_at = $6 ${OWNED}`,
  fail: `UPDATE jobs SET state = 'failed', status = 'failed', locked_until = NULL, lock_token = NULL,
                error_type = $3, error_message = $4, updated_at = $5 ${OWNED}`,
  release: `UPDATE jobs SET state = 'ready', status = waiting_status, attempts = greatest(attempts - 1, 0),
                   run_at = $3, locked_until = NULL, lock_token = NULL, updated_at = $3 ${OWNED}`,
  exhausted: `UPDATE jobs SET state = 'failed', status = 'failed', locked_until = NULL, lock_token = NULL,
                     error_type = $1, error_message = $2, updated_at = $3
               WHERE state = 'running' AND locked_until < $3 AND attempts >= max_attempts
              RETURNING *`,
};

const changedOne = (r: pg.QueryResult) => r.rowCount === 1;

export const setStatus = async (db: Queryable, id: string, token: string, status: string, now: number) =>
  changedOne(await db.query(SQL.setStatus, [id, token, status, now]));

export const release = async (db: Queryable, id: string, token: string, now: number) =>
  changedOne(await db.query(SQL.release, [id, token, now]));

/** The update, and when it took, the follow-ups: in one transaction when there are any. */
async function withFollowUps(
  pool: pg.Pool,
  followUps: NewJob[],
  now: number,
  parentId: string,
  update: (db: Queryable) => Promise<boolean>,
): Promise<boolean> {
  // Without follow-ups the single UPDATE is atomic on its own; skip the BEGIN/COMMIT round trips.
  if (followUps.length === 0) return update(pool);
  return inTransaction(pool, async (client) => {
    const changed = await update(client);
    if (changed) await insertJobs(client, asChildren(followUps, parentId), now);
    return changed;
  });
}

export const complete = (pool: pg.Pool, id: string, token: string, outcome: JobOutcome, now: number) =>
  withFollowUps(pool, outcome.followUps ?? [], now, id, async (db) =>
    changedOne(
      await db.query(SQL.complete, [id, token, outcome.status ?? 'completed', toJson(outcome.result), now]),
    ),
  );

export async function fail(
  pool: pg.Pool,
  id: string,
  token: string,
  err: JobError,
  retryAt: number | null,
  now: number,
  followUps: NewJob[] = [],
): Promise<boolean> {
  if (retryAt !== null)
    return changedOne(await pool.query(SQL.retry, [id, token, retryAt, err.type, err.message, now]));
  return withFollowUps(pool, followUps, now, id, async (db) =>
    changedOne(await db.query(SQL.fail, [id, token, err.type, err.message, now])),
  );
}

/** End running jobs whose lease expired with no attempts left, each with its failure follow-ups. */
export function failExhausted(
  pool: pg.Pool,
  now: number,
  followUpsFor: (job: JobRecord, error: JobError) => NewJob[],
): Promise<number> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<JobRow>(SQL.exhausted, [WORKER_LOST.type, WORKER_LOST.message, now]);
    const followUps = rows.flatMap((row) => asChildren(followUpsFor(toRecord(row), WORKER_LOST), row.id));
    await insertJobs(client, followUps, now);
    return rows.length;
  });
}
