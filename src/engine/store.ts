import type { ClaimedJob, JobError, JobOutcome, JobRecord, JobState, ListFilter, NewJob } from './types.js';

/**
 * What the engine needs from storage. Two stores implement it, SQLite (src/engine/sqlite) and PostgreSQL
 * (src/engine/postgres, claims with FOR UPDATE SKIP LOCKED), and both pass one conformance suite
 * (test/engine/store-conformance.ts). Every write a worker makes after claiming presents the lock token, so a
 * worker whose lease expired cannot overwrite the job's next owner.
 */
export interface JobStore {
  /** Each job keeps the owner it was given (null without one); follow-ups name their own. */
  enqueue(jobs: NewJob[]): Promise<JobRecord[]>;
  /**
   * Atomically take up to `limit` ready jobs (or running jobs whose lease expired) of the given kinds. Ready
   * jobs are taken round robin across owners, counting each owner's running jobs, oldest due first within
   * an owner: one key's backlog never queues another key's job behind all of it.
   */
  claim(opts: {
    workerId: string;
    kinds: string[];
    leaseMs: number;
    limit: number;
    now?: number;
  }): Promise<ClaimedJob[]>;
  heartbeat(id: string, lockToken: string, lockedUntil: number): Promise<boolean>;
  setStatus(id: string, lockToken: string, status: string): Promise<boolean>;
  /** Finish a job and, in the same transaction, enqueue its follow-up jobs (the outbox). */
  complete(id: string, lockToken: string, outcome: JobOutcome): Promise<boolean>;
  /**
   * Record a failed attempt: back to ready at `retryAt`, or terminally failed when retryAt is null, in which
   * case `followUps` (the failure's notifications) are enqueued in the same transaction.
   */
  fail(
    id: string,
    lockToken: string,
    error: JobError,
    retryAt: number | null,
    followUps?: NewJob[],
  ): Promise<boolean>;
  /** Give a claimed job back untouched (graceful shutdown): the attempt does not count. */
  release(id: string, lockToken: string): Promise<boolean>;
  /**
   * Running jobs whose lease expired with no attempts left end failed with WorkerLost (a job that kills its
   * worker), each with the follow-ups `followUpsFor` gives (its failure notifications) in the same
   * transaction. Returns how many ended.
   */
  failExhaustedLeases(
    now?: number,
    followUpsFor?: (job: JobRecord, error: JobError) => NewJob[],
  ): Promise<number>;
  get(id: string): Promise<JobRecord | null>;
  /**
   * The state and status of those of `ids` that exist, in one query and without their payloads or results:
   * how Engine.waitFor checks on many jobs at once. A store without it is read job by job.
   */
  states?(ids: string[]): Promise<JobStateRow[]>;
  list(filter?: ListFilter): Promise<JobRecord[]>;
  /** Make a held job claimable (its input has arrived). */
  releaseHeld(id: string, payload?: unknown): Promise<JobRecord>;
  /**
   * End a held job that will never get its input (an upload URL that expired), with its failure
   * notifications in the same transaction. False when the job is no longer held.
   */
  failHeld(id: string, error: JobError, followUps?: NewJob[]): Promise<boolean>;
  retry(id: string): Promise<JobRecord>;
  cancel(id: string): Promise<JobRecord>;
  /** Delete finished jobs older than the cutoff; returns how many went (with dryRun: would go, none deleted). */
  prune(finishedBefore: number, opts?: { dryRun?: boolean }): Promise<number>;
  /**
   * Call `onWake` whenever a job may have become claimable, whichever process made it so (PostgreSQL:
   * LISTEN/NOTIFY). Returns the unsubscribe. A store that cannot tell leaves it out and workers only poll.
   */
  subscribe?(onWake: () => void): () => void;
  close(): Promise<void>;
}

/** A job's state and status, as JobStore.states reads them. */
export interface JobStateRow {
  id: string;
  state: JobState;
  status: string;
}
