import type pg from 'pg';
import { createPool } from './connect.js';

const pools = new Map<string, { pool: pg.Pool; users: number }>();

/**
 * One pool per connection string per process, shared by the stores that open it (blobs, keys, ...): each
 * pool holds its own connections, and a node opening one per store would use several times its share of
 * the server's max_connections. Every sharedPool call is paired with one releasePool call.
 */
export function sharedPool(url: string): pg.Pool {
  const entry = pools.get(url) ?? { pool: createPool(url), users: 0 };
  entry.users += 1;
  pools.set(url, entry);
  return entry.pool;
}

/** The last user's release ends the pool, so a command can exit once it closes its stores. */
export async function releasePool(url: string): Promise<void> {
  const entry = pools.get(url);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  pools.delete(url);
  await entry.pool.end().catch(() => {});
}
