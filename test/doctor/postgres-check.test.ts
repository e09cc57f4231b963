import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/doctor/doctor.js';
import { checkPostgresStore } from '../../src/doctor/postgres-check.js';
import { createPool } from '../../src/engine/postgres/connect.js';
import { migratePg } from '../../src/engine/postgres/migrate.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { postgresForSuite } from '../support/postgres-suite.js';

const server = postgresForSuite();

const statuses = (checks: Awaited<ReturnType<typeof checkPostgresStore>>) =>
  Object.fromEntries(checks.map((c) => [c.check, c.status]));

async function migrated(url: string): Promise<void> {
  const pool = createPool(url, 1);
  try {
    await migratePg(pool);
  } finally {
    await pool.end();
  }
}

describe('assay doctor on a PostgreSQL store', () => {
  it('says a new database has no schema yet, and how to create it', async () => {
    const checks = await checkPostgresStore(await server.createDatabase());
    expect(statuses(checks)).toEqual({ postgres: 'ok', 'postgres schema': 'warn', 'postgres notify': 'ok' });
    expect(checks[1]?.fix).toMatch(/assay db migrate/);
  });

  it('passes a migrated database, and names the server without its credentials', async () => {
    const url = await server.createDatabase();
    await migrated(url);
    const checks = await checkPostgresStore(url);
    expect(statuses(checks)).toEqual({ postgres: 'ok', 'postgres schema': 'ok', 'postgres notify': 'ok' });
    expect(checks[0]?.detail).toMatch(/PostgreSQL \d+/);
    expect(checks[0]?.detail).not.toContain('assay@');
  });

  it('fails a schema written by a newer assay', async () => {
    const url = await server.createDatabase();
    await migrated(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("INSERT INTO assay_migrations (version, name) VALUES (9999, '9999_future.sql')");
    await client.end();
    const checks = await checkPostgresStore(url);
    expect(statuses(checks)['postgres schema']).toBe('fail');
    expect(checks[1]?.detail).toMatch(/newer assay/);
  });

  it('fails a server that does not answer, without printing the password', async () => {
    const url = 'postgresql://assay:s3cret-pw@localhost/none?host=/nonexistent-assay-socket-dir';
    const checks = await checkPostgresStore(url);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ check: 'postgres', status: 'fail' });
    expect(JSON.stringify(checks)).not.toContain('s3cret-pw');
  });
});

describe('runDoctor with --store', () => {
  it('adds the PostgreSQL checks to the home checks, and only when a PostgreSQL store is named', async () => {
    const home = tmpHome('assay-doctor-pg-');
    try {
      const url = await server.createDatabase();
      await migrated(url);
      const names = (report: Awaited<ReturnType<typeof runDoctor>>) => report.checks.map((c) => c.check);
      expect(names(await runDoctor(home.dir))).not.toContain('postgres');
      const report = await runDoctor(home.dir, url);
      expect(names(report)).toEqual(
        expect.arrayContaining(['store', 'postgres', 'postgres schema', 'postgres notify']),
      );
    } finally {
      home.cleanup();
    }
  });
});
