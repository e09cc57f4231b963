import type { JobRecord, JobState } from '../types.js';

/** A jobs row as SQLite returns it. */
export interface JobRow {
  id: string;
  kind: string;
  state: JobState;
  status: string;
  payload: string | null;
  result: string | null;
  attempts: number;
  max_attempts: number;
  run_at: number;
  locked_until: number | null;
  lock_token: string | null;
  worker_id: string | null;
  parent_id: string | null;
  idempotency_key: string | null;
  created_at: number;
  updated_at: number;
  error_type: string | null;
  error_message: string | null;
  owner: string | null;
}

export const toJson = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
/** What a payload or result reads as when its stored JSON is damaged: the row stays listable. */
export const UNREADABLE_JSON = { unreadable: 'The stored JSON of this job could not be read.' } as const;

function fromJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return UNREADABLE_JSON;
  }
}

export function toRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    status: row.status,
    payload: fromJson(row.payload),
    result: fromJson(row.result),
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: row.run_at,
    lockedUntil: row.locked_until,
    workerId: row.worker_id,
    parentId: row.parent_id,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    errorType: row.error_type,
    errorMessage: row.error_message,
    owner: row.owner,
  };
}
