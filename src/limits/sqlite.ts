import type Database from 'better-sqlite3';
import { retryBusy } from '../engine/sqlite/busy.js';
import { openDatabase } from '../engine/sqlite/open-database.js';
import type { StoreTarget } from '../store/target.js';
import { type LimitStore, type WindowCount, type WindowKey, windowId } from './store.js';

/** Rate-limit counters in the home's SQLite file (rate_counters, migration 0004). */
export class SqliteLimitStore implements LimitStore {
  readonly sync: NonNullable<LimitStore['sync']>;
  private readonly reserveStmt;

  /** `owned`: the store opened `db` and closes it with itself. */
  constructor(
    private readonly db: Database.Database,
    private readonly owned = false,
  ) {
    const readStmt = db.prepare<[string, string, number], { count: number }>(
      'SELECT count FROM rate_counters WHERE bucket = ? AND subject = ? AND window_start = ?',
    );
    const addStmt = db.prepare<[string, string, number, number], { count: number }>(
      `INSERT INTO rate_counters (bucket, subject, window_start, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (bucket, subject, window_start) DO UPDATE SET count = count + excluded.count
       RETURNING count`,
    );
    const pruneStmt = db.prepare('DELETE FROM rate_counters WHERE window_start < ?');
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
    const addAll = db.transaction((counts: readonly WindowCount[], pruneBefore: number | null) => {
      const totals = new Map<string, number>();
      for (const c of counts)
        totals.set(windowId(c), addStmt.get(c.bucket, c.subject, c.windowStart, c.count)?.count ?? 0);
      if (pruneBefore !== null) pruneStmt.run(pruneBefore);
      // A window sent twice (retired and started again) answers its total after both, as PostgreSQL's does.
      return counts.map((c) => totals.get(windowId(c)) ?? 0);
    });
    this.sync = {
      read: (w) => readStmt.get(w.bucket, w.subject, w.windowStart)?.count ?? 0,
      add: (counts, pruneBefore) => addAll.immediate(counts, pruneBefore),
    };
  }

  static open(target: StoreTarget): SqliteLimitStore {
    return target.db
      ? new SqliteLimitStore(target.db)
      : new SqliteLimitStore(openDatabase(target.home), true);
  }

  async reserve(w: WindowKey, limit: number): Promise<number | null> {
    const row = await retryBusy(() => this.reserveStmt.get({ ...w, limit }));
    return row?.count ?? null;
  }

  async add(counts: readonly WindowCount[], pruneBefore: number | null): Promise<number[]> {
    return this.sync.add(counts, pruneBefore);
  }

  async read(w: WindowKey): Promise<number> {
    return this.sync.read(w);
  }

  async close(): Promise<void> {
    if (this.owned) this.db.close();
  }
}
