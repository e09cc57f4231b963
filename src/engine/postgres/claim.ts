import type pg from 'pg';
import { type JobRow, toRecord } from '../sqlite/rows.js';
import type { ClaimedJob } from '../types.js';

export interface ClaimOptions {
  workerId: string;
  kinds: string[];
  leaseMs: number;
  limit: number;
  now: number;
}

/**
 * One statement, so one round trip: running jobs whose lease expired (their worker died) while attempts
 * remain, then ready jobs whose run_at has come. FOR UPDATE SKIP LOCKED lets any number of workers on any
 * number of nodes claim at once: a row another claim holds is passed over, not waited for, and a row it
 * already took no longer matches when re-checked (state = 'ready' is evaluated again on the row's latest
 * version). Each claim counts an attempt and gets a fresh random lock token.
 *
 * Ready jobs go round robin across owners (the API key that submitted each job), as in the SQLite store:
 * every owner's oldest due job comes before anyone's second, counting the jobs each owner already has
 * running, and between equals the owner served least recently goes first (the latest change to any of its
 * jobs). PostgreSQL locks no rows at a query level with window functions, so the order is worked out first
 * without locks and the chosen rows are then locked in that order:
 * - keys: every owner with a ready job, one index probe each (a loose scan of jobs_ready_owner), and the
 *   jobs without an owner;
 * - candidates: each owner's first `limit` due jobs, in order, from the same index; no owner can be given
 *   more than `limit`, so the rest of a backlog is never read or sorted;
 * - running, standing: the jobs each owner has running (one pass over the running rows) and its last
 *   activity (one index probe each), looked up only when two or more owners have jobs due: with one, the
 *   order within it is the whole answer;
 * - ranked, fair: the first 2 x `limit` candidates in turn order, locked in that order with SKIP LOCKED
 *   until `limit` are held (a row that another claim took meanwhile fails the state = 'ready' re-check);
 * - spill: only when concurrent claims hold those candidates, the next due jobs oldest first, so a claim
 *   racing others still comes back with work rather than empty-handed (fairness is then approximate).
 * Every statement of this pool runs without JIT and bitmap scans (connect.ts): the estimates here are
 * rough (a recursive scan's rows, a LIMIT the planner cannot see), and the final UPDATE looks its rows up
 * by primary key from an array so a rough estimate cannot turn it into a scan of the table.
 */
const CLAIM = `
  WITH RECURSIVE expired AS (
    SELECT id FROM jobs
     WHERE state = 'running' AND locked_until < $1 AND attempts < max_attempts AND kind = ANY($2::text[])
     ORDER BY locked_until
     LIMIT $3
       FOR UPDATE SKIP LOCKED
  ), wanted AS (
    SELECT greatest($3 - (SELECT count(*) FROM expired), 0) AS n
  ), keys(owner) AS (
    (SELECT owner FROM jobs WHERE state = 'ready' AND owner IS NOT NULL ORDER BY owner LIMIT 1)
    UNION ALL
    SELECT (SELECT j.owner FROM jobs j WHERE j.state = 'ready' AND j.owner > k.owner ORDER BY j.owner LIMIT 1)
      FROM keys k
     WHERE k.owner IS NOT NULL
  ), owners AS (
    SELECT owner FROM keys WHERE owner IS NOT NULL
    UNION ALL
    SELECT NULL
  ), candidates AS (
    SELECT o.owner, c.id, c.run_at, c.created_at,
           row_number() OVER (PARTITION BY o.owner ORDER BY c.run_at, c.created_at) AS nth
      FROM owners o
     CROSS JOIN LATERAL (
       (SELECT id, run_at, created_at FROM jobs
         WHERE o.owner IS NOT NULL AND state = 'ready' AND owner = o.owner AND run_at <= $1
           AND kind = ANY($2::text[])
         ORDER BY run_at, created_at
         LIMIT $3)
       UNION ALL
       (SELECT id, run_at, created_at FROM jobs
         WHERE o.owner IS NULL AND state = 'ready' AND owner IS NULL AND run_at <= $1
           AND kind = ANY($2::text[])
         ORDER BY owner, run_at, created_at
         LIMIT $3)
     ) c
  ), owner_count AS (
    SELECT count(*) AS n FROM (SELECT DISTINCT owner FROM candidates) u
  ), running AS MATERIALIZED (
    SELECT owner, count(*) AS n FROM jobs
     WHERE state = 'running' AND (SELECT n FROM owner_count) > 1
     GROUP BY owner
  ), standing AS MATERIALIZED (
    SELECT d.owner, coalesce(r.n, 0) AS running,
           CASE WHEN (SELECT n FROM owner_count) < 2 THEN 0
                WHEN d.owner IS NULL THEN (SELECT updated_at FROM jobs WHERE owner IS NULL
                                            ORDER BY owner DESC, updated_at DESC LIMIT 1)
                ELSE (SELECT max(updated_at) FROM jobs WHERE owner = d.owner) END AS served
      FROM (SELECT DISTINCT owner FROM candidates) d
      LEFT JOIN running r ON r.owner IS NOT DISTINCT FROM d.owner
  ), ranked AS (
    SELECT c.id,
           row_number() OVER (ORDER BY c.nth + s.running, s.served, c.run_at, c.created_at) AS turn
      FROM candidates c
      JOIN standing s ON s.owner IS NOT DISTINCT FROM c.owner
     ORDER BY turn
     LIMIT 2 * $3
  ), fair AS (
    SELECT j.id FROM ranked r JOIN jobs j ON j.id = r.id
     WHERE j.state = 'ready'
     ORDER BY r.turn
     LIMIT (SELECT n FROM wanted)
       FOR UPDATE OF j SKIP LOCKED
  ), spill AS (
    SELECT id FROM jobs
     WHERE state = 'ready' AND run_at <= $1 AND kind = ANY($2::text[]) AND id NOT IN (SELECT id FROM fair)
     ORDER BY run_at, created_at
     LIMIT greatest((SELECT n FROM wanted) - (SELECT count(*) FROM fair), 0)
       FOR UPDATE SKIP LOCKED
  )
  UPDATE jobs
     SET state = 'running', status = running_status, attempts = attempts + 1, locked_until = $4,
         lock_token = gen_random_uuid()::text, worker_id = $5, updated_at = $1
   WHERE id = ANY (ARRAY(SELECT id FROM expired UNION ALL SELECT id FROM fair UNION ALL SELECT id FROM spill))
  RETURNING *`;

export async function claimJobs(pool: pg.Pool, o: ClaimOptions): Promise<ClaimedJob[]> {
  if (o.kinds.length === 0 || o.limit <= 0) return [];
  // A named statement: planned once per connection, not on every claim (planning the fair claim costs about
  // 1 ms, as much as running it, and workers with few slots claim a few jobs at a time).
  const { rows } = await pool.query<JobRow>({
    name: 'assay-claim',
    text: CLAIM,
    values: [o.now, o.kinds, o.limit, o.now + o.leaseMs, o.workerId],
  });
  // RETURNING order is unspecified; hand jobs out oldest due first.
  rows.sort((a, b) => a.run_at - b.run_at || a.created_at - b.created_at);
  return rows.map((row) => ({ ...toRecord(row), lockToken: row.lock_token as string }));
}
