import type Database from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FileIdentity, IntegrityCheck } from '../engine/sqlite/file-check.js';
import { writeLockProbe } from '../engine/sqlite/write-probe.js';
import { StoreError } from '../errors.js';

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
 * How long a verdict on the file itself (deleted, replaced, damaged) stands for the routes that write:
 * within it a write costs one clock read. Past it the next write looks again: one stat for the file's
 * identity, and the integrity check's own verdict, which runs quick_check (reading every page: ~1 ms per MB)
 * only when the file changed since it last ran and, for writes, at most once per INTEGRITY_RECHECK_MS.
 * /readyz always looks afresh, and what it finds holds for the writes that follow.
 */
export const FILE_VERDICT_MS = 1_000;
export const INTEGRITY_RECHECK_MS = 10_000;

/**
 * Whether the server's store can take writes, for /readyz. Background writers (the workers, the rate
 * limiter's flush) report each outcome under their own name; the store is ready when none of them is
 * failing and a write lock can be taken right now. The routes that accept work ask `assertWritable()`,
 * which refuses it while the file is gone, replaced or damaged: work accepted there could not be kept.
 */
export class StoreHealth {
  private readonly failing = new Map<string, string>();
  private readonly writeLockProblem: () => string | null;
  private readonly identity: FileIdentity;
  private readonly integrity: IntegrityCheck;
  private fileVerdict: string | null = null;
  private fileVerdictAt = Number.NEGATIVE_INFINITY;
  private integrityOk = true;
  private integrityAt = Number.NEGATIVE_INFINITY;

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

  /**
   * What is wrong with the file itself, looked at now (the integrity verdict reused while younger than
   * `integrityMaxAgeMs`); kept for the writes that follow.
   */
  private lookAtFile(now: number, integrityMaxAgeMs: number): string | null {
    let problem: string | null = this.identity.problem();
    if (problem === null) {
      if (now - this.integrityAt >= integrityMaxAgeMs) {
        this.integrityOk = this.integrity.ok();
        this.integrityAt = now;
      }
      if (!this.integrityOk) problem = 'store_corrupt';
    }
    this.fileVerdict = problem;
    this.fileVerdictAt = now;
    return problem;
  }

  /** Null when ready, else the SQLite code of what is wrong (for the log; callers get a generic word). */
  problem(): string | null {
    const [first] = this.failing.values();
    if (first) return first;
    const file = this.lookAtFile(Date.now(), 0);
    if (file) return file;
    return this.writeLockProblem();
  }

  /**
   * Throws a StoreError (503 with Retry-After, the body of a store that cannot be reached) while the file
   * was deleted, replaced or fails its integrity check, as /readyz last found it or, when that verdict is
   * older than FILE_VERDICT_MS, as it is now. A locked or full store is not refused here: the write itself
   * waits, or fails with its own 503.
   */
  assertWritable(now = Date.now()): void {
    if (now - this.fileVerdictAt >= FILE_VERDICT_MS) this.lookAtFile(now, INTEGRITY_RECHECK_MS);
    const problem = this.fileVerdict;
    if (problem === null) return;
    throw new StoreError(
      problem === 'store_corrupt'
        ? 'The job store cannot keep new work: its file fails the integrity check.'
        : 'The job store cannot keep new work: its file was deleted or replaced.',
    );
  }
}

/**
 * The onRequest hook of every route that writes work into the store (uploads, pre-signed URLs and their PUT,
 * report requests): the work is refused before its body is read while `health` says the file cannot keep
 * it. Callback style, so a sound store costs the route no promise.
 */
export function storeWriteGate(
  health: Pick<StoreHealth, 'assertWritable'>,
): (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void {
  return (_req, _reply, done) => {
    try {
      health.assertWritable();
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}
