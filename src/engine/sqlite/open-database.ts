import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import { migrate } from './migrate.js';

export const DB_FILENAME = 'assay.db';

/**
 * mkdir -p one level at a time: Node 20's recursive mkdir spins forever when a pseudo filesystem such as
 * /proc answers ENOENT for a directory it just failed to create.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  let current = resolve(dir);
  while (!existsSync(current) && dirname(current) !== current) {
    missing.unshift(current);
    current = dirname(current);
  }
  for (const d of missing) mkdirSync(d, { mode: 0o700 });
}

function ensureWritableHome(home: string): void {
  try {
    const isAssayHome = existsSync(join(home, DB_FILENAME));
    makeDirs(home);
    // A home written by an older assay was created 0755; it holds health data, so only its user may list it.
    if (isAssayHome) chmodSync(home, 0o700);
    if (!statSync(home).isDirectory()) throw new Error('not a directory');
    accessSync(home, constants.W_OK);
  } catch (cause) {
    throw new StoreError(`Cannot use ${home} as the assay home: it is not a writable directory.`, {
      cause,
      suggestions: ['Pass --home DIR or set ASSAY_HOME to a writable directory.'],
    });
  }
}

/**
 * SQLite takes a zero-byte file for a new, empty database. In a fresh home that is what it is; in a home
 * that has been used (uploads, reports, keys, a WAL) it is a store that was truncated, and opening it
 * would silently start over while the jobs it held are lost.
 */
function refuseEmptyStoreInUsedHome(home: string, file: string): void {
  if (!existsSync(file) || statSync(file).size > 0) return;
  const used = ['uploads', 'reports', 'keys', `${DB_FILENAME}-wal`].some((f) => existsSync(join(home, f)));
  if (!used) return;
  throw new StoreError(`The job store ${file} is empty (0 bytes) although this home has been used.`, {
    suggestions: [
      'Restore it from a backup, or move it aside to start a new store (its jobs are gone).',
      'Or pass --home DIR.',
    ],
  });
}

/**
 * The store readable by its user only. SQLite gives the -wal and -shm files the mode of the database file,
 * so a new file is made 0600 before SQLite opens it, and an existing one (and its companions) is tightened.
 */
function ownerOnly(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    // Best effort: a store another user made (shared read-only, say) still opens.
    try {
      chmodSync(f, 0o600);
    } catch {}
  }
}

/**
 * Open (creating if needed) the job store under `home`: WAL so readers never block the writer, a busy
 * timeout so processes sharing the file wait instead of failing, and the schema migrated to the latest.
 */
export function openDatabase(home: string, opts: { busyTimeoutMs?: number } = {}): Database.Database {
  ensureWritableHome(home);
  const file = join(home, DB_FILENAME);
  refuseEmptyStoreInUsedHome(home, file);
  let db: Database.Database | undefined;
  try {
    ownerOnly(file);
    db = new Database(file);
    // Opening and migrating may wait for another process's transaction; later statements wait as asked.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode is durable across process crashes (SIGKILL); only an OS crash may lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
    return db;
  } catch (cause) {
    db?.close();
    if (cause instanceof StoreError) throw cause;
    const code = (cause as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new StoreError(
        `The job store ${file} is not a valid SQLite database (corrupt or another file).`,
        {
          cause,
          suggestions: ['Move the file aside and run again to start a new store, or pass --home DIR.'],
        },
      );
    }
    throw new StoreError(`Cannot open the job store ${file}: ${(cause as Error).message}`, { cause });
  }
}
