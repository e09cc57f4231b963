import type Database from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import type { JobStateRow, JobStore } from '../store.js';
import type { ClaimedJob, JobError, JobOutcome, JobRecord, ListFilter, NewJob } from '../types.js';
import { prepareAdmin } from './admin.js';
import { retryBusy, STATEMENT_BUSY_MS } from './busy.js';
import { prepareClaim } from './claim.js';
import { prepareEnqueue } from './enqueue.js';
import { FileIdentity } from './file-check.js';
import { prepareFinish } from './finish.js';
import { openDatabase } from './open-database.js';

/**
 * The JobStore over one SQLite file. better-sqlite3 is synchronous; the async surface is the interface's,
 * so a networked store can sit behind it unchanged. A locked database is waited for between event-loop
 * turns (retryBusy), never inside SQLite for more than a few milliseconds.
 */
export class SqliteStore implements JobStore {
  readonly db: Database.Database;
  private readonly enqueueJobs;
  private readonly claimJobs;
  private readonly finish;
  private readonly admin;
  private readonly failHeldTx;
  private readonly identity: FileIdentity;

  constructor(home: string) {
    this.db = openDatabase(home, { busyTimeoutMs: STATEMENT_BUSY_MS });
    this.identity = new FileIdentity(this.db.name);
    const enqueue = prepareEnqueue(this.db);
    this.enqueueJobs = this.db.transaction(enqueue);
    // Both claim statements in one transaction, so a retried claim never leaves the first one's rows taken.
    const claim = this.db.transaction(prepareClaim(this.db));
    this.claimJobs = (o: Parameters<typeof claim>[0]) => claim.immediate(o);
    this.finish = prepareFinish(this.db, enqueue);
    this.admin = prepareAdmin(this.db);
    this.failHeldTx = this.db.transaction((id: string, error: JobError, followUps: NewJob[], now: number) => {
      const changed = this.admin.failHeld(id, error, now);
      if (changed && followUps.length)
        enqueue(
          followUps.map((f) => ({ ...f, parentId: f.parentId ?? id })),
          now,
        );
      return changed;
    });
  }

  /**
   * New work is refused once the file was deleted or replaced: SQLite would go on writing to the unlinked
   * inode, and every job accepted there is lost at the next start.
   */
  private assertFileIntact(): void {
    const problem = this.identity.problem();
    if (problem)
      throw new StoreError(
        `The job store ${this.db.name} was ${problem === 'store_file_missing' ? 'deleted' : 'replaced'} while in use; new jobs are refused until the service restarts.`,
      );
  }

  async enqueue(jobs: NewJob[]): Promise<JobRecord[]> {
    this.assertFileIntact();
    return retryBusy(() => this.enqueueJobs.immediate(jobs, Date.now()));
  }

  async claim(o: {
    workerId: string;
    kinds: string[];
    leaseMs: number;
    limit: number;
    now?: number;
  }): Promise<ClaimedJob[]> {
    return retryBusy(() => this.claimJobs({ ...o, now: o.now ?? Date.now() }));
  }

  async heartbeat(id: string, lockToken: string, lockedUntil: number): Promise<boolean> {
    return retryBusy(() => this.finish.heartbeat(id, lockToken, lockedUntil));
  }

  async setStatus(id: string, lockToken: string, status: string): Promise<boolean> {
    return retryBusy(() => this.finish.setStatus(id, lockToken, status, Date.now()));
  }

  async complete(id: string, lockToken: string, outcome: JobOutcome): Promise<boolean> {
    return retryBusy(() => this.finish.complete(id, lockToken, outcome, Date.now()));
  }

  async fail(
    id: string,
    lockToken: string,
    error: JobError,
    retryAt: number | null,
    followUps?: NewJob[],
  ): Promise<boolean> {
    return retryBusy(() => this.finish.fail(id, lockToken, error, retryAt, Date.now(), followUps));
  }

  async release(id: string, lockToken: string): Promise<boolean> {
    return retryBusy(() => this.finish.release(id, lockToken, Date.now()));
  }

  async failExhaustedLeases(
    now = Date.now(),
    followUpsFor: (job: JobRecord, error: JobError) => NewJob[] = () => [],
  ): Promise<number> {
    return retryBusy(() => this.finish.failExhausted(now, followUpsFor));
  }

  async get(id: string): Promise<JobRecord | null> {
    return retryBusy(() => this.admin.get(id));
  }

  async states(ids: string[]): Promise<JobStateRow[]> {
    return retryBusy(() => this.admin.states(ids));
  }

  async list(filter?: ListFilter): Promise<JobRecord[]> {
    return retryBusy(() => this.admin.list(filter));
  }

  async releaseHeld(id: string, payload?: unknown): Promise<JobRecord> {
    this.assertFileIntact();
    return retryBusy(() => this.admin.releaseHeld(id, payload, Date.now()));
  }

  async failHeld(id: string, error: JobError, followUps: NewJob[] = []): Promise<boolean> {
    return retryBusy(() => this.failHeldTx.immediate(id, error, followUps, Date.now()));
  }

  async retry(id: string): Promise<JobRecord> {
    return retryBusy(() => this.admin.retry(id, Date.now()));
  }

  async cancel(id: string): Promise<JobRecord> {
    return retryBusy(() => this.admin.cancel(id, Date.now()));
  }

  async prune(finishedBefore: number, opts: { dryRun?: boolean } = {}): Promise<number> {
    if (opts.dryRun) return retryBusy(() => this.admin.countPrunable(finishedBefore));
    return retryBusy(() => this.admin.prune(finishedBefore));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
