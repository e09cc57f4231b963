import type Database from 'better-sqlite3';
import type { JobError, JobOutcome, JobRecord, NewJob } from '../types.js';
import { type JobRow, toJson, toRecord } from './rows.js';

const WORKER_LOST: JobError = {
  type: 'WorkerLost',
  message: 'The worker running this job stopped on every attempt.',
};

/**
 * The writes a worker makes on a job it holds. Each matches on the lock token as well as the id, so it
 * changes nothing once the lease has passed to another worker or the job was cancelled: a false return
 * tells the worker it no longer owns the job.
 */
export function prepareFinish(db: Database.Database, enqueue: (jobs: NewJob[], now: number) => unknown) {
  const owned = `WHERE id = ? AND lock_token = ? AND state = 'running'`;
  const heartbeat = db.prepare(`UPDATE jobs SET locked_until = ? ${owned}`);
  const setStatus = db.prepare(`UPDATE jobs SET status = ?, updated_at = ? ${owned}`);
  const complete = db.prepare(
    `UPDATE jobs SET state = 'done', status = ?, result = ?, locked_until = NULL, lock_token = NULL,
            error_type = NULL, error_message = NULL, updated_at = ? ${owned}`,
  );
  const retry = db.prepare(
    `UPDATE jobs SET state = 'ready', status = waiting_status, run_at = ?, locked_until = NULL, lock_token = NULL,
            error_type = ?, error_message = ?, updated_at = ? ${owned}`,
  );
  const fail = db.prepare(
    `UPDATE jobs SET state = 'failed', status = 'failed', locked_until = NULL, lock_token = NULL,
            error_type = ?, error_message = ?, updated_at = ? ${owned}`,
  );
  const release = db.prepare(
    `UPDATE jobs SET state = 'ready', status = waiting_status, attempts = MAX(attempts - 1, 0), run_at = ?,
            locked_until = NULL, lock_token = NULL, updated_at = ? ${owned}`,
  );
  const exhausted = db.prepare<[string, string, number, number], JobRow>(
    `UPDATE jobs SET state = 'failed', status = 'failed', locked_until = NULL, lock_token = NULL,
            error_type = ?, error_message = ?, updated_at = ?
      WHERE state = 'running' AND locked_until < ? AND attempts >= max_attempts
      RETURNING *`,
  );
  const failExhaustedWithFollowUps = db.transaction(
    (now: number, followUpsFor: (job: JobRecord, error: JobError) => NewJob[]) => {
      const rows = exhausted.all(WORKER_LOST.type, WORKER_LOST.message, now, now);
      for (const row of rows) {
        const followUps = followUpsFor(toRecord(row), WORKER_LOST);
        if (followUps.length) {
          enqueue(
            followUps.map((f) => ({ ...f, parentId: f.parentId ?? row.id })),
            now,
          );
        }
      }
      return rows.length;
    },
  );

  const completeWithFollowUps = db.transaction(
    (id: string, token: string, outcome: JobOutcome, now: number) => {
      const changed =
        complete.run(outcome.status ?? 'completed', toJson(outcome.result), now, id, token).changes === 1;
      if (changed && outcome.followUps?.length) {
        enqueue(
          outcome.followUps.map((f) => ({ ...f, parentId: f.parentId ?? id })),
          now,
        );
      }
      return changed;
    },
  );

  const failWithFollowUps = db.transaction(
    (id: string, token: string, err: JobError, followUps: NewJob[], now: number) => {
      const changed = fail.run(err.type, err.message, now, id, token).changes === 1;
      if (changed)
        enqueue(
          followUps.map((f) => ({ ...f, parentId: f.parentId ?? id })),
          now,
        );
      return changed;
    },
  );

  return {
    heartbeat: (id: string, token: string, until: number) => heartbeat.run(until, id, token).changes === 1,
    setStatus: (id: string, token: string, status: string, now: number) =>
      setStatus.run(status, now, id, token).changes === 1,
    // Without follow-ups the single UPDATE is atomic on its own; skip the transaction round trip.
    complete: (id: string, token: string, outcome: JobOutcome, now: number) =>
      outcome.followUps?.length
        ? completeWithFollowUps.immediate(id, token, outcome, now)
        : complete.run(outcome.status ?? 'completed', toJson(outcome.result), now, id, token).changes === 1,
    fail: (
      id: string,
      token: string,
      err: JobError,
      retryAt: number | null,
      now: number,
      followUps: NewJob[] = [],
    ) =>
      retryAt !== null
        ? retry.run(retryAt, err.type, err.message, now, id, token).changes === 1
        : followUps.length
          ? failWithFollowUps.immediate(id, token, err, followUps, now)
          : fail.run(err.type, err.message, now, id, token).changes === 1,
    release: (id: string, token: string, now: number) => release.run(now, now, id, token).changes === 1,
    failExhausted: (now: number, followUpsFor: (job: JobRecord, error: JobError) => NewJob[]) =>
      failExhaustedWithFollowUps.immediate(now, followUpsFor),
  };
}
