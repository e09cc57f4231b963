import type pg from 'pg';
import { StoreError } from '../../errors.js';
import { loadMigrations } from '../migration-files.js';
import { inTransaction } from './connect.js';

/** Any fixed number: every node that migrates takes this advisory lock, so only one applies each step. */
const MIGRATION_LOCK = 0x61737361;

export interface MigrationReport {
  from: number;
  to: number;
  applied: string[];
}

/**
 * Apply the numbered migrations the database has not seen, all in one transaction (PostgreSQL's DDL is
 * transactional, so a failed step leaves nothing half done), under an advisory lock so nodes starting
 * together do not race. `assay_migrations` records each one. A schema from a newer assay is refused.
 */
export async function migratePg(pool: pg.Pool): Promise<MigrationReport> {
  const migrations = loadMigrations('postgres');
  const latest = migrations.at(-1)?.version ?? 0;
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS assay_migrations (
         version    integer PRIMARY KEY,
         name       text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM assay_migrations',
    );
    const current = rows[0]?.v ?? 0;
    if (current > latest) {
      throw new StoreError(
        `The PostgreSQL store was written by a newer assay (schema ${current}, this one knows ${latest}).`,
        { suggestions: ['Upgrade assay on this node to the version the other nodes run.'] },
      );
    }
    const applied: string[] = [];
    for (const m of migrations) {
      if (m.version <= current) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO assay_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.name);
    }
    return { from: current, to: latest, applied };
  });
}
