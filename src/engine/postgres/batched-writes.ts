import type pg from 'pg';
import { TurnBatcher } from './turn-batch.js';

/** The same UPDATE as a single completion, for many jobs: each row still matches only on its own lock token. */
const COMPLETE_MANY = `
  UPDATE jobs j
     SET state = 'done', status = c.status, result = c.result, locked_until = NULL, lock_token = NULL,
         error_type = NULL, error_message = NULL, updated_at = c.now
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS c(id, token, status, result, now)
   WHERE j.id = c.id AND j.lock_token = c.token AND j.state = 'running'
  RETURNING j.id, c.token`;

/** The heartbeat for many held jobs at once, each matching on its own lock token. */
const HEARTBEAT_MANY = `
  UPDATE jobs j SET locked_until = c.until
    FROM unnest($1::text[], $2::text[], $3::bigint[]) AS c(id, token, until)
   WHERE j.id = c.id AND j.lock_token = c.token AND j.state = 'running'
  RETURNING j.id, c.token`;

interface Completion {
  id: string;
  token: string;
  status: string;
  result: string | null;
  now: number;
}

interface Beat {
  id: string;
  token: string;
  until: number;
}

const keyOf = (w: { id: string; token: string }) => `${w.id}\u0000${w.token}`;

async function changed(pool: pg.Pool, sql: string, columns: unknown[][]): Promise<Set<string>> {
  const { rows } = await pool.query<{ id: string; token: string }>(sql, columns);
  return new Set(rows.map(keyOf));
}

/**
 * Completions (those without follow-ups) of jobs that end together share one statement: one round trip and
 * one durable commit for many jobs, where one each would make the commit's flush to disk the limit on
 * throughput.
 */
export function completionBatcher(pool: pg.Pool): TurnBatcher<Completion> {
  return new TurnBatcher<Completion>(
    (b) =>
      changed(pool, COMPLETE_MANY, [
        b.map((c) => c.id),
        b.map((c) => c.token),
        b.map((c) => c.status),
        b.map((c) => c.result),
        b.map((c) => c.now),
      ]),
    keyOf,
  );
}

/** A worker beats for every job it holds in one turn: one UPDATE for all of them, not one per job. */
export function heartbeatBatcher(pool: pg.Pool): TurnBatcher<Beat> {
  return new TurnBatcher<Beat>(
    (b) => changed(pool, HEARTBEAT_MANY, [b.map((c) => c.id), b.map((c) => c.token), b.map((c) => c.until)]),
    keyOf,
  );
}
