import type Database from 'better-sqlite3';
import { isPostgresUrl } from '../engine/postgres/url.js';
import { UsageError } from '../errors.js';

/**
 * Where a node keeps its state, as --store / ASSAY_STORE names it. Every opener (jobs, kept files, API keys,
 * rate limits, reference data) takes this one target, so one flag moves them all together.
 */
export interface StoreTarget {
  home: string;
  /** Unset or 'sqlite': the home's SQLite file (and files beside it); a postgres:// URL: that database. */
  store?: string;
  /** An open connection to the home's SQLite file to use instead of opening one (the server's own). */
  db?: Database.Database;
}

/**
 * The PostgreSQL URL the target names, or null for the home. Anything else is a usage error, not the home:
 * a mistyped --store would otherwise leave this node on its own file while the others share a database.
 * `kept` completes the hint with what the caller keeps under --home ('jobs in the SQLite file').
 */
export function postgresUrl({ store }: StoreTarget, kept: string): string | null {
  if (!store || store === 'sqlite') return null;
  if (isPostgresUrl(store)) return store;
  throw new UsageError('--store (ASSAY_STORE) must be a postgres:// or postgresql:// connection string.', [
    `Leave it unset to keep ${kept} under --home.`,
  ]);
}
