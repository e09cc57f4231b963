import type Database from 'better-sqlite3';
import { FileIdentity, IntegrityCheck } from '../engine/sqlite/file-check.js';
import { writeLockProbe } from '../engine/sqlite/write-probe.js';

/** The SQLite result codes that mean the store cannot take writes now (rather than a bad statement). */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB)/;

/** File-system codes of a disk that cannot take the write: full, over quota or size limit, read-only, failing. */
const DISK_UNAVAILABLE = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', 'EIO']);

export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return code === 'store_unavailable' || UNAVAILABLE.test(code) || DISK_UNAVAILABLE.has(code);
}

/**
 * Whether the server's store can take writes, for /readyz. Background writers (the workers, the rate
 * limiter's flush) report each outcome under their own name; the store is ready when none of them is
 * failing and a write lock can be taken right now.
 */
export class StoreHealth {
  private readonly failing = new Map<string, string>();
  private readonly writeLockProblem: () => string | null;
  private readonly identity: FileIdentity;
  private readonly integrity: IntegrityCheck;

  constructor(db: Database.Database) {
    this.writeLockProblem = writeLockProbe(db);
    this.identity = new FileIdentity(db.name);
    this.integrity = new IntegrityCheck(db.name);
  }

  /** `error` null: this writer's last write went through. */
  report(source: string, error: unknown): void {
    if (error === null || error === undefined) this.failing.delete(source);
    else this.failing.set(source, (error as { code?: string }).code ?? 'error');
  }

  /** Null when ready, else the SQLite code of what is wrong (for the log; callers get a generic word). */
  problem(): string | null {
    const [first] = this.failing.values();
    if (first) return first;
    const moved = this.identity.problem();
    if (moved) return moved;
    if (!this.integrity.ok()) return 'store_corrupt';
    return this.writeLockProblem();
  }
}
