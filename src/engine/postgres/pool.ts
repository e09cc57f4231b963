import type pg from 'pg';
import { createPool, openFailure } from './connect.js';
import { migratePg } from './migrate.js';

interface Entry {
  pool: pg.Pool;
  users: number;
  /** The schema migration of this pool's database, run once however many stores open on it. */
  migrated?: Promise<unknown>;
}

const pools = new Map<string, Entry>();

/**
 * One pg.Pool per connection string per process, shared by the stores on it (keys, limits, ...), so a node
 * holds one set of connections rather than one per store. Each caller pairs it with releasePool(url).
 */
export function sharedPool(url: string): pg.Pool {
  return entryOf(url).pool;
}

function entryOf(url: string): Entry {
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
  return entry;
}

/**
 * sharedPool(url) with the database brought to this version's schema (migratePg): the first store a process
 * opens on the URL migrates, the others wait on that one migration instead of each taking the lock again.
 * When it fails the pool is given back and the error says what is wrong with the store.
 */
export async function openSharedPool(url: string): Promise<pg.Pool> {
  const entry = entryOf(url);
  entry.migrated ??= migratePg(entry.pool);
  try {
    await entry.migrated;
  } catch (cause) {
    entry.migrated = undefined;
    await releasePool(url).catch(() => {});
    throw openFailure(url, cause);
  }
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
