/**
 * The questions `assay doctor --store postgres://...` asks the shared database, over one plain connection
 * (not a pool: LISTEN needs the same connection for the NOTIFY to come back on).
 */
import type pg from 'pg';

/** One connection to the server being checked; pass it to the functions below, then closeProbe. */
export type PostgresProbe = pg.Client;

export async function newProbe(url: string, connectTimeoutMs: number): Promise<PostgresProbe> {
  // pg loads only when a PostgreSQL store is named: the SQLite default's doctor does not pay for it.
  const { default: pgModule } = await import('pg');
  return new pgModule.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
}

/** Throws what the server (or the network) said when it cannot connect. */
export async function connectProbe(probe: PostgresProbe): Promise<void> {
  await probe.connect();
  // An 'error' event nobody listens to would crash the process; a dropped connection fails the next query instead.
  probe.on('error', () => {});
}

export async function serverVersion(probe: PostgresProbe): Promise<string> {
  const { rows } = await probe.query<{ server_version: string }>('SHOW server_version');
  return rows[0]?.server_version ?? 'unknown';
}

/** The last migration applied, 0 when the schema was never created. */
export async function appliedSchemaVersion(probe: PostgresProbe): Promise<number> {
  const { rows } = await probe.query<{ present: string | null }>(
    "SELECT to_regclass('assay_migrations')::text AS present",
  );
  return rows[0]?.present
    ? ((await probe.query<{ v: number | null }>('SELECT max(version) AS v FROM assay_migrations')).rows[0]
        ?.v ?? 0)
    : 0;
}

/**
 * Whether a NOTIFY this connection sends comes back to its own LISTEN within `waitMs`, as the workers'
 * wake-ups do. `channel` goes into the SQL as is: a plain identifier only.
 */
export async function notifyComesBack(
  probe: PostgresProbe,
  channel: string,
  waitMs: number,
): Promise<boolean> {
  const heard = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), waitMs);
    probe.on('notification', (message) => {
      if (message.channel !== channel) return;
      clearTimeout(timer);
      resolve(true);
    });
  });
  await probe.query(`LISTEN ${channel}`);
  await probe.query(`NOTIFY ${channel}`);
  const ok = await heard;
  await probe.query(`UNLISTEN ${channel}`);
  return ok;
}

export async function closeProbe(probe: PostgresProbe): Promise<void> {
  await probe.end().catch(() => {});
}
