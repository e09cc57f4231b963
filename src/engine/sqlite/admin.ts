import type Database from 'better-sqlite3';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { JobStateRow } from '../store.js';
import type { JobError, JobRecord, ListFilter } from '../types.js';
import { type JobRow, toJson, toRecord } from './rows.js';

/** Reads and the operator's changes (`assay jobs ...`): any process may make them. */
export function prepareAdmin(db: Database.Database) {
  const byId = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?');
  // The ids as one JSON array: one statement for any number of them, each found by the primary key.
  const statesById = db.prepare<[string], JobStateRow>(
    'SELECT id, state, status FROM jobs WHERE id IN (SELECT value FROM json_each(?))',
  );
  const retry = db.prepare<[number, number, string], JobRow>(
    `UPDATE jobs SET state = 'ready', status = waiting_status, attempts = 0, run_at = ?, error_type = NULL,
            error_message = NULL, result = NULL, locked_until = NULL, lock_token = NULL, worker_id = NULL,
            updated_at = ?
      WHERE id = ? AND state IN ('failed', 'cancelled') RETURNING *`,
  );
  const cancel = db.prepare<[number, string], JobRow>(
    `UPDATE jobs SET state = 'cancelled', status = 'cancelled', locked_until = NULL, lock_token = NULL, updated_at = ?
      WHERE id = ? AND state IN ('held', 'ready', 'running') RETURNING *`,
  );
  const releaseHeld = db.prepare<[string | null, number, number, string], JobRow>(
    `UPDATE jobs SET state = 'ready', status = waiting_status, payload = COALESCE(?, payload), run_at = ?,
            updated_at = ?
      WHERE id = ? AND state = 'held' RETURNING *`,
  );
  const failHeld = db.prepare(
    `UPDATE jobs SET state = 'failed', status = 'failed', error_type = ?, error_message = ?, updated_at = ?
      WHERE id = ? AND state = 'held'`,
  );
  const prune = db.prepare(
    `DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled') AND updated_at < ?`,
  );
  const countPrunable = db.prepare<[number], { n: number }>(
    `SELECT COUNT(*) AS n FROM jobs WHERE state IN ('done', 'failed', 'cancelled') AND updated_at < ?`,
  );

  const mustExist = (id: string): JobRow => {
    const row = byId.get(id);
    if (!row) throw new NotFoundError(`No job with id ${id}.`, ['List jobs with `assay jobs list`.']);
    return row;
  };
  const changeOrExplain = (id: string, row: JobRow | undefined, verb: string, allowed: string): JobRecord => {
    if (row) return toRecord(row);
    const current = mustExist(id);
    throw new ConflictError(`Job ${id} is ${current.state}; only ${allowed} jobs can be ${verb}.`);
  };

  return {
    get: (id: string) => {
      const row = byId.get(id);
      return row ? toRecord(row) : null;
    },
    states: (ids: string[]) => statesById.all(JSON.stringify(ids)),
    list: (filter: ListFilter = {}) => {
      const where: string[] = [];
      const args: unknown[] = [];
      const add = (clause: string, value: unknown) => {
        where.push(clause);
        args.push(value);
      };
      if (filter.kind) add('kind = ?', filter.kind);
      if (filter.state) add('state = ?', filter.state);
      if (filter.status) add('status = ?', filter.status);
      if (filter.parentId) add('parent_id = ?', filter.parentId);
      const sql = `SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                   ORDER BY created_at DESC, id LIMIT ?`;
      return db
        .prepare<unknown[], JobRow>(sql)
        .all(...args, filter.limit ?? 100)
        .map(toRecord);
    },
    retry: (id: string, now: number) =>
      changeOrExplain(id, retry.get(now, now, id), 'retried', 'failed or cancelled'),
    cancel: (id: string, now: number) =>
      changeOrExplain(id, cancel.get(now, id), 'cancelled', 'held, ready or running'),
    releaseHeld: (id: string, payload: unknown, now: number) =>
      changeOrExplain(id, releaseHeld.get(toJson(payload), now, now, id), 'released', 'held'),
    prune: (before: number) => prune.run(before).changes,
    countPrunable: (before: number) => countPrunable.get(before)?.n ?? 0,
    failHeld: (id: string, err: JobError, now: number) =>
      failHeld.run(err.type, err.message, now, id).changes === 1,
  };
}
