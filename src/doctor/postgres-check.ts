/**
 * `assay doctor --store postgres://...`: what a node needs from the shared PostgreSQL before it takes work.
 * The server answers, its schema is the one this assay writes, and LISTEN/NOTIFY reaches this connection
 * (a pooler in transaction mode drops notifications: workers would then only poll). The connection string
 * may carry a password, so only its host and database are ever shown.
 */
import type pg from 'pg';
import { loadMigrations } from '../engine/migration-files.js';
import { describeUrl } from '../engine/postgres/url.js';
import type { DoctorCheck } from './checks.js';

/** How long a notification may take to come back before it counts as lost. */
const NOTIFY_WAIT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;

export async function checkPostgresStore(url: string): Promise<DoctorCheck[]> {
  const where = describeUrl(url);
  // pg loads only when a PostgreSQL store is named: the SQLite default's doctor does not pay for it.
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (error) {
    return [
      {
        check: 'postgres',
        status: 'fail',
        detail: `${where}: ${firstLine(error)}`,
        fix: 'Check --store / ASSAY_STORE (postgres://user:password@host:5432/database) and that the server is up.',
      },
    ];
  }
  client.on('error', () => {});
  try {
    const version = await serverVersion(client);
    return [
      { check: 'postgres', status: 'ok', detail: `${where} (PostgreSQL ${version})` },
      await checkSchema(client),
      await checkNotify(client),
    ];
  } finally {
    await client.end().catch(() => {});
  }
}

async function serverVersion(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  return rows[0]?.server_version ?? 'unknown';
}

/** The schema step the database is at, against the last one this assay ships. */
async function checkSchema(client: pg.Client): Promise<DoctorCheck> {
  const latest = loadMigrations('postgres').at(-1)?.version ?? 0;
  const { rows } = await client.query<{ present: string | null }>(
    "SELECT to_regclass('assay_migrations')::text AS present",
  );
  const current = rows[0]?.present
    ? ((await client.query<{ v: number | null }>('SELECT max(version) AS v FROM assay_migrations')).rows[0]
        ?.v ?? 0)
    : 0;
  const migrate =
    'Run `assay db migrate --store ...` once from any node (every node also migrates when it opens).';
  if (current > latest)
    return {
      check: 'postgres schema',
      status: 'fail',
      detail: `schema ${current}, written by a newer assay (this one knows ${latest})`,
      fix: 'Upgrade assay on this node to the version the other nodes run.',
    };
  if (current < latest)
    return {
      check: 'postgres schema',
      status: 'warn',
      detail:
        current === 0
          ? `not created yet (this assay writes schema ${latest})`
          : `schema ${current} of ${latest}`,
      fix: migrate,
    };
  return { check: 'postgres schema', status: 'ok', detail: `schema ${current}` };
}

/** A NOTIFY this connection sends comes back to its own LISTEN, as the workers' wake-ups do. */
async function checkNotify(client: pg.Client): Promise<DoctorCheck> {
  const channel = `assay_doctor_${process.pid}`;
  const heard = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), NOTIFY_WAIT_MS);
    client.on('notification', (message) => {
      if (message.channel !== channel) return;
      clearTimeout(timer);
      resolve(true);
    });
  });
  await client.query(`LISTEN ${channel}`);
  await client.query(`NOTIFY ${channel}`);
  const ok = await heard;
  await client.query(`UNLISTEN ${channel}`);
  return ok
    ? {
        check: 'postgres notify',
        status: 'ok',
        detail: 'LISTEN/NOTIFY reaches this node: idle workers wake at once',
      }
    : {
        check: 'postgres notify',
        status: 'warn',
        detail: `no notification within ${NOTIFY_WAIT_MS} ms: workers fall back to polling`,
        fix: 'Connect to PostgreSQL directly or through a pooler in session mode (transaction mode drops LISTEN).',
      };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() ?? '';
}
