import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff.js';
import { type JobKind, type JobRegistry, PermanentJobError, RetryLaterError } from './registry.js';
import type { JobStore } from './store.js';
import type { ClaimedJob, JobError, JobOutcome, JobRecord } from './types.js';

export interface WorkerOptions {
  concurrency?: number;
  /** How long a claim holds without a heartbeat; a dead worker's jobs come back after this. */
  leaseMs?: number;
  /** How often an idle worker looks for due jobs (a local enqueue wakes it at once). */
  pollMs?: number;
  /** Only these kinds; default every registered kind. */
  kinds?: string[];
  workerId?: string;
}

export interface SettledEvent {
  id: string;
  kind: string;
  state: 'done' | 'failed' | 'retry' | 'lost';
  status: string;
}

export const DEFAULT_LEASE_MS = 10_000;

class JobTimeoutError extends Error {
  override name = 'JobTimeout';
}

/** The job is no longer this worker's: its lease passed on, it was cancelled, or it was handed back. */
class LeaseLostError extends Error {
  override name = 'LeaseLost';
}

function toJobError(err: unknown): JobError {
  if (err instanceof PermanentJobError || err instanceof RetryLaterError)
    return { type: err.type, message: err.message };
  if (err instanceof Error) {
    const type = (err as { code?: unknown }).code;
    return { type: typeof type === 'string' && type ? type : err.name || 'Error', message: err.message };
  }
  return { type: 'Error', message: String(err) };
}

/**
 * Claims due jobs under a lease and runs their handlers, up to `concurrency` at a time. Emits `settled` for
 * every job it finishes. Holds no state the store does not also hold, so any number of workers in any number
 * of processes can share one store.
 */
