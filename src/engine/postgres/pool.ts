import type pg from 'pg';
import { createPool } from './connect.js';

const pools = new Map<string, { pool: pg.Pool; users: number }>();

/**
 * One pg.Pool per connection string per process, shared by the stores on it (keys, limits, ...), so a node
 * holds one set of connections rather than one per store. Each caller pairs it with releasePool(url).
 */
export function sharedPool(url: string): pg.Pool {
  let entry = pools.get(url);
  if (!entry) {
    const pool = createPool(url);
    // Idle connections do not keep the process alive: a store opened lazily for the life of a command
    // (the webhook kind's key store) has no one to close it, and must not hold `jobs work` open after it.
    pool.options.allowExitOnIdle = true;
    entry = { pool, users: 0 };
    pools.set(url, entry);
  }
  entry.users += 1;
  return entry.pool;
}

/** Give back one sharedPool(url); the last user's release closes the pool. */
export async function releasePool(url: string): Promise<void> {
  const entry = pools.get(url);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  pools.delete(url);
  await entry.pool.end();
}
