import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreTarget } from '../store/target.js';
import { createPool, openFailure } from './postgres/connect.js';
import { migratePg } from './postgres/migrate.js';
import { describeUrl, isPostgresUrl } from './postgres/url.js';
import { DB_FILENAME, openDatabase } from './sqlite/open-database.js';
import { fileSchemaVersion, schemaVersion } from './sqlite/version.js';

export interface MigrationResult {
  store: 'sqlite' | 'postgres';
  /** The file, or host/database (never the connection string: it may hold a password). */
  location: string;
  from: number;
  to: number;
}

/** The home's SQLite file: jobs (unless --store says otherwise), API keys, rate limits, reference data. */
function migrateHome(home: string): MigrationResult {
  const file = join(home, DB_FILENAME);
  const from = existsSync(file) ? fileSchemaVersion(file) : 0;
  const db = openDatabase(home);
  const to = schemaVersion(db);
  db.close();
  return { store: 'sqlite', location: file, from, to };
}

async function migratePostgres(url: string): Promise<MigrationResult> {
  const pool = createPool(url, 1);
  try {
    const { from, to } = await migratePg(pool);
    return { store: 'postgres', location: describeUrl(url), from, to };
  } catch (cause) {
    throw openFailure(url, cause);
  } finally {
    await pool.end().catch(() => {});
  }
}

/**
 * `assay db migrate`: bring every store this node uses to this version's schema. The home's file always
 * (it keeps keys, limits and reference data even when jobs live in PostgreSQL), and the PostgreSQL job store
 * when --store names one. Safe to run on several nodes at once and to run again.
 */
export async function migrateStores(target: StoreTarget): Promise<MigrationResult[]> {
  const results = [migrateHome(target.home)];
  if (isPostgresUrl(target.store)) results.push(await migratePostgres(target.store));
  return results;
}
