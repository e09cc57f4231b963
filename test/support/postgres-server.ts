import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL server for tests and benchmarks: initdb + pg_ctl in a temp dir, listening only on a
 * unix socket inside that dir (no TCP port to collide with), removed by stop(). Postgres refuses to run as
 * root, so under root it runs as the `postgres` user (which Debian's `postgresql` package creates) through
 * runuser, with its dirs owned by that user.
 */
export interface PgServer {
  /** Connection string of the `postgres` database (for admin work). */
  readonly url: string;
  readonly dir: string;
  /** A new empty database on this server; its connection string. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Skip fsync (tests: fast and disposable). Benchmarks keep the server's durable defaults. */
  durable?: boolean;
  maxConnections?: number;
}

/** initdb on PATH, else the newest Debian cluster binaries (/usr/lib/postgresql/<major>/bin). */
export function findPgBin(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const debian = '/usr/lib/postgresql';
  const majors = existsSync(debian)
    ? readdirSync(debian)
        .filter((m) => existsSync(join(debian, m, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0]) return join(debian, majors[0], 'bin');
  throw new Error(
    'PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin; ' +
      'install them, e.g. `apt-get install postgresql`.',
  );
}

function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) {
    throw new Error(
      'Running as root, and PostgreSQL refuses root: a `postgres` user is needed (apt-get install postgresql).',
    );
  }
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid: Number(id.stdout), gid: Number(gid.stdout) };
}

let databases = 0;

export async function startPostgres(opts: StartOptions = {}): Promise<PgServer> {
  const bin = findPgBin();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'assay-pg-'));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid as number);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const run = (program: string, args: string[]) => {
    const [cmd, ...rest] = [...user.prefix, join(bin, program), ...args];
    execFileSync(cmd as string, rest, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const settings = [
    `-k ${dir}`,
    "-h ''",
    `-c max_connections=${opts.maxConnections ?? 100}`,
    ...(opts.durable ? [] : ['-F', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ].join(' ');
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'assay', '-E', 'UTF8', '--no-sync']);
    run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', settings, 'start']);
  } catch (cause) {
    const detail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not start PostgreSQL in ${dir}: ${(cause as Error).message}\n${detail}`);
  }
  const urlFor = (db: string) => `postgresql://assay@localhost/${db}?host=${encodeURIComponent(dir)}`;
  const url = urlFor('postgres');
  let stopped = false;

  return {
    url,
    dir,
    async createDatabase() {
      databases += 1;
      const name = `assay_${process.pid}_${databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return urlFor(name);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
