import pg from 'pg';
import { StoreError } from '../../errors.js';
import { describeUrl } from './url.js';

const INT8_OID = 20;

/**
 * Times are bigint milliseconds and counts come back as bigint; pg hands those over as strings. Every value
 * we store fits a double exactly, so read them as numbers, for this pool only (not pg's global parsers).
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
};

export function createPool(url: string, max = 10): pg.Pool {
  // Settings go in the startup packet (`options`), so each connection has them before its first query:
  // a SET sent on 'connect' raced that query on the same client.
  // - The claim must walk the jobs_ready index in order and stop after `limit` rows. While the table's
  //   statistics are stale (a new table, a sudden backlog: autovacuum analyzes a minute later at best) the
  //   planner prefers a bitmap scan that reads and sorts every ready job on every claim: 6 ms instead of
  //   0.2 ms at 3,400 ready jobs. None of our queries needs a bitmap scan, so this pool never uses one.
  // - JIT compiling pays off for long analytical queries; ours are short, and the claim's estimates (owners
  //   of a recursive scan, rows under a LIMIT the planner cannot see) can cross jit_above_cost and spend a
  //   second compiling a query that runs in a millisecond.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    options: '-c enable_bitmapscan=off -c jit=off',
  });
  // An idle pooled connection that drops (server restart, network) is discarded by the pool; the next query
  // opens a new one. Without a listener the 'error' event would end the process.
  pool.on('error', () => {});
  return pool;
}

/** What a failure to open a PostgreSQL store means: a refused newer schema as it is, else unreachable. */
export function openFailure(url: string, cause: unknown): unknown {
  return (cause as { code?: string }).code === 'store_unavailable' ? cause : unreachable(url, cause);
}

export function unreachable(url: string, cause: unknown): StoreError {
  return new StoreError(
    `Cannot use the PostgreSQL store at ${describeUrl(url)}: ${(cause as Error).message}`,
    {
      cause,
      suggestions: [
        'Check --store / ASSAY_STORE (postgres://user:password@host:5432/database) and that the server is up.',
      ],
    },
  );
}

/**
 * `fn` inside BEGIN ... COMMIT on one pooled connection. While a connection is checked out the pool takes
 * its listener for 'error' away, so a connection lost between two statements (the server shut down, the
 * backend terminated) would be an unhandled 'error' event that ends the process: here it is kept, the next
 * statement fails as any other store error, and the connection is released as broken, not reused.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost = err;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const value = await fn(client);
    await client.query('COMMIT');
    return value;
  } catch (err) {
    if (!lost) await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(lost);
  }
}
