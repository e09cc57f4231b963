import type pg from 'pg';
import { inTransaction } from '../engine/postgres/connect.js';
import { openSharedPool, releasePool } from '../engine/postgres/pool.js';
import { type LimitStore, type WindowCount, type WindowKey, windowId } from './store.js';

/** Rate-limit counters in a PostgreSQL database every node shares (migration 0003_keys_limits.sql). */
export class PgLimitStore implements LimitStore {
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  /** Connect (one pool per URL per process) and bring the schema to this version's. */
  static async open(url: string): Promise<PgLimitStore> {
    const pool = await openSharedPool(url);
    return new PgLimitStore(pool, url);
  }

  /**
   * One statement: the conflicting row is locked and its WHERE read again on the newest version, so
   * concurrent reserves on any node queue on the row and the count never passes the limit.
   */
  async reserve(w: WindowKey, limit: number): Promise<number | null> {
    const { rows } = await this.pool.query<{ count: number }>(
      `INSERT INTO rate_counters (bucket, subject, window_start, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (bucket, subject, window_start) DO UPDATE SET count = rate_counters.count + 1
         WHERE rate_counters.count < $4
       RETURNING count`,
      [w.bucket, w.subject, w.windowStart, limit],
    );
    return rows[0]?.count ?? null;
  }

  /**
   * All windows in one upsert. The same window twice in one statement is an error in PostgreSQL, so the
   * counts are summed per window first; rows go in a fixed order so two nodes' flushes lock them in the
   * same order and cannot deadlock.
   */
  async add(counts: readonly WindowCount[], pruneBefore: number | null): Promise<number[]> {
    const merged = new Map<string, WindowCount>();
    for (const c of counts) {
      const id = windowId(c);
      const seen = merged.get(id);
      merged.set(id, seen ? { ...seen, count: seen.count + c.count } : { ...c });
    }
    const rows = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
    const totals = new Map<string, number>();
    await inTransaction(this.pool, async (client) => {
      if (rows.length) {
        const result = await client.query<{
          bucket: string;
          subject: string;
          window_start: number;
          count: number;
        }>(
          `INSERT INTO rate_counters (bucket, subject, window_start, count)
           SELECT b, s, w, c FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[])
             WITH ORDINALITY AS t(b, s, w, c, n) ORDER BY n
           ON CONFLICT (bucket, subject, window_start) DO UPDATE
             SET count = rate_counters.count + excluded.count
           RETURNING bucket, subject, window_start, count`,
          [
            rows.map((r) => r.bucket),
            rows.map((r) => r.subject),
            rows.map((r) => r.windowStart),
            rows.map((r) => r.count),
          ],
        );
        for (const r of result.rows)
          totals.set(
            windowId({ bucket: r.bucket, subject: r.subject, windowStart: r.window_start }),
            r.count,
          );
      }
      if (pruneBefore !== null)
        await client.query('DELETE FROM rate_counters WHERE window_start < $1', [pruneBefore]);
    });
    return counts.map((c) => totals.get(windowId(c)) ?? c.count);
  }

  async read(w: WindowKey): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(
      'SELECT count FROM rate_counters WHERE bucket = $1 AND subject = $2 AND window_start = $3',
      [w.bucket, w.subject, w.windowStart],
    );
    return rows[0]?.count ?? 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await releasePool(this.url);
  }
}
