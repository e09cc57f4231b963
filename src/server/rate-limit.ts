import type Database from 'better-sqlite3';

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

  constructor(db: Database.Database) {
    this.readStmt = db.prepare<[string, string, number], { count: number }>(
      'SELECT count FROM rate_counters WHERE bucket = ? AND subject = ? AND window_start = ?',
    );
    this.addStmt = db.prepare<[string, string, number, number], { count: number }>(
      `INSERT INTO rate_counters (bucket, subject, window_start, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (bucket, subject, window_start) DO UPDATE SET count = count + excluded.count
       RETURNING count`,
    );
    this.pruneStmt = db.prepare('DELETE FROM rate_counters WHERE window_start < ?');
    this.flushAll = db.transaction((now: number) => {
      for (const w of this.retired) this.save(w);
      this.retired = [];
      for (const bySubject of this.current.values()) {
        for (const [subject, w] of bySubject) {
          this.save(w);
          if (w.windowStart + w.windowMs < now) bySubject.delete(subject);
        }
      }
      if (now - this.lastPrune > 60_000) {
        this.lastPrune = now;
        this.pruneStmt.run(now - 2 * 86_400_000);
      }
    });
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

  /** Write counted hits now (the server calls it on close; tests call it to simulate a restart). */
  flush(now = Date.now()): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushAll.immediate(now);
  }

  private save(w: Window): void {
    if (w.unsaved === 0) return;
    // RETURNING gives the total with other processes' hits, so this process catches up with them.
    w.count = (this.addStmt.get(w.bucket, w.subject, w.windowStart, w.unsaved) as { count: number }).count;
    w.unsaved = 0;
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }
}
