import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { JobRecord, NewJob } from '../types.js';
import { type JobRow, toJson, toRecord } from './rows.js';

const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * Insert jobs; a job whose (kind, idempotency key) already exists is not inserted again and the existing row
 * is returned instead, so a retried submission never makes a second job. Call inside a transaction.
 */
export function prepareEnqueue(db: Database.Database): (jobs: NewJob[], now: number) => JobRecord[] {
  const insert = db.prepare<unknown[], JobRow>(
    `INSERT INTO jobs (id, kind, state, status, waiting_status, running_status, payload, max_attempts, run_at,
                       parent_id, idempotency_key, created_at, updated_at, owner)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (kind, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING *`,
  );
  const byKey = db.prepare<[string, string], JobRow>(
    'SELECT * FROM jobs WHERE kind = ? AND idempotency_key = ?',
  );

  return (jobs, now) =>
    jobs.map((job) => {
      const waiting = job.waitingStatus ?? 'queued';
      const row = insert.get(
        job.id ?? randomUUID(),
        job.kind,
        job.held ? 'held' : 'ready',
        job.held ? (job.heldStatus ?? waiting) : waiting,
        waiting,
        job.runningStatus ?? 'processing',
        toJson(job.payload),
        job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        job.runAt ?? now,
        job.parentId ?? null,
        job.idempotencyKey ?? null,
        now,
        now,
        job.owner ?? null,
      );
      const existing = row ?? (job.idempotencyKey ? byKey.get(job.kind, job.idempotencyKey) : undefined);
      if (!existing) throw new Error(`enqueue of ${job.kind} returned no row`);
      return toRecord(existing);
    });
}
