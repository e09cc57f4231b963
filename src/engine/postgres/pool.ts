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
    entry = { pool: createPool(url), users: 0 };
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
