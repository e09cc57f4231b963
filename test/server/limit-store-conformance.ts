import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/limits/rate-limit.js';
import type { LimitStore } from '../../src/limits/store.js';

/** One shared database (SQLite file or PostgreSQL) that several "nodes" open. */
export interface LimitBackend {
  /** A store instance on the shared database, as one node opens it. */
  node(): Promise<LimitStore>;
  cleanup(): void | Promise<void>;
}

const HOUR = 3_600_000;
const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const window = (subject = 'key-a', windowStart = t0) => ({ bucket: 'uploads', subject, windowStart });

/**
 * The promises every LimitStore keeps: test/server/sqlite-limit-store.test.ts and
 * test/server/pg-limit-store.test.ts (against a real PostgreSQL server) run it.
 */
export function testLimitStore(name: string, backend: () => Promise<LimitBackend>): void {
  describe(`LimitStore conformance: ${name}`, () => {
    let db: LimitBackend;
    let opened: LimitStore[];
    const node = async () => {
      const store = await db.node();
      opened.push(store);
      return store;
    };

    beforeEach(async () => {
      db = await backend();
      opened = [];
    });
    afterEach(async () => {
      for (const s of opened) await s.close();
      await db.cleanup();
    });

    it('reserve counts up to the limit and then takes nothing; windows and subjects are apart', async () => {
      const store = await node();
      const counts = [];
      for (let i = 0; i < 4; i++) counts.push(await store.reserve(window(), 3));
      expect(counts).toEqual([1, 2, 3, null]);
      expect(await store.read(window())).toBe(3);
      expect(await store.reserve(window('key-b'), 3)).toBe(1);
      expect(await store.reserve(window('key-a', t0 + HOUR), 3)).toBe(1);
      expect(await store.read(window('key-c'))).toBe(0);
    });

    it('two nodes racing 150 uploads of one key against a limit of 100: exactly 100 are allowed', async () => {
      const [a, b] = [await node(), await node()];
      const rule = { bucket: 'uploads', limit: 100, windowMs: HOUR };
      const [la, lb] = [new RateLimiter(a), new RateLimiter(b)];
      const decisions = await Promise.all(
        Array.from({ length: 150 }, (_, i) => (i % 2 ? la : lb).reserve(rule, 'key-a', t0)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
      expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds === 3_600)).toBe(true);
      expect(await a.read(window())).toBe(100);
      expect((await lb.reserve(rule, 'key-a', t0 + 1)).allowed).toBe(false);
    });

    it('add sums into each window atomically and answers the totals with every node’s hits', async () => {
      const [a, b] = [await node(), await node()];
      expect(await a.add([{ ...window(), count: 2 }], null)).toEqual([2]);
      expect(
        await b.add(
          [
            { ...window(), count: 3 },
            { ...window('key-b'), count: 1 },
          ],
          null,
        ),
      ).toEqual([5, 1]);
      // The same window twice in one batch (a window retired and started again) adds both.
      expect(
        await a.add(
          [
            { ...window(), count: 1 },
            { ...window(), count: 1 },
          ],
          null,
        ),
      ).toEqual([7, 7]);
      expect(await b.read(window())).toBe(7);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).add([{ ...window(), count: 1 }], null)),
      );
      expect(await a.read(window())).toBe(27);
    });

    it('add prunes windows that started before the given time', async () => {
      const store = await node();
      await store.add([{ ...window('key-a', t0 - 3 * HOUR), count: 4 }], null);
      await store.add([{ ...window(), count: 1 }], t0 - HOUR);
      expect(await store.read(window('key-a', t0 - 3 * HOUR))).toBe(0);
      expect(await store.read(window())).toBe(1);
    });

    it('write-behind hits flushed by one node count on another', async () => {
      const [a, b] = [await node(), await node()];
      const rule = { bucket: 'reads', limit: 3, windowMs: HOUR };
      const [la, lb] = [new RateLimiter(a), new RateLimiter(b)];
      for (let i = 0; i < 3; i++) expect(la.hit(rule, 'key-a', t0).allowed).toBe(true);
      await la.flush(t0);
      lb.hit(rule, 'key-b', t0);
      lb.hit(rule, 'key-a', t0);
      await lb.flush(t0);
      expect(lb.hit(rule, 'key-a', t0 + 1)).toMatchObject({ allowed: false, remaining: 0 });
      expect(lb.hit(rule, 'key-b', t0 + 1)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await a.read({ bucket: 'reads', subject: 'key-a', windowStart: t0 })).toBe(4);
    });
  });
}
