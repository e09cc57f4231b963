import type Database from 'better-sqlite3';
import { retryBusy } from '../engine/sqlite/busy.js';

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
  /** The count as last read from or written to SQLite, plus this process's hits since. */
  count: number;
  /** Hits not yet written to SQLite. */
  unsaved: number;
}

/** How often counted hits are written to SQLite. */
export const FLUSH_INTERVAL_MS = 250;

/**
 * Fixed-window counters per key. Counting happens in memory and is written behind to SQLite every
 * FLUSH_INTERVAL_MS (and on close), so hourly and daily limits outlive a restart and are shared by processes
 * on the same file, without a disk commit on every request: a commit per hit cost the reference-data routes
 * most of their throughput. The price: a crash can forget the last fraction of a second of hits, and two
 * processes see each other's hits up to one flush late.
 */
export class RateLimiter {
  private readonly readStmt;
  private readonly addStmt;
  private readonly pruneStmt;
  private readonly reserveStmt;
  /**
   * The current window per rule bucket and subject. Nested maps on strings the caller already holds, rather
   * than one map on a key built per hit: building and hashing that key was most of a hit's cost.
   */
  private readonly current = new Map<string, Map<string, Window>>();
  /** Windows replaced by a newer one while they still had hits to write. */
  private retired: Window[] = [];
  private readonly flushAll;
  private timer: NodeJS.Timeout | undefined;
  private lastPrune = 0;
  private failures = 0;

  /** `onFlush` hears each background flush: null when it was written, the error when it was not. */
  constructor(
    db: Database.Database,
    private readonly onFlush?: (error: unknown) => void,
  ) {
    this.readStmt = db.prepare<[string, string, number], { count: number }>(
      'SELECT count FROM rate_counters WHERE bucket = ? AND subject = ? AND window_start = ?',
    );
    this.addStmt = db.prepare<[string, string, number, number], { count: number }>(
      `INSERT INTO rate_counters (bucket, subject, window_start, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (bucket, subject, window_start) DO UPDATE SET count = count + excluded.count
       RETURNING count`,
    );
    this.pruneStmt = db.prepare('DELETE FROM rate_counters WHERE window_start < ?');
    // One statement, so it is atomic against every other process on the file: the count grows only while
    // it is under the limit, and no row comes back when it is not.
    this.reserveStmt = db.prepare<
      { bucket: string; subject: string; windowStart: number; limit: number },
      { count: number }
    >(
      `INSERT INTO rate_counters (bucket, subject, window_start, count)
       VALUES (@bucket, @subject, @windowStart, 1)
       ON CONFLICT (bucket, subject, window_start) DO UPDATE SET count = count + 1 WHERE count < @limit
       RETURNING count`,
    );
    // Writes only: the windows change after the commit, so a flush that fails (locked, disk full) loses
    // no hit and the next one writes them all.
    this.flushAll = db.transaction((now: number) => {
      const saved: [Window, number][] = [];
      for (const w of this.windowsToSave()) {
        const row = this.addStmt.get(w.bucket, w.subject, w.windowStart, w.unsaved) as { count: number };
        saved.push([w, row.count]);
      }
      if (now - this.lastPrune > 60_000) this.pruneStmt.run(now - 2 * 86_400_000);
      return saved;
    });
  }

  private *windowsToSave(): Generator<Window> {
    for (const w of this.retired) if (w.unsaved > 0) yield w;
    for (const bySubject of this.current.values())
      for (const w of bySubject.values()) if (w.unsaved > 0) yield w;
  }

  /** Count one hit against each rule in order, stopping at the first refusal (later rules are not counted). */
  hitAll(
    rules: readonly RateRule[],
    subject: string,
    now = Date.now(),
  ): { rule: RateRule; decision: RateDecision } | null {
    let last: { rule: RateRule; decision: RateDecision } | null = null;
    for (const rule of rules) {
      last = { rule, decision: this.hit(rule, subject, now) };
      if (!last.decision.allowed) break;
    }
    return last;
  }

  /**
   * Take one unit of the limit in the database before the request is accepted: committed before the
   * answer, so the limit holds across processes sharing the file and across a crash (a write-behind hit
   * could be lost with the process). For limits on expensive requests (uploads), where a commit per hit
   * costs nothing next to the work it admits.
   */
  async reserve(rule: RateRule, subject: string, now = Date.now()): Promise<RateDecision> {
    const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
    const row = await retryBusy(() =>
      this.reserveStmt.get({ bucket: rule.bucket, subject, windowStart, limit: rule.limit }),
    );
    const allowed = row !== undefined;
    return {
      allowed,
      limit: rule.limit,
      remaining: allowed ? Math.max(0, rule.limit - row.count) : 0,
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)),
    };
  }

  /** Count a hit in memory, written behind (cheap, for high-rate limits; see the class comment). */
  hit(rule: RateRule, subject: string, now = Date.now()): RateDecision {
    const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
    let bySubject = this.current.get(rule.bucket);
    if (!bySubject) {
      bySubject = new Map();
      this.current.set(rule.bucket, bySubject);
    }
    let w = bySubject.get(subject);
    if (w?.windowStart !== windowStart) {
      if (w && w.unsaved > 0) this.retired.push(w);
      const stored = this.readStmt.get(rule.bucket, subject, windowStart)?.count ?? 0;
      w = { bucket: rule.bucket, subject, windowStart, windowMs: rule.windowMs, count: stored, unsaved: 0 };
      bySubject.set(subject, w);
    }
    w.count += 1;
    w.unsaved += 1;
    this.scheduleFlush();
    const allowed = w.count <= rule.limit;
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - w.count),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)),
    };
  }

  /**
   * Write counted hits now (the server calls it on close; tests call it to simulate a restart). Throws
   * when the store cannot take the write; the hits stay counted in memory for the next flush.
   */
  flush(now = Date.now()): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const saved = this.flushAll.immediate(now);
    // RETURNING gave each total with other processes' hits, so this process catches up with them.
    for (const [w, count] of saved) {
      w.count = count;
      w.unsaved = 0;
    }
    this.retired = [];
    if (now - this.lastPrune > 60_000) this.lastPrune = now;
    for (const bySubject of this.current.values())
      for (const [subject, w] of bySubject) if (w.windowStart + w.windowMs < now) bySubject.delete(subject);
  }

  /**
   * The timer's flush. It runs outside any request, so a failure must not escape (an exception in a timer
   * ends the process): it is reported and retried after a growing pause, up to 5 s.
   */
  private flushLater(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        this.flush();
        this.failures = 0;
        this.onFlush?.(null);
      } catch (error) {
        this.failures += 1;
        this.onFlush?.(error);
        this.flushLater(Math.min(5_000, FLUSH_INTERVAL_MS * 2 ** Math.min(this.failures, 5)));
      }
    }, delayMs);
    this.timer.unref();
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.flushLater(FLUSH_INTERVAL_MS);
  }
}
