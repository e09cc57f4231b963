import type Database from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import { loadMigrations } from '../migration-files.js';

/**
 * Apply the numbered migrations the file has not seen, each in its own transaction; `user_version` records
 * the last one. A file from a newer assay (higher version than we know) is refused rather than guessed at.
 * The version is read again under each transaction's write lock: processes opening a new file together
 * all see schema 0 first, and only one of them may apply each step.
 */
export function migrate(db: Database.Database): number {
  const migrations = loadMigrations('sqlite');
  const latest = migrations.at(-1)?.version ?? 0;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) {
    throw new StoreError(
      `The job store was written by a newer assay (schema ${current}, this one knows ${latest}).`,
      {
        suggestions: ['Upgrade assay, or point --home at another directory.'],
      },
    );
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) >= m.version) return;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return latest;
}
