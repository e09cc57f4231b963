/** One fixed window of one rule for one subject (an API key id). */
export interface WindowKey {
  bucket: string;
  subject: string;
  windowStart: number;
}

export interface WindowCount extends WindowKey {
  count: number;
}

/** One string per window, for maps. */
export const windowId = (w: WindowKey): string => `${w.bucket}\u0000${w.subject}\u0000${w.windowStart}`;

/**
 * Rate-limit counters shared by every process on the store: the home's SQLite file (sqlite.ts) or a
 * PostgreSQL database every node shares (postgres.ts). The counting itself happens in memory in RateLimiter
 * (rate-limit.ts); this is only what must be shared.
 */
export interface LimitStore {
  /**
   * Take one unit of the window if its count is under `limit`, atomically against every other process
   * and node: the new count, or null when the limit is reached (nothing is taken then).
   */
  reserve(window: WindowKey, limit: number): Promise<number | null>;
  /**
   * Add counted hits to their windows (each an atomic add), and when `pruneBefore` is given drop windows
   * that started before it. Each window's total after the batch, in order, with every process's hits.
   */
  add(counts: readonly WindowCount[], pruneBefore: number | null): Promise<number[]>;
  /** A window's stored count (0 when none). */
  read(window: WindowKey): Promise<number>;
  /**
   * The same two calls answered at once, for a store that can (SQLite): the limiter then counts a new
   * window from its stored count before the first hit, and a flush is done when it returns.
   */
  readonly sync?: {
    read(window: WindowKey): number;
    add(counts: readonly WindowCount[], pruneBefore: number | null): number[];
  };
  close(): Promise<void>;
}
