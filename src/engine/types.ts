/**
 * The engine's own lifecycle of a job, separate from the SPEC.md status a caller sees. `status` carries the
 * kind's vocabulary (queued, processing_phi, pending...), `state` what the engine may do with the row.
 */
export type JobState = 'held' | 'ready' | 'running' | 'done' | 'failed' | 'cancelled';

export const TERMINAL_STATES: readonly JobState[] = ['done', 'failed', 'cancelled'];

export interface JobRecord {
  id: string;
  kind: string;
  state: JobState;
  status: string;
  payload: unknown;
  result: unknown;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lockedUntil: number | null;
  workerId: string | null;
  parentId: string | null;
  idempotencyKey: string | null;
  createdAt: number;
  updatedAt: number;
  errorType: string | null;
  errorMessage: string | null;
  /** The API key the job was submitted under; null when made without one (the CLI). */
  owner: string | null;
}

/** A job as a worker holds it: the row plus the fencing token every later write must present. */
export interface ClaimedJob extends JobRecord {
  lockToken: string;
}

export interface NewJob {
  kind: string;
  payload?: unknown;
  /** Status shown while the job waits (SPEC.md: `queued` for lab jobs, `pending` for reports). */
  waitingStatus?: string;
  /** Status set when a worker claims it (SPEC.md: the first processing state). */
  runningStatus?: string;
  maxAttempts?: number;
  runAt?: number;
  /** A held job is not claimable until released (a lab job waiting for its upload). */
  held?: boolean;
  heldStatus?: string;
  idempotencyKey?: string;
  parentId?: string;
  id?: string;
  /** The API key submitting the job: only that key may read it through the server. */
  owner?: string;
}

/** How a handler ended its job: a SPEC.md terminal status, a result, and deliveries to send after it. */
export interface JobOutcome {
  status?: string;
  result?: unknown;
  followUps?: NewJob[];
}

export interface JobError {
  type: string;
  message: string;
}

export interface ListFilter {
  kind?: string;
  state?: JobState;
  status?: string;
  parentId?: string;
  limit?: number;
}
