import type Database from 'better-sqlite3';

/**
 * A check that takes the write lock and lets go at once: another process's long transaction shows here
 * before a real write would wait on it. The check answers null when the lock was free, else the SQLite code
 * of what stood in the way. Its statements are prepared once, here, since readiness is polled.
 */
export function writeLockProbe(db: Database.Database): () => string | null {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const rollback = db.prepare('ROLLBACK');
  return () => {
    try {
      begin.run();
      rollback.run();
      return null;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      return (error as { code?: string }).code ?? 'error';
    }
  };
}
