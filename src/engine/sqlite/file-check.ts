import { statSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Notices the database file being deleted or replaced under an open connection. SQLite keeps working on
 * the unlinked file, so without this a server would accept work into a store nobody will ever open again.
 */
export class FileIdentity {
  private readonly dev: number;
  private readonly ino: number;

  constructor(readonly file: string) {
    const s = statSync(file);
    this.dev = s.dev;
    this.ino = s.ino;
  }

  /** Null while the path still names the file this connection opened. */
  problem(): 'store_file_missing' | 'store_file_replaced' | null {
    try {
      const s = statSync(this.file);
      return s.dev === this.dev && s.ino === this.ino ? null : 'store_file_replaced';
    } catch {
      return 'store_file_missing';
    }
  }
}

/**
 * `PRAGMA quick_check` on a connection of its own, so pages the caller's connection has cached cannot hide
 * damage on disk. Rerun only when the file changed (size or mtime; writes land in the WAL and reach the
 * file at checkpoints), as it reads every page.
 */
export class IntegrityCheck {
  private lastStamp = '';
  private lastOk = true;

  constructor(private readonly file: string) {}

  ok(): boolean {
    let stamp: string;
    try {
      const s = statSync(this.file);
      stamp = `${s.size}:${s.mtimeMs}`;
    } catch {
      return false;
    }
    if (stamp === this.lastStamp) return this.lastOk;
    this.lastStamp = stamp;
    let db: Database.Database | undefined;
    try {
      db = new Database(this.file, { readonly: true, fileMustExist: true });
      this.lastOk = db.pragma('quick_check(1)', { simple: true }) === 'ok';
    } catch {
      this.lastOk = false;
    } finally {
      db?.close();
    }
    return this.lastOk;
  }
}
