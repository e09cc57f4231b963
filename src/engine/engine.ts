import { setTimeout as sleep } from 'node:timers/promises';
import { FileBlobStore } from '../blobs/file.js';
import type { BlobStore } from '../blobs/store.js';
import { NotFoundError } from '../errors.js';
import type { JobRegistry } from './registry.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { JobStore } from './store.js';
import { type JobRecord, type NewJob, TERMINAL_STATES } from './types.js';
import { Worker, type WorkerOptions } from './worker.js';

export const isTerminal = (job: JobRecord): boolean => TERMINAL_STATES.includes(job.state);

/**
 * The one job engine every command and route goes through: a store under ASSAY_HOME, the registered job
 * kinds, and the workers this process runs.
 */
export class Engine {
  private readonly workers = new Set<Worker>();

  private readonly blobStore: BlobStore | undefined;

  /** `blobs`: where the jobs' files live, beside `store` (openEngine opens both from one --store). */
  constructor(
    readonly store: JobStore,
    readonly registry: JobRegistry,
    blobs?: BlobStore,
  ) {
    this.blobStore = blobs;
  }

  static open(home: string, registry: JobRegistry): Engine {
    return new Engine(new SqliteStore(home), registry, new FileBlobStore(home));
  }

  /** The blob store; an engine built without one (job-only tests, benchmarks) cannot keep files. */
  get blobs(): BlobStore {
    if (!this.blobStore) throw new Error('assay: this engine was opened without a blob store');
    return this.blobStore;
  }

  async enqueue(kind: string, payload: unknown, extra: Partial<NewJob> = {}): Promise<JobRecord> {
    const [job] = await this.store.enqueue([this.registry.newJob(kind, payload, extra)]);
    this.wakeWorkers();
    return job as JobRecord;
  }

  async enqueueMany(jobs: NewJob[]): Promise<JobRecord[]> {
    const records = await this.store.enqueue(jobs);
    this.wakeWorkers();
    return records;
  }

  async mustGet(id: string): Promise<JobRecord> {
    const job = await this.store.get(id);
    if (!job) throw new NotFoundError(`No job with id ${id}.`, ['List jobs with `assay jobs list`.']);
    return job;
  }

  startWorker(opts: WorkerOptions = {}): Worker {
    const worker = new Worker(this.store, this.registry, opts).start();
    this.workers.add(worker);
    return worker;
  }

  /**
   * Resolve when every job has reached a terminal state. Reads the store, not in-process events, so it also
   * sees jobs finished by workers in other processes.
   */
  async waitFor(
    ids: string[],
    opts: { pollMs?: number; signal?: AbortSignal; onChange?: (job: JobRecord) => void } = {},
  ): Promise<JobRecord[]> {
    const last = new Map<string, string>();
    const done = new Map<string, JobRecord>();
    // The same id twice (identical PDFs share one job) is one job to wait for: counting it twice never ends.
    const unique = [...new Set(ids)];
    while (done.size < unique.length) {
      opts.signal?.throwIfAborted();
      for (const id of unique) {
        if (done.has(id)) continue;
        const job = await this.mustGet(id);
        if (last.get(id) !== job.status) {
          last.set(id, job.status);
          opts.onChange?.(job);
        }
        if (isTerminal(job)) done.set(id, job);
      }
      if (done.size < unique.length) await sleep(opts.pollMs ?? 50, undefined, { signal: opts.signal });
    }
    return ids.map((id) => done.get(id) as JobRecord);
  }

  /**
   * Stop this process's workers (they finish or hand back their jobs) and keep the store open: an
   * interrupted batch reads what ended and what is left before it closes.
   */
  async stopWorkers(graceMs?: number): Promise<void> {
    await Promise.all([...this.workers].map((w) => w.stop(graceMs)));
    this.workers.clear();
  }

  /** Graceful stop: workers finish or hand back their jobs, then the store closes. */
  async close(graceMs?: number): Promise<void> {
    await this.stopWorkers(graceMs);
    await Promise.all([this.store.close(), this.blobStore?.close()]);
  }

  private wakeWorkers(): void {
    for (const w of this.workers) w.wake();
  }
}
