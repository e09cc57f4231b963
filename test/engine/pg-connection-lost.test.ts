import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPool, inTransaction } from '../../src/engine/postgres/connect.js';
import { postgresForSuite } from '../support/postgres-suite.js';

const server = postgresForSuite();

/**
 * A connection lost in the middle of a transaction (PostgreSQL shut down or the backend terminated while
 * `serve` was between two statements) fails that transaction; it does not end the process with an
 * unhandled 'error' event, which is what pg-pool leaves a checked-out connection with (real PostgreSQL).
 */
describe('a PostgreSQL connection lost inside a transaction', () => {
  it('fails the transaction as a store error, and the pool goes on with a new connection', async () => {
    const url = await server.createDatabase();
    const pool = createPool(url, 2);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const unhandled: unknown[] = [];
    const onUncaught = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // Between two statements, as a handler awaiting other work would be: the backend goes away.
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await client.query('SELECT 1');
      });
      await expect(outcome).rejects.toThrow();
      expect(unhandled).toEqual([]);
      // The broken connection was not put back: the next transaction gets a working one.
      await expect(
        inTransaction(pool, async (client) => (await client.query('SELECT 2 AS n')).rows[0]),
      ).resolves.toEqual({ n: 2 });
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      await admin.end();
      await pool.end();
    }
  });
});
