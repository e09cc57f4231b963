import { setTimeout as sleep } from 'node:timers/promises';
import { FileBlobStore } from '../blobs/file.js';
import type { BlobStore } from '../blobs/store.js';
import { NotFoundError } from '../errors.js';
import type { JobRegistry } from './registry.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { JobStore } from './store.js';
import { type JobRecord, type NewJob, TERMINAL_STATES } from './types.js';
import { type SettledEvent, Worker, type WorkerOptions } from './worker.js';

export const isTerminal = (job: JobRecord): boolean => TERMINAL_STATES.includes(job.state);

/** Up to this many unfinished jobs, waitFor reads each on every poll. */
const FEW_JOBS = 8;
/** Every unfinished job waitFor waits for is read at least this often. */
const SWEEP_MS = 2_000;

/**
 * The one job engine every command and route goes through: a store under ASSAY_HOME, the registered job
 * kinds, and the workers this process runs.
 */
export class Engine {
  private readonly workers = new Set<Worker>();
  /** waitFor's listeners for jobs this process's workers settle. */
  private readonly settledListeners = new Set<(id: string) => void>();

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
    worker.on('settled', (event: SettledEvent) => {
      for (const listener of this.settledListeners) listener(event.id);
    });
    this.workers.add(worker);
    return worker;
  }

  /**
   * Resolve when every job has reached a terminal state. Reads the store, not in-process events, so it also
   * sees jobs finished by workers in other processes; `onChange` is called with each job whose status
   * differs from the one last read.
   *
   * A few jobs are read by id on every poll. Many are not: reading them all (payloads parsed) on every poll
   * took a fifth of a 1,000-report batch's main thread. Each poll instead reads, by id, only the jobs that
   * can have changed: those this process's workers just settled (which also ends the poll's sleep early),
   * those the one query for running jobs no longer lists, and a rotating share of the rest, so that every
   * job is still read about every SWEEP_MS (what another process ran start to end between two polls,
   * or cancelled, is seen by then). Running jobs come from that query. Where the store can tell, one query
   * per poll gives those jobs' states and only the ones that changed are read whole (readChanged).
   */
  async waitFor(
    ids: string[],
    opts: { pollMs?: number; signal?: AbortSignal; onChange?: (job: JobRecord) => void } = {},
  ): Promise<JobRecord[]> {
    const pollMs = opts.pollMs ?? 50;
    const last = new Map<string, string>();
    const done = new Map<string, JobRecord>();
    // The same id twice (identical PDFs share one job) is one job to wait for: counting it twice never ends.
    const unique = [...new Set(ids)];
    const observe = (job: JobRecord) => {
      if (last.get(job.id) !== job.status) {
        last.set(job.id, job.status);
        opts.onChange?.(job);
      }
      if (isTerminal(job)) done.set(job.id, job);
    };
    const read = async (id: string) => {
      if (!done.has(id)) observe(await this.mustGet(id));
    };
    // Jobs waited for that this process's workers settled since the last poll; each ends the poll's sleep.
    const waitedFor = new Set(unique);
    const settled = new Set<string>();
    let wake: (() => void) | undefined;
    const onSettled = (id: string) => {
      if (!waitedFor.has(id) || done.has(id)) return;
      settled.add(id);
      wake?.();
    };
    this.settledListeners.add(onSettled);
    try {
      let running = new Set<string>();
      let cursor = 0;
      for (let poll = 0; done.size < unique.length; poll++) {
        opts.signal?.throwIfAborted();
        const pending = unique.filter((id) => !done.has(id));
        if (poll === 0 || pending.length <= FEW_JOBS) {
          settled.clear();
          for (const id of pending) await read(id);
        } else {
          const now = new Set<string>();
          for (const job of await this.store.list({ state: 'running', limit: pending.length + 100 })) {
            if (!waitedFor.has(job.id) || done.has(job.id)) continue;
            now.add(job.id);
            observe(job);
          }
          const changed = new Set(settled);
          settled.clear();
          for (const id of running) if (!now.has(id)) changed.add(id);
          running = now;
          // The rotating share: every unfinished job about once per SWEEP_MS.
          const share = Math.ceil((pending.length * pollMs) / SWEEP_MS);
          for (let step = 0, taken = 0; step < unique.length && taken < share; step++) {
            const id = unique[cursor] as string;
            cursor = (cursor + 1) % unique.length;
            if (done.has(id)) continue;
            changed.add(id);
            taken++;
          }
          await this.readChanged([...changed], last, read);
        }
        if (done.size < unique.length && settled.size === 0)
          await this.nap(pollMs, opts.signal, (w) => (wake = w));
        wake = undefined;
      }
    } finally {
      this.settledListeners.delete(onSettled);
    }
    return ids.map((id) => done.get(id) as JobRecord);
  }

  /**
   * Read, of `ids`, the jobs whose state or status may differ from the one last seen. A store that can tell
   * (JobStore.states) says in one query which did, and only those are read whole: the rest of a large wait's
   * rotating share costs one indexed lookup each, not a row with its payload parsed.
   */
  private async readChanged(
    ids: string[],
    last: Map<string, string>,
    read: (id: string) => Promise<void>,
  ): Promise<void> {
    if (!this.store.states || ids.length === 0) {
      for (const id of ids) await read(id);
      return;
    }
    const now = new Map((await this.store.states(ids)).map((row) => [row.id, row]));
    for (const id of ids) {
      const row = now.get(id);
      // A job gone from the store is read too: reading it says so (NotFoundError), as before.
      if (!row || TERMINAL_STATES.includes(row.state) || last.get(id) !== row.status) await read(id);
    }
  }

  /** Sleep `ms` unless woken first (through the function given to `onWake`); aborts as `sleep` does. */
  private async nap(
    ms: number,
    signal: AbortSignal | undefined,
    onWake: (wake: () => void) => void,
  ): Promise<void> {
    const woken = new AbortController();
    onWake(() => woken.abort());
    try {
      await sleep(ms, undefined, { signal: signal ? AbortSignal.any([signal, woken.signal]) : woken.signal });
    } catch (error) {
      if (!woken.signal.aborted || signal?.aborted) throw error;
    }
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
