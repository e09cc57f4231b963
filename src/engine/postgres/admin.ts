import type pg from 'pg';
import { ConflictError, NotFoundError } from '../../errors.js';
import { type JobRow, toJson, toRecord } from '../sqlite/rows.js';
import type { JobStateRow } from '../store.js';
import type { JobError, JobRecord, ListFilter, NewJob } from '../types.js';
import { inTransaction } from './connect.js';
import { asChildren, insertJobs } from './enqueue.js';

/** Reads and the operator's changes (`assay jobs ...`): any node may make them. */
const SQL = {
  byId: 'SELECT * FROM jobs WHERE id = $1',
  statesById: 'SELECT id, state, status FROM jobs WHERE id = ANY($1::text[])',
  retry: `UPDATE jobs SET state = 'ready', status = waiting_status, attempts = 0, run_at = $2, error_type = NULL,
                 error_message = NULL, result = NULL, locked_until = NULL, lock_token = NULL, worker_id = NULL,
                 updated_at = $2
           WHERE id = $1 AND state IN ('failed', 'cancelled') RETURNING *`,
  cancel: `UPDATE jobs SET state = 'cancelled', status = 'cancelled', locked_until = NULL, lock_token = NULL,
                  updated_at = $2
            WHERE id = $1 AND state IN ('held', 'ready', 'running') RETURNING *`,
  releaseHeld: `UPDATE jobs SET state = 'ready', status = waiting_status, payload = COALESCE($3, payload),
                       run_at = $2, updated_at = $2
                 WHERE id = $1 AND state = 'held' RETURNING *`,
  failHeld: `UPDATE jobs SET state = 'failed', status = 'failed', error_type = $2, error_message = $3,
                    updated_at = $4
              WHERE id = $1 AND state = 'held'`,
  prune: `DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled') AND updated_at < $1`,
  countPrunable: `SELECT COUNT(*)::int AS n FROM jobs WHERE state IN ('done', 'failed', 'cancelled') AND updated_at < $1`,
};

export async function getJob(pool: pg.Pool, id: string): Promise<JobRecord | null> {
  const { rows } = await pool.query<JobRow>(SQL.byId, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function jobStates(pool: pg.Pool, ids: string[]): Promise<JobStateRow[]> {
  const { rows } = await pool.query<JobStateRow>(SQL.statesById, [ids]);
  return rows;
}

export async function listJobs(pool: pg.Pool, filter: ListFilter = {}): Promise<JobRecord[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (column: string, value: unknown) => {
    args.push(value);
    where.push(`${column} = $${args.length}`);
  };
  if (filter.kind) add('kind', filter.kind);
  if (filter.state) add('state', filter.state);
  if (filter.status) add('status', filter.status);
  if (filter.parentId) add('parent_id', filter.parentId);
  args.push(filter.limit ?? 100);
  const sql = `SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
               ORDER BY created_at DESC, id LIMIT $${args.length}`;
  const { rows } = await pool.query<JobRow>(sql, args);
  return rows.map(toRecord);
}

/** The changed row, or why there was none: the job does not exist, or is in a state the change refuses. */
async function changeOrExplain(
  pool: pg.Pool,
  id: string,
  result: pg.QueryResult<JobRow>,
  verb: string,
  allowed: string,
): Promise<JobRecord> {
  if (result.rows[0]) return toRecord(result.rows[0]);
  const current = await getJob(pool, id);
  if (!current) throw new NotFoundError(`No job with id ${id}.`, ['List jobs with `assay jobs list`.']);
  throw new ConflictError(`Job ${id} is ${current.state}; only ${allowed} jobs can be ${verb}.`);
}

export const retryJob = async (pool: pg.Pool, id: string, now: number) =>
  changeOrExplain(pool, id, await pool.query<JobRow>(SQL.retry, [id, now]), 'retried', 'failed or cancelled');

export const cancelJob = async (pool: pg.Pool, id: string, now: number) =>
  changeOrExplain(
    pool,
    id,
    await pool.query<JobRow>(SQL.cancel, [id, now]),
    'cancelled',
    'held, ready or running',
  );

export const releaseHeld = async (pool: pg.Pool, id: string, payload: unknown, now: number) =>
  changeOrExplain(
    pool,
    id,
    await pool.query<JobRow>(SQL.releaseHeld, [id, now, toJson(payload)]),
    'released',
    'held',
  );

export const pruneJobs = async (pool: pg.Pool, before: number) =>
  (await pool.query(SQL.prune, [before])).rowCount ?? 0;

export const countPrunableJobs = async (pool: pg.Pool, before: number) =>
  (await pool.query<{ n: number }>(SQL.countPrunable, [before])).rows[0]?.n ?? 0;

export function failHeld(
  pool: pg.Pool,
  id: string,
  err: JobError,
  followUps: NewJob[],
  now: number,
): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const changed = (await client.query(SQL.failHeld, [id, err.type, err.message, now])).rowCount === 1;
    if (changed) await insertJobs(client, asChildren(followUps, id), now);
    return changed;
  });
}