export class Worker extends EventEmitter {
  readonly id: string;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly kinds: string[];
  private readonly inFlight = new Map<
    string,
    { job: ClaimedJob; abort: AbortController; done: Promise<void> }
  >();
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  /** A wake that came while the worker was not idle (mid-claim): the next idle() returns at once. */
  private woken = false;
  private unsubscribe: (() => void) | undefined;
  private lastSweep = 0;
  private storeFailing = false;
  /** Jobs whose handler is running: the ones the heartbeat keeps. */
  private readonly held = new Map<string, { job: ClaimedJob; abort: AbortController }>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: JobStore,
    private readonly registry: JobRegistry,
    opts: WorkerOptions = {},
  ) {
    super();
    this.id = opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = opts.pollMs ?? 200;
    this.kinds = opts.kinds ?? registry.names();
  }

  get busy(): number {
    return this.inFlight.size;
  }

  start(): this {
    if (this.running) return this;
    this.running = true;
    this.unsubscribe = this.store.subscribe?.(() => this.wake());
    this.loop = this.run();
    return this;
  }

  /** Look for work now instead of at the next poll. */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  /**
   * Stop claiming; give in-flight jobs `graceMs` to finish, then abort them and hand them back to the store
   * so another worker takes them at once (the attempt does not count).
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.wake();
    await this.loop;
    const pending = [...this.inFlight.values()];
    const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled(pending.map((p) => p.done)), timer]);
    for (const { job, abort } of this.inFlight.values()) {
      abort.abort(new LeaseLostError('worker shutting down'));
      // A store that cannot take the release lets the lease expire instead.
      await this.store.release(job.id, job.lockToken).catch(() => false);
    }
    await Promise.allSettled([...this.inFlight.values()].map((p) => p.done));
  }

  /**
   * The claim loop. A store that cannot be written (locked past the store's own retries, disk full, I/O
   * error) must not end the process: the loop reports it (`storeError`), waits longer each time up to 5 s,
   * and tries again; `storeOk` says the store answered again.
   */
  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        // A turn that only waited for a slot asked the store nothing: it is no sign the store is back.
        if (await this.turn()) this.storeRecovered();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.storeError(error);
        this.woken = false;
        await this.idle(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  /**
   * One pass: the lease sweep when due, then a claim of as many jobs as there are free slots. True when it
   * asked the store something (and so the store answered).
   */
  private async turn(): Promise<boolean> {
    const now = Date.now();
    let asked = false;
    if (now - this.lastSweep > this.leaseMs) {
      this.lastSweep = now;
      asked = true;
      const swept = new Map<string, JobRecord>();
      await this.store.failExhaustedLeases(now, (job, error) => {
        swept.set(job.id, job);
        return this.registry.get(job.kind)?.onFinalFailure?.(job, error) ?? [];
      });
      for (const job of swept.values()) await this.afterSweep(job);
    }
    const free = this.concurrency - this.inFlight.size;
    // Claim in batches: with most slots still busy, wait for more to free up (a finishing job wakes us).
    if (free === 0 || (this.inFlight.size > 0 && free < Math.ceil(this.concurrency / 2))) {
      await this.idle();
      return asked;
    }
    const jobs = await this.store.claim({
      workerId: this.id,
      kinds: this.kinds,
      leaseMs: this.leaseMs,
      limit: free,
    });
    for (const job of jobs) this.execute(job);
    if (jobs.length < free) await this.idle();
    return true;
  }

  /** The store answered: say so once, if it had been failing. */
  private storeRecovered(): void {
    if (!this.storeFailing) return;
    this.storeFailing = false;
    this.emit('storeOk');
  }

  /**
   * The clean-up of a job the sweep ended, once that end is committed. The sweep's transaction may have
   * been tried more than once (a locked store), so only a job the store now shows failed gets it.
   */
  private async afterSweep(job: JobRecord): Promise<void> {
    const now = await this.store.get(job.id).catch(() => null);
    if (now?.state === 'failed') await afterEnd(this.registry.get(job.kind), job);
  }

  /**
   * A job's end write (its completion or failure). A store that does not take it (locked past its own
   * retries, a dropped connection) is asked again for up to a lease, so a transient fault neither throws the
   * attempt's work away nor runs the job again. The write matches the lock token: once another worker holds
   * the job it changes nothing and says so.
   */
  private async endWrite(write: () => Promise<boolean>): Promise<boolean> {
    const deadline = Date.now() + this.leaseMs;
    for (let pause = 100; ; pause = Math.min(2_000, pause * 2)) {
      try {
        const owned = await write();
        if (pause > 100) this.storeRecovered();
        return owned;
      } catch (error) {
        if (Date.now() + pause > deadline) throw error;
        this.storeError(error);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  private storeError(error: unknown): void {
    this.storeFailing = true;
    this.emit('storeError', error);
  }

  private idle(ms = this.pollMs): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wakeUp === done) self.wakeUp = undefined;
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private execute(job: ClaimedJob): void {
    const abort = new AbortController();
    const done = this.runHandler(job, abort)
      .catch((error: unknown) => {
        // The store refused the job's last write: the lease runs out and the job is claimed again.
        this.storeError(error);
        this.settle(job, 'lost', job.status);
      })
      .finally(() => {
        this.inFlight.delete(job.id);
        this.wake();
      });
    this.inFlight.set(job.id, { job, abort, done });
  }

  private async runHandler(job: ClaimedJob, abort: AbortController): Promise<void> {
    const kind = this.registry.get(job.kind);
    this.hold(job, abort);
    let outcome: JobOutcome | undefined;
    try {
      if (!kind)
        throw new PermanentJobError('UnknownJobKind', `No handler is registered for job kind ${job.kind}.`);
      outcome = await this.withTimeout(kind, job, abort);
    } catch (err) {
      this.letGo(job.id);
      if (abort.signal.reason instanceof LeaseLostError) return this.settle(job, 'lost', job.status);
      return this.recordFailure(job, kind, err);
    } finally {
      this.letGo(job.id);
    }
    // A store error here is not the handler's failure: execute() treats the job as lost.
    const owned = await this.endWrite(() => this.store.complete(job.id, job.lockToken, outcome ?? {}));
    if (owned) await afterEnd(kind, job);
    this.settle(job, owned ? 'done' : 'lost', outcome?.status ?? 'completed');
  }

  /**
   * Keep `job`'s lease while its handler runs. One timer for every job the worker holds, beating for all of
   * them in the same turn: a store can send them as one write (PostgreSQL does) instead of one per job.
   * A job is beaten at most leaseMs / 3 after its claim and after each beat, as with a timer of its own.
   */
  private hold(job: ClaimedJob, abort: AbortController): void {
    this.held.set(job.id, { job, abort });
    this.heartbeat ??= setInterval(() => void this.beat(), Math.max(50, Math.floor(this.leaseMs / 3)));
  }

  private letGo(id: string): void {
    this.held.delete(id);
    if (this.held.size > 0) return;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private async beat(): Promise<void> {
    const until = Date.now() + this.leaseMs;
    const beats = [...this.held.values()].map(async ({ job, abort }) => {
      const kept = await this.store.heartbeat(job.id, job.lockToken, until);
      if (!kept) abort.abort(new LeaseLostError(`lease on ${job.id} lost`));
    });
    const missed = (await Promise.allSettled(beats)).find((r) => r.status === 'rejected');
    // A missed beat is not a lost lease; the next one may get through before it expires.
    if (missed) this.storeError((missed as PromiseRejectedResult).reason);
  }

  private async recordFailure(job: ClaimedJob, kind: JobKind | undefined, err: unknown): Promise<void> {
    const error = toJobError(err);
    const final = err instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    const delay = backoffDelay(job.attempts, kind?.backoff ?? DEFAULT_BACKOFF);
    const retryAt = final
      ? null
      : Date.now() + Math.max(delay, err instanceof RetryLaterError ? err.retryAfterMs : 0);
    const followUps = final ? (kind?.onFinalFailure?.(job, error) ?? []) : [];
    const owned = await this.endWrite(() =>
      this.store.fail(job.id, job.lockToken, error, retryAt, followUps),
    );
    if (owned && final) await afterEnd(kind, job);
    this.settle(job, owned ? (final ? 'failed' : 'retry') : 'lost', final ? 'failed' : job.status);
  }

  private withTimeout(
    kind: JobKind,
    job: ClaimedJob,
    abort: AbortController,
  ): Promise<JobOutcome | undefined> {
    const ctx = {
      job,
      signal: abort.signal,
      setStatus: async (status: string) => {
        if (!(await this.store.setStatus(job.id, job.lockToken, status))) {
          abort.abort(new LeaseLostError(`lease on ${job.id} lost`));
          throw abort.signal.reason;
        }
      },
    };
    const aborted = new Promise<never>((_, reject) => {
      abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true });
    });
    const timer = kind.timeoutMs
      ? setTimeout(
          () => abort.abort(new JobTimeoutError(`Job exceeded its time limit of ${kind.timeoutMs} ms.`)),
          kind.timeoutMs,
        )
      : undefined;
    return Promise.race([kind.handler(job.payload, ctx), aborted]).finally(() => clearTimeout(timer));
  }

  private settle(job: ClaimedJob, state: SettledEvent['state'], status: string): void {
    this.emit('settled', { id: job.id, kind: job.kind, state, status } satisfies SettledEvent);
  }
}

/** The kind's clean-up once the job's end is committed; it never fails the worker. */
async function afterEnd(kind: JobKind | undefined, job: JobRecord): Promise<void> {
  await kind?.afterEnd?.(job).catch(() => {});
}
