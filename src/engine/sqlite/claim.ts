import type Database from 'better-sqlite3';
import type { ClaimedJob } from '../types.js';
import { type JobRow, toRecord } from './rows.js';

export interface ClaimOptions {
  workerId: string;
  kinds: string[];
  leaseMs: number;
  limit: number;
  now: number;
}

const TAKE = `SET state = 'running', status = running_status, attempts = attempts + 1,
                  locked_until = ?, lock_token = lower(hex(randomblob(16))), worker_id = ?, updated_at = ?`;

/**
 * Claims are single UPDATE ... RETURNING statements, so each is atomic against every other process on the
 * file. Two of them, each on its own partial index: running jobs whose lease expired (their worker died)
 * while attempts remain, then ready jobs whose run_at has come, taken round robin across owners and
 * oldest due first within each. Each claim counts an
 * attempt and gets a fresh random lock token.
 */
export function prepareClaim(db: Database.Database): (opts: ClaimOptions) => ClaimedJob[] {
  const cache = new Map<
    number,
    {
      expired: Database.Statement<unknown[], JobRow>;
      ready: Database.Statement<unknown[], JobRow>;
      oldest: Database.Statement<unknown[], JobRow>;
    }
  >();
  // How many owners the table holds, 0, 1 or more, from three probes of jobs_owner_activity. With at most
  // one, the round robin is just oldest due first, and the fair statement is not needed. Finished jobs count too, so
  // this holds until another key's jobs are pruned: the cheap path is taken only when it is certainly right.
  const owners = db
    .prepare<[], number>(
      `SELECT EXISTS (SELECT 1 FROM jobs WHERE owner IS NULL)
              + CASE WHEN (SELECT MIN(owner) FROM jobs) IS NULL THEN 0
                     WHEN (SELECT MIN(owner) FROM jobs) = (SELECT MAX(owner) FROM jobs) THEN 1 ELSE 2 END`,
    )
    .pluck();
  const statementsFor = (kindCount: number) => {
    let stmts = cache.get(kindCount);
    if (!stmts) {
      const kinds = Array.from({ length: kindCount }, () => '?').join(', ');
      stmts = {
        expired: db.prepare(
          `UPDATE jobs ${TAKE}
            WHERE id IN (SELECT id FROM jobs
                          WHERE state = 'running' AND locked_until < ? AND attempts < max_attempts
                            AND kind IN (${kinds})
                          ORDER BY locked_until LIMIT ?)
            RETURNING *`,
        ),
        // Round robin across owners (the API key that submitted each job): every owner's oldest due job
        // comes before anyone's second, counting the jobs each owner already has running, and between
        // equals the owner served least recently goes first (the latest change to any of its jobs), so one
        // key's backlog never queues another key's job behind all of it.
        // Only each owner's first `limit` due jobs can be among the `limit` taken (an owner's later jobs
        // rank behind its earlier ones), so those are all the statement ranks: one probe of
        // jobs_ready_owner per owner with due work instead of every due job (migration 0006).
        ready: db.prepare(
          `UPDATE jobs ${TAKE}
            WHERE id IN (
              WITH owners AS (
                SELECT DISTINCT owner FROM jobs WHERE state = 'ready' AND run_at <= ?
              ),
              running AS (
                SELECT owner, COUNT(*) AS n FROM jobs WHERE state = 'running' GROUP BY owner
              ),
              due AS (
                SELECT j.id, j.owner, j.run_at, j.created_at,
                       ROW_NUMBER() OVER (PARTITION BY j.owner ORDER BY j.run_at, j.created_at) AS nth
                  FROM owners
                  JOIN jobs AS j ON j.id IN (
                    SELECT id FROM jobs
                     WHERE state = 'ready' AND owner IS owners.owner AND run_at <= ? AND kind IN (${kinds})
                     ORDER BY run_at, created_at LIMIT ?)
              )
              SELECT due.id FROM due LEFT JOIN running ON running.owner IS due.owner
               ORDER BY due.nth + COALESCE(running.n, 0),
                        (SELECT MAX(updated_at) FROM jobs AS seen WHERE seen.owner IS due.owner),
                        due.run_at, due.created_at
               LIMIT ?)
            RETURNING *`,
        ),
        oldest: db.prepare(
          `UPDATE jobs ${TAKE}
            WHERE id IN (SELECT id FROM jobs
                          WHERE state = 'ready' AND run_at <= ? AND kind IN (${kinds})
                          ORDER BY run_at, created_at LIMIT ?)
            RETURNING *`,
        ),
      };
      cache.set(kindCount, stmts);
    }
    return stmts;
  };

  return (o) => {
    if (o.kinds.length === 0 || o.limit <= 0) return [];
    const { expired, ready: fair, oldest } = statementsFor(o.kinds.length);
    const take = [o.now + o.leaseMs, o.workerId, o.now];
    const rows = expired.all(...take, o.now, ...o.kinds, o.limit);
    const want = o.limit - rows.length;
    if (want > 0)
      rows.push(
        ...((owners.get() as number) > 1
          ? fair.all(...take, o.now, o.now, ...o.kinds, want, want)
          : oldest.all(...take, o.now, ...o.kinds, want)),
      );
    // RETURNING order is unspecified; hand jobs out oldest due first.
    rows.sort((a, b) => a.run_at - b.run_at || a.created_at - b.created_at);
    return rows.map((row) => ({ ...toRecord(row), lockToken: row.lock_token as string }));
  };
}
