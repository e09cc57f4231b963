import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { RateLimiter } from '../../src/limits/rate-limit.js';
import { SqliteLimitStore } from '../../src/limits/sqlite.js';
import { tmpHome } from '../engine/support/tmp-home.js';

describe('RateLimiter', () => {
  const rule = { bucket: 'uploads', limit: 3, windowMs: 3_600_000 };

  it('allows up to the limit per window and subject, then says how long to wait', () => {
    const home = tmpHome();
    const limiter = new RateLimiter(new SqliteLimitStore(openDatabase(home.dir)));
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    for (let i = 0; i < 3; i++) expect(limiter.hit(rule, 'key-a', t0).allowed).toBe(true);
    const refused = limiter.hit(rule, 'key-a', t0 + 60_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 3_540 });
    expect(limiter.hit(rule, 'key-b', t0).allowed).toBe(true);
    expect(limiter.hit(rule, 'key-a', t0 + 3_600_000).allowed).toBe(true);
    home.cleanup();
  });

  it('reserve commits each hit at once: two limiters on one file share the limit exactly', async () => {
    const home = tmpHome();
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    const a = new RateLimiter(new SqliteLimitStore(openDatabase(home.dir)));
    const b = new RateLimiter(new SqliteLimitStore(openDatabase(home.dir)));
    const decisions = [];
    for (let i = 0; i < 3; i++)
      decisions.push(await a.reserve(rule, 'key-a', t0), await b.reserve(rule, 'key-a', t0));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false, false]);
    expect(decisions[2]).toMatchObject({ remaining: 0 });
    expect(decisions[3]).toMatchObject({ retryAfterSeconds: 3_600 });
    expect((await a.reserve(rule, 'key-a', t0 + rule.windowMs)).allowed).toBe(true);
    home.cleanup();
  });

  it('two limiters on one file see the hits of each other once flushed', async () => {
    const home = tmpHome();
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    const db = openDatabase(home.dir);
    const a = new RateLimiter(new SqliteLimitStore(db));
    const b = new RateLimiter(new SqliteLimitStore(openDatabase(home.dir)));
    a.hit(rule, 'key-a', t0);
    a.hit(rule, 'key-a', t0);
    await a.flush(t0);
    expect(b.hit(rule, 'key-a', t0).remaining).toBe(0);
    expect(b.hit(rule, 'key-a', t0).allowed).toBe(false);
    home.cleanup();
  });

  it('counts survive a restart: a new limiter on the same file sees them', async () => {
    const home = tmpHome();
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    const first = openDatabase(home.dir);
    const before = new RateLimiter(new SqliteLimitStore(first));
    for (let i = 0; i < 3; i++) before.hit(rule, 'key-a', t0);
    await before.flush(t0);
    first.close();
    const again = new RateLimiter(new SqliteLimitStore(openDatabase(home.dir)));
    expect(again.hit(rule, 'key-a', t0 + 1).allowed).toBe(false);
    home.cleanup();
  });

  it('hits of a window that ended before a flush are still written', async () => {
    const home = tmpHome();
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    const a = new RateLimiter(new SqliteLimitStore(openDatabase(home.dir)));
    a.hit(rule, 'key-a', t0);
    a.hit(rule, 'key-a', t0);
    a.hit(rule, 'key-a', t0 + rule.windowMs);
    await a.flush(t0 + rule.windowMs);
    const b = new RateLimiter(new SqliteLimitStore(openDatabase(home.dir)));
    expect(b.hit(rule, 'key-a', t0).remaining).toBe(0);
    expect(b.hit(rule, 'key-a', t0 + rule.windowMs).remaining).toBe(1);
    home.cleanup();
  });
});
