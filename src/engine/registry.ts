import type { BackoffPolicy } from './backoff.js';
import type { ClaimedJob, JobError, JobOutcome, JobRecord, NewJob } from './types.js';

/** What a handler may do while it runs, besides returning its outcome. */
export interface JobContext {
  job: ClaimedJob;
  /** Aborted when the job times out, is cancelled, or its lease is lost. */
  signal: AbortSignal;
  /** Move to another SPEC.md processing state (processing_phi, ...). */
  setStatus(status: string): Promise<void>;
}

export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<JobOutcome | undefined>;

/**
 * A handler whose module is imported when its kind's first job runs, so a process loads only the handlers
 * it runs (`assay jobs list` none, `serve`'s main thread no PDF code). A failed import is tried again on the
 * next job rather than remembered.
 */
export function lazyHandler(load: () => Promise<JobHandler>): JobHandler {
  let loading: Promise<JobHandler> | undefined;
  return async (payload, ctx) => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return (await loading)(payload, ctx);
  };
}

/**
 * The blobs a kind keeps beside its jobs, declared so `assay jobs prune` can tell which are still needed
 * without knowing any kind. Handlers delete them as jobs end; pruning removes what a crash, a failed
 * delivery (its PDF kept for a retry) or an interrupted delete left behind, and never a blob written less
 * than PRUNE_GRACE_MS ago (it may belong to a job not stored yet). A key under `prefix` that neither
 * `owner` nor `shared` recognises is left alone.
 */
export interface KeptBlobs {
  /** The blob store folder they are kept under (`uploads/`), listed when pruning. */
  prefix: string;
  /** The id of the job a key belongs to, read from its key pattern; undefined for a key not this kind's. */
  owner?(key: string): string | undefined;
  /**
   * An owned blob stays while its job is stored, ended or not, and goes only once older than the retention
   * (a report PDF not delivered, kept for `assay jobs retry`). Without it the blob goes as soon as its job
   * has ended or is gone, whatever the retention: an upload holds PHI and no ended job reads it.
   */
  keepWhileStored?: boolean;
  /**
   * Keys no one job owns, read along a chain of jobs (a sealed credential, used by a report job and then its
   * deliveries): they go once older than the retention and no live job names them.
   */
  shared?(key: string): boolean;
  /**
   * The keys a live (held, ready, running) job of this kind still reads, its own or another job's: a
   * delivery needs its report's PDF after the report job has ended. Only blobs that may outlive their job
   * (keepWhileStored, shared) are checked against these; one that goes with its job's end is its job's alone.
   */
  live?(job: JobRecord): string[];
}

export interface JobKind {
  kind: string;
  handler: JobHandler;
  waitingStatus?: string;
  runningStatus?: string;
  maxAttempts?: number;
  /** A handler running longer than this is aborted and the attempt fails with JobTimeout. */
  timeoutMs?: number;
  backoff?: BackoffPolicy;
  /**
   * Jobs to enqueue, atomically, when a job of this kind fails for good (a failure webhook, say), including
   * a job whose worker died on its last attempt and that the store's sweep ends with WorkerLost.
   */
  onFinalFailure?: (job: JobRecord, error: JobError) => NewJob[];
  /**
   * Work for once the job's end is committed, by the worker that ended it (delete a kept input). Never
   * before: a handler that cleans up and then loses its lease, or dies before the commit, leaves the next
   * attempt nothing to work on. Failures are ignored; what a crash leaves undone is `assay jobs prune`'s.
   */
  afterEnd?: (job: JobRecord) => Promise<void>;
  /** What this kind keeps in the blob store, for `assay jobs prune` (src/blobs/prune.ts). */
  blobs?: KeptBlobs;
}

/** An error a handler throws to end the job now: retrying would not help (a corrupt PDF, a 403). */
export class PermanentJobError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

/** An error a handler throws to be retried no sooner than `retryAfterMs` (a receiver's Retry-After). */
export class RetryLaterError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = type;
  }
}

export class JobRegistry {
  private readonly kinds = new Map<string, JobKind>();

  register(kind: JobKind): this {
    this.kinds.set(kind.kind, kind);
    return this;
  }

  get(kind: string): JobKind | undefined {
    return this.kinds.get(kind);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }

  /** A new job of a registered kind, with the kind's status vocabulary and attempt limit. */
  newJob(kind: string, payload: unknown, extra: Partial<NewJob> = {}): NewJob {
    const k = this.kinds.get(kind);
    if (!k) throw new Error(`Unknown job kind ${kind}`);
    return {
      kind,
      payload,
      waitingStatus: k.waitingStatus,
      runningStatus: k.runningStatus,
      maxAttempts: k.maxAttempts,
      ...extra,
    };
  }
}
