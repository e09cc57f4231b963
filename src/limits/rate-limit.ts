import type { LimitStore, WindowCount } from './store.js';

export interface RateRule {
  bucket: string;
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

interface Window {
  bucket: string;
  subject: string;
  windowStart: number;
  windowMs: number;
  /** The count as last read from or written to the store, plus this process's hits since. */
  count: number;
  /** Hits not yet written to the store. */
  unsaved: number;
  /** The store's count is in `count` (read, or returned by a flush); until then a read is under way. */
  synced: boolean;
}

/** How often counted hits are written to the store. */
export const FLUSH_INTERVAL_MS = 250;

const PRUNE_EVERY_MS = 60_000;
const KEEP_WINDOWS_MS = 2 * 86_400_000;

const decision = (rule: RateRule, count: number | null, windowStart: number, now: number): RateDecision => {
  const allowed = count !== null && count <= rule.limit;
  return {
    allowed,
    limit: rule.limit,
    remaining: count === null ? 0 : Math.max(0, rule.limit - count),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)),
  };
};

/**
 * Fixed-window counters per key. Counting happens in memory and is written behind to the store every
 * FLUSH_INTERVAL_MS (and on close), so hourly and daily limits outlive a restart and are shared by every
 * process and node on the store, without a write on every request: a commit per hit cost the
 * reference-data routes most of their throughput. The price: a crash can forget the last fraction of a
 * second of hits, and two processes see each other's hits up to one flush late. On a store that cannot
 * answer at once (PostgreSQL) a new window starts from this process's hits and adds the stored count when
 * the read returns. Limits that must hold exactly (uploads) use `reserve`, which asks the store each time.
 */
