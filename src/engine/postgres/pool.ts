import type pg from 'pg';
import { createPool } from './connect.js';

const pools = new Map<string, { pool: pg.Pool; users: number }>();

/**
 * One pool per connection string per process, shared by every store on that database (jobs, keys, refdata,
 * ...), so a node holds one set of connections instead of one per store. Each sharedPool() call is one user;
 * releasePool() ends the pool when its last user lets go.
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

export async function releasePool(url: string): Promise<void> {
  const entry = pools.get(url);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  pools.delete(url);
  await entry.pool.end();
}
