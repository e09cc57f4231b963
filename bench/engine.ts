/**
 * Engine throughput: no-op jobs (claim + complete, enqueued beforehand) drained by 1, 2 and 4 worker
 * processes of 16 slots each, over SQLite (one file under a home) and PostgreSQL (a real server this bench
 * starts, durable defaults), beside pg-boss draining the same no-op jobs on the same server. Plus the raw
 * better-sqlite3 insert + update loop the SQLite store was first measured against.
 * Targets: PostgreSQL store >= pg-boss; >= 1.6x from 1 to 4 processes; SQLite >= 2,000 jobs/s.
 * `npm run bench -- engine [jobs per run, default 10000]`
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { Engine } from '../src/engine/engine.js';
import { PgJobStore } from '../src/engine/postgres/pg-store.js';
import { JobRegistry } from '../src/engine/registry.js';
import { startPostgres } from '../test/support/postgres-server.js';
import { NOOP, PG_BOSS_SETTINGS, type PgBossSetting, SLOTS } from './support/engine-bench-config.js';

const WORKER = new URL('./support/engine-worker.ts', import.meta.url).pathname;
const PROCESSES = [1, 2, 4];

type System = 'assay' | PgBossSetting;

function rawLoop(dir: string, n: number): number {
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, state TEXT, payload TEXT, updated INTEGER)');
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?)');
  const update = db.prepare('UPDATE t SET state = ?, updated = ? WHERE id = ?');
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    insert.run(id, 'ready', '{}', Date.now());
    update.run('done', Date.now(), id);
  }
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return n / seconds;
}

async function enqueueAssay(engine: Engine, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1000)
    await engine.enqueueMany(Array.from({ length: Math.min(1000, n - i) }, () => ({ kind: NOOP })));
}

async function enqueuePgBoss(url: string, n: number): Promise<void> {
  const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false });
  await boss.start();
  await boss.createQueue(NOOP);
  for (let i = 0; i < n; i += 1000)
    await boss.insert(Array.from({ length: Math.min(1000, n - i) }, () => ({ name: NOOP, data: {} })));
  await boss.stop({ graceful: false, wait: true });
}

function startWorker(system: System, target: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, system, target, String(SLOTS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`bench worker exited with ${code} before it was ready`)));
  });
}

/** Start the processes, let them go at once, and time until the database shows every job finished. */
async function drain(
  system: System,
  target: string,
  processes: number,
  n: number,
  finished: () => Promise<number>,
): Promise<number> {
  const children = await Promise.all(Array.from({ length: processes }, () => startWorker(system, target)));
  try {
    const start = performance.now();
    for (const c of children) c.stdin?.write('go\n');
    while ((await finished()) < n) await sleep(20);
    return n / ((performance.now() - start) / 1000);
  } finally {
    for (const c of children) c.kill('SIGKILL');
  }
}

async function sqliteRun(dir: string, processes: number, n: number): Promise<number> {
  const home = join(dir, `sqlite-${processes}`);
  const registry = new JobRegistry();
  const engine = Engine.open(home, registry);
  await enqueueAssay(engine, n);
  await engine.close();
  const db = new Database(join(home, 'assay.db'), { readonly: true });
  const count = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM jobs WHERE state = 'done'");
  try {
    return await drain('assay', home, processes, n, async () => (count.get() as { n: number }).n);
  } finally {
    db.close();
  }
}

async function countIn(
  url: string,
  sql: string,
): Promise<{ count: () => Promise<number>; end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    count: async () => Number((await client.query<{ n: string }>(sql)).rows[0]?.n),
    end: () => client.end(),
  };
}

async function pgRun(system: System, url: string, processes: number, n: number): Promise<number> {
  if (system === 'assay') {
    const engine = new Engine(await PgJobStore.open(url), new JobRegistry());
    await enqueueAssay(engine, n);
    await engine.close();
  } else {
    await enqueuePgBoss(url, n);
  }
  const { count, end } = await countIn(
    url,
    system === 'assay'
      ? "SELECT count(*) AS n FROM jobs WHERE state = 'done'"
      : `SELECT count(*) AS n FROM pgboss.job WHERE name = '${NOOP}' AND state = 'completed'`,
  );
  try {
    return await drain(system, url, processes, n, count);
  } finally {
    await end();
  }
}

const fmt = (rates: number[]) => rates.map((r) => r.toFixed(0).padStart(9));

export async function run(args: string[] = []): Promise<void> {
  const n = Number(args[0] ?? 10_000);
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-'));
  const server = await startPostgres({ durable: true, maxConnections: 200 });
  try {
    const rows: Array<[string, number[]]> = [];
    const sqlite: number[] = [];
    for (const p of PROCESSES) sqlite.push(await sqliteRun(dir, p, n));
    rows.push(['assay SQLite', sqlite]);
    for (const [label, system] of [
      ['assay PostgreSQL', 'assay'],
      ['pg-boss, 16 held', 'pg-boss-16'],
      ['pg-boss, 800 held', 'pg-boss-800'],
    ] as const) {
      const rates: number[] = [];
      // 16 held at a time and a poll each 0.5 s drain slowly: fewer jobs give the same rate sooner.
      const jobs = system === 'pg-boss-16' ? Math.min(n, 1_000) : n;
      for (const p of PROCESSES) rates.push(await pgRun(system, await server.createDatabase(), p, jobs));
      rows.push([label, rates]);
    }
    console.log(`engine: ${n} no-op jobs drained per run, jobs/s (processes of ${SLOTS} slots each)`);
    console.log(`${'store'.padEnd(18)}${PROCESSES.map((p) => `${p} proc`.padStart(9)).join('')}   4/1`);
    for (const [label, rates] of rows) {
      const scale = (rates[2] as number) / (rates[0] as number);
      console.log(`${label.padEnd(18)}${fmt(rates).join('')}   ${scale.toFixed(2)}x`);
    }
    const pgRates = rows[1]?.[1] ?? [];
    for (const [i, setting] of (['pg-boss-16', 'pg-boss-800'] as const).entries()) {
      const { loops, batchSize } = PG_BOSS_SETTINGS[setting];
      const boss = rows[2 + i]?.[1] ?? [];
      const ratios = pgRates.map((r, p) => (r / (boss[p] as number)).toFixed(2)).join(', ');
      console.log(
        `${setting}: ${loops} work() loop(s) per process, batches of ${batchSize}, 0.5 s polling; ` +
          `PostgreSQL store / pg-boss at 1, 2, 4 processes: ${ratios} (target >= 1)`,
      );
    }
    console.log(`raw better-sqlite3 insert+update: ${rawLoop(dir, n).toFixed(0)} rows/s`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
