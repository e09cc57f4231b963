import type { ApiKey } from './api-keys.js';
import { hashKey, KEY_PREFIX, MAX_KEY_LENGTH } from './material.js';
import type { KeyStore } from './store.js';

const MAX_CACHED_KEYS = 1_000;

/**
 * The server's check of a presented key. Keys verified in the last `cacheMs` are answered from memory, at
 * once (no promise): a store read per request was a large share of a small request's cost, and with a
 * PostgreSQL store it would be a network round trip. A key revoked anywhere is therefore refused by this
 * process at most `cacheMs` later.
 *
 * The caches are looked up by the presented value itself, so a cached key costs no hash: the store keeps
 * only hashes, but this process already holds every presented key in its request headers, and an entry
 * lives no longer than `cacheMs` past its last refresh (or until the cache is full and cleared).
 */
export class KeyVerifier {
  private readonly recent = new Map<string, { key: ApiKey; until: number }>();
  /**
   * Keys refused in the last `cacheMs`, apart from `recent` so a stream of wrong keys cannot push the good
   * ones out: a client retrying with a revoked key costs no store read per request. A key cannot be
   * presented before it is created (256 random bits), so a refusal cached here never hides a new key.
   */
  private readonly refused = new Map<string, number>();
  /** Reads under way per key, so a burst on a key not yet cached asks the store once. */
  private readonly pending = new Map<string, Promise<ApiKey | null>>();

  constructor(
    private readonly store: KeyStore,
    private readonly cacheMs: number,
  ) {}

  /** The active key matching a presented header value, or null: synchronous when it is cached. */
  check(presented: string | undefined, now = Date.now()): ApiKey | null | Promise<ApiKey | null> {
    // The length cap also bounds what the caches below can hold.
    if (!presented?.startsWith(KEY_PREFIX) || presented.length > MAX_KEY_LENGTH) return null;
    const cached = this.recent.get(presented);
    if (cached && cached.until > now) return cached.key;
    if ((this.refused.get(presented) ?? 0) > now) return null;
    let read = this.pending.get(presented);
    if (!read) {
      read = this.read(presented, now);
      this.pending.set(presented, read);
    }
    return read;
  }

  private async read(presented: string, now: number): Promise<ApiKey | null> {
    try {
      const key = await this.store.findActive(hashKey(presented));
      if (key) {
        if (this.recent.size >= MAX_CACHED_KEYS) this.recent.clear();
        this.recent.set(presented, { key, until: now + this.cacheMs });
      } else {
        this.recent.delete(presented);
        if (this.refused.size >= MAX_CACHED_KEYS) this.refused.clear();
        this.refused.set(presented, now + this.cacheMs);
      }
      return key;
    } finally {
      this.pending.delete(presented);
    }
  }
}