export class RateLimiter {
  /**
   * The current window per rule bucket and subject. Nested maps on strings the caller already holds, rather
   * than one map on a key built per hit: building and hashing that key was most of a hit's cost.
   */
  private readonly current = new Map<string, Map<string, Window>>();
  /** Windows replaced by a newer one while they still had hits to write. */
  private retired: Window[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastPrune = 0;
  private failures = 0;
  /** The flush under way: flushes run one after another, so no hit is sent twice. */
  private flushing: Promise<void> = Promise.resolve();

  /** `onFlush` hears each background flush: null when it was written, the error when it was not. */
  constructor(
    private readonly store: LimitStore,
    private readonly onFlush?: (error: unknown) => void,
  ) {}

  private *windowsToSave(): Generator<Window> {
    for (const w of this.retired) if (w.unsaved > 0) yield w;
    for (const bySubject of this.current.values())
      for (const w of bySubject.values()) if (w.unsaved > 0) yield w;
  }

  /**
   * Count one hit against each rule in order, stopping at the first refusal (later rules are not counted):
   * the refusing rule and its decision, or null when every rule allowed the hit. It runs on every read, so
   * an allowed hit builds no decision objects.
   */
  hitAll(
    rules: readonly RateRule[],
    subject: string,
    now = Date.now(),
  ): { rule: RateRule; decision: RateDecision } | null {
    for (const rule of rules) {
      const w = this.count(rule, subject, now);
      if (w.count > rule.limit) return { rule, decision: decision(rule, w.count, w.windowStart, now) };
    }
    return null;
  }

  /**
   * Take one unit of the limit in the store before the request is accepted: committed before the answer,
   * so the limit holds across processes and nodes sharing the store and across a crash (a write-behind hit
   * could be lost with the process). For limits on expensive requests (uploads), where a write per hit
   * costs nothing next to the work it admits.
   */
  async reserve(rule: RateRule, subject: string, now = Date.now()): Promise<RateDecision> {
    const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
    const count = await this.store.reserve({ bucket: rule.bucket, subject, windowStart }, rule.limit);
    return decision(rule, count, windowStart, now);
  }

  /** Count a hit in memory, written behind (cheap, for high-rate limits; see the class comment). */
  hit(rule: RateRule, subject: string, now = Date.now()): RateDecision {
    const w = this.count(rule, subject, now);
    return decision(rule, w.count, w.windowStart, now);
  }

  private count(rule: RateRule, subject: string, now: number): Window {
    const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
    let bySubject = this.current.get(rule.bucket);
    if (!bySubject) {
      bySubject = new Map();
      this.current.set(rule.bucket, bySubject);
    }
    let w = bySubject.get(subject);
    if (w?.windowStart !== windowStart) {
      if (w && w.unsaved > 0) this.retired.push(w);
      w = this.startWindow(rule, subject, windowStart);
      bySubject.set(subject, w);
    }
    w.count += 1;
    w.unsaved += 1;
    this.scheduleFlush();
    return w;
  }

  private startWindow(rule: RateRule, subject: string, windowStart: number): Window {
    const key = { bucket: rule.bucket, subject, windowStart };
    if (this.store.sync) {
      const count = this.store.sync.read(key);
      return { ...key, windowMs: rule.windowMs, count, unsaved: 0, synced: true };
    }
    const w: Window = { ...key, windowMs: rule.windowMs, count: 0, unsaved: 0, synced: false };
    // A failed read is left to the next flush, whose totals bring the window up to date.
    this.store.read(key).then(
      (stored) => {
        if (w.synced) return;
        w.count += stored;
        w.synced = true;
      },
      () => {},
    );
    return w;
  }

  /**
   * Write counted hits now (the server calls it on close; tests call it to simulate a restart). Rejects
   * when the store cannot take the write; the hits stay counted in memory for the next flush. On a store
   * that answers at once (SQLite) the write is done when this returns, before the promise settles.
   */
  flush(now = Date.now()): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.store.sync) {
      try {
        this.apply(this.store.sync.add, now);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const run = this.flushing.then(() =>
      this.applyAsync((counts, prune) => this.store.add(counts, prune), now),
    );
    this.flushing = run.catch(() => {});
    return run;
  }

  private apply(add: (counts: WindowCount[], pruneBefore: number | null) => number[], now: number): void {
    const [batch, counts, prune] = this.batch(now);
    this.settle(batch, add(counts, prune), prune !== null, now);
  }

  private async applyAsync(
    add: (counts: WindowCount[], pruneBefore: number | null) => Promise<number[]>,
    now: number,
  ): Promise<void> {
    const [batch, counts, prune] = this.batch(now);
    this.settle(batch, await add(counts, prune), prune !== null, now);
  }

  /** The windows to write, each with the hits being written now (more may come while the write is out). */
  private batch(now: number): [Array<[Window, number]>, WindowCount[], number | null] {
    const batch = [...this.windowsToSave()].map((w): [Window, number] => [w, w.unsaved]);
    const counts = batch.map(([w, count]) => ({
      bucket: w.bucket,
      subject: w.subject,
      windowStart: w.windowStart,
      count,
    }));
    return [batch, counts, now - this.lastPrune > PRUNE_EVERY_MS ? now - KEEP_WINDOWS_MS : null];
  }

  /** The store's totals include every process's hits, so this process catches up with them. */
  private settle(batch: Array<[Window, number]>, totals: number[], pruned: boolean, now: number): void {
    for (const [i, [w, sent]] of batch.entries()) {
      w.unsaved -= sent;
      w.count = (totals[i] as number) + w.unsaved;
      w.synced = true;
    }
    this.retired = this.retired.filter((w) => w.unsaved > 0);
    if (pruned) this.lastPrune = now;
    for (const bySubject of this.current.values())
      for (const [subject, w] of bySubject)
        if (w.windowStart + w.windowMs < now && w.unsaved === 0) bySubject.delete(subject);
  }

  /**
   * The timer's flush. It runs outside any request, so a failure must not escape (an exception in a timer
   * ends the process): it is reported and retried after a growing pause, up to 5 s.
   */
  private flushLater(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().then(
        () => {
          this.failures = 0;
          this.onFlush?.(null);
        },
        (error: unknown) => {
          this.failures += 1;
          this.onFlush?.(error);
          this.flushLater(Math.min(5_000, FLUSH_INTERVAL_MS * 2 ** Math.min(this.failures, 5)));
        },
      );
    }, delayMs);
    this.timer.unref();
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.flushLater(FLUSH_INTERVAL_MS);
  }
}
