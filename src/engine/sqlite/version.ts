import Database from 'better-sqlite3';

/**
 * The SQLite library inside the native module. Asked of a throwaway in-memory database, so it throws what
 * loading the module throws (no prebuilt binary, a failed build) without touching any home.
 */
export function sqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  } finally {
    db.close();
  }
}

/** The schema a store file is at: migrate.ts records its last migration in user_version. */
export const schemaVersion = (db: Database.Database): number =>
  db.pragma('user_version', { simple: true }) as number;

/** The schema of a store file as it is: openDatabase would migrate it first. */
export function fileSchemaVersion(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return schemaVersion(db);
  } finally {
    db.close();
  }
}
