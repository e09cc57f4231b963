/**
 * `assay doctor --store postgres://...`: what a node needs from the shared PostgreSQL before it takes work.
 * The server answers, its schema is the one this assay writes, and LISTEN/NOTIFY reaches this connection
 * (a pooler in transaction mode drops notifications: workers would then only poll). The connection string
 * may carry a password, so only its host and database are ever shown.
 */
import { loadMigrations } from '../engine/migration-files.js';
import {
  appliedSchemaVersion,
  closeProbe,
  connectProbe,
  newProbe,
  notifyComesBack,
  type PostgresProbe,
  serverVersion,
} from '../engine/postgres/probe.js';
import { describeUrl } from '../engine/postgres/url.js';
import type { DoctorCheck } from './checks.js';

/** How long a notification may take to come back before it counts as lost. */
const NOTIFY_WAIT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;

export async function checkPostgresStore(url: string): Promise<DoctorCheck[]> {
  const where = describeUrl(url);
  const probe = await newProbe(url, CONNECT_TIMEOUT_MS);
  try {
    await connectProbe(probe);
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
  try {
    const version = await serverVersion(probe);
    return [
      { check: 'postgres', status: 'ok', detail: `${where} (PostgreSQL ${version})` },
      await checkSchema(probe),
      await checkNotify(probe),
    ];
  } finally {
    await closeProbe(probe);
  }
}

/** The schema step the database is at, against the last one this assay ships. */
async function checkSchema(probe: PostgresProbe): Promise<DoctorCheck> {
  const latest = loadMigrations('postgres').at(-1)?.version ?? 0;
  const current = await appliedSchemaVersion(probe);
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
async function checkNotify(probe: PostgresProbe): Promise<DoctorCheck> {
  const ok = await notifyComesBack(probe, `assay_doctor_${process.pid}`, NOTIFY_WAIT_MS);
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
