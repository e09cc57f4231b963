import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import { migrate } from './migrate.js';

export const DB_FILENAME = 'assay.db';
/**
 * Written beside the database when it is made (and beside one opened without it, so homes from before it
 * get one): the home's record that it holds a store. A home with it and no database lost its store.
 */
export const STORE_MARKER = 'assay.db.created';

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
 * SQLite takes a missing or zero-byte file for a new, empty database. In a fresh home that is what it is;
 * in a home that has held a store (its marker, a WAL; for an empty file also uploads, reports, keys) the
 * store was deleted or truncated, and opening it would silently start over while the jobs it held are lost.
 * The hint names the files whose removal is the deliberate fresh start.
 */
function refuseNewStoreInUsedHome(home: string, file: string): void {
  const missing = !existsSync(file);
  if (!missing && statSync(file).size > 0) return;
  const signs = [STORE_MARKER, `${DB_FILENAME}-wal`, ...(missing ? [] : ['uploads', 'reports', 'keys'])];
  if (!signs.some((f) => existsSync(join(home, f)))) return;
  const remove = [DB_FILENAME, STORE_MARKER, `${DB_FILENAME}-wal`, `${DB_FILENAME}-shm`]
    .map((f) => join(home, f))
    .filter((f) => existsSync(f));
  const startAgain =
    'To start a new, empty store here on purpose (its jobs, API keys and limits are gone), delete ' +
    `${remove.join(', ')} and run again; or pass --home DIR.`;
  if (missing) {
    throw new StoreError(`The job store ${file} is missing although this home has held one.`, {
      code: 'store_missing',
      suggestions: [
        `Restore ${DB_FILENAME} (with its -wal file, if one was kept) from a backup.`,
        startAgain,
      ],
    });
  }
  throw new StoreError(`The job store ${file} is empty (0 bytes) although this home has been used.`, {
    suggestions: ['Restore it from a backup.', startAgain],
  });
}

/**
 * The home's record that it holds a store: made once, never overwritten. Best effort: a home that cannot be
 * written (a read-only copy) still opens.
 */
function markStore(home: string): void {
  const marker = join(home, STORE_MARKER);
  if (existsSync(marker)) return;
  try {
    writeFileSync(
      marker,
      `This home holds an assay job store (${DB_FILENAME}). While this file exists, assay refuses\n` +
        `to replace a missing ${DB_FILENAME} with an empty one; delete this file to start a new store\n` +
        'on purpose.\n',
      { flag: 'wx', mode: 0o600 },
    );
  } catch {}
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
  refuseNewStoreInUsedHome(home, file);
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
    markStore(home);
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
          suggestions: [
            `Move the file aside and delete ${join(home, STORE_MARKER)}, then run again to start a new ` +
              'store; or pass --home DIR.',
          ],
        },
      );
    }
    throw new StoreError(`Cannot open the job store ${file}: ${(cause as Error).message}`, { cause });
  }
}
