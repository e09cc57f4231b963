import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/cli/job-view.js';
import { SERVER_KEY_CACHE_MS } from '../../src/keys/api-keys.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startPostgres } from '../support/postgres-server.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { assay, json } from './cli.js';
import { CliProcess } from './support/cli-process.js';

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

describe('--store postgres:// (real CLI processes, real PostgreSQL)', () => {
  // The run's shared PostgreSQL (test/support/postgres-global.ts), a database of this file's own.
  const server = postgresForSuite();
  let url: string;
  const homeA = tmpHome('assay-e2e-pg-a-');
  const homeB = tmpHome('assay-e2e-pg-b-');
  beforeAll(async () => {
    url = await server.createDatabase();
  }, 60_000);
  afterAll(async () => {
    homeA.cleanup();
    homeB.cleanup();
  });

  it('`db migrate` brings the home file and the PostgreSQL store up, and is safe to run again', async () => {
    const first = await assay(['db', 'migrate', '--store', url, '--json'], { ASSAY_HOME: homeA.dir });
    expect(first.exitCode, first.stderr).toBe(0);
    const [home, pg] = json<Array<{ store: string; location: string; from: number; to: number }>>(first);
    expect(home).toMatchObject({ store: 'sqlite', from: 0 });
    expect(pg).toMatchObject({ store: 'postgres', from: 0, to: 5 });
    expect(pg?.location).toContain(url.split('?')[0]?.split('/').at(-1));
    const again = await assay(['db', 'migrate', '--json'], { ASSAY_HOME: homeA.dir, ASSAY_STORE: url });
    expect(json<Array<{ from: number; to: number }>>(again)[1]).toMatchObject({ from: 5, to: 5 });
  });

  it('`db migrate --store` fills the shared keys folder once, with private files, and keeps what is there', async () => {
    const keys = tmpHome('assay-e2e-pg-keys-');
    try {
      const env = { ASSAY_HOME: homeA.dir, ASSAY_STORE: url, ASSAY_KEYS_DIR: join(keys.dir, 'keys') };
      const first = await assay(['db', 'migrate'], env);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(first.stderr).toContain('every node of this store must hold the same');
      const names = readdirSync(join(keys.dir, 'keys')).sort();
      expect(names).toEqual([
        'credentials.key',
        'dob.key',
        'payload.key',
        'upload-url.key',
        'webhook-secrets.key',
      ]);
      const before = names.map((n) => readFileSync(join(keys.dir, 'keys', n)));
      for (const n of names) expect(statSync(join(keys.dir, 'keys', n)).mode & 0o777).toBe(0o600);
      expect((await assay(['db', 'migrate'], env)).exitCode).toBe(0);
      expect(names.map((n) => readFileSync(join(keys.dir, 'keys', n)))).toEqual(before);
    } finally {
      keys.cleanup();
    }
  });

  it('jobs enqueued on one node are worked and listed from another node with another home', async () => {
    const nodeA = { ASSAY_HOME: homeA.dir, ASSAY_STORE: url };
    const nodeB = { ASSAY_HOME: homeB.dir, ASSAY_STORE: url };
    const enqueued = await assay(['jobs', 'demo', '--count', '3', '--no-wait', '--json'], nodeA);
    expect(enqueued.exitCode, enqueued.stderr).toBe(0);
    const ids = json<{ jobs: JobView[] }>(enqueued).jobs.map((j) => j.id);

    const work = await assay(['jobs', 'work', '--drain', '--json'], nodeB);
    expect(work.exitCode, work.stderr).toBe(0);
    expect(json<{ done: number }>(work).done).toBe(3);

    const listed = json<JobView[]>(await assay(['jobs', 'list', '--json'], nodeA));
    expect(listed.filter((j) => ids.includes(j.id)).map((j) => j.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    // The homes themselves hold no jobs: without --store each sees an empty SQLite store.
    expect(json<JobView[]>(await assay(['jobs', 'list', '--json'], { ASSAY_HOME: homeB.dir }))).toEqual([]);
  });

  it('reference data synced on one node is what another node with another home reads', async () => {
    const nodeA = { ASSAY_HOME: homeA.dir, ASSAY_STORE: url };
    const nodeB = { ASSAY_HOME: homeB.dir, ASSAY_STORE: url };
    const dir = join(homeA.dir, 'acme');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'lab-ranges.csv'),
      'vendor_name,gender_name,concept_code,reference_range\nAcme Labs,female,2345-7,70-99\n',
    );
    const synced = await assay(['refdata', 'sync', '--from', dir, '--json'], nodeA);
    expect(synced.exitCode, synced.stderr).toBe(0);
    const ranges = await assay(['refdata', 'ranges', '--vendor', 'acme labs', '--json'], nodeB);
    expect(ranges.exitCode, ranges.stderr).toBe(0);
    expect(json<Array<{ vendor_name: string; concept_code: string }>>(ranges)).toMatchObject([
      { vendor_name: 'Acme Labs', concept_code: '2345-7' },
    ]);
    // Node B's own home was never synced: without --store it still reads the bundled dataset.
    const local = await assay(['refdata', 'ranges', '--vendor', 'acme labs', '--json'], {
      ASSAY_HOME: homeB.dir,
    });
    expect(json<unknown[]>(local)).toEqual([]);
  });

  it('help says what moves to PostgreSQL and what stays in the home', async () => {
    const r = await assay(['jobs', 'work', '--help']);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('--store');
    expect(text).toContain('ASSAY_STORE');
    expect(text).toMatch(
      /Jobs, API keys, rate limits, reference data and kept files \(uploads, report PDFs, sealed/,
    );
    expect(text).toContain('ASSAY_KEYS_DIR');
  });

  it('keys made on one node are listed, revoked and accepted by `serve` on another home', async () => {
    const nodeA = { ASSAY_HOME: homeA.dir, ASSAY_STORE: url };
    const nodeB = { ASSAY_HOME: homeB.dir, ASSAY_STORE: url };
    const created = await assay(['keys', 'create', '--name', 'shared', '--json'], nodeA);
    expect(created.exitCode, created.stderr).toBe(0);
    const { id, key } = json<{ id: string; key: string }>(created);
    expect(
      json<Array<{ id: string }>>(await assay(['keys', 'list', '--json'], nodeB)).map((k) => k.id),
    ).toContain(id);
    // The home's own SQLite file has none: the keys are in PostgreSQL.
    expect(json<unknown[]>(await assay(['keys', 'list', '--json'], { ASSAY_HOME: homeB.dir }))).toEqual([]);

    const server = new CliProcess('serve-b', ['serve', '--port', '0', '--log-level', 'silent'], nodeB);
    const base = (await server.waitFor(/listening on (http:\/\/\S+)/))[1] as string;
    try {
      const asKey = () => fetch(`${base}/nowhere`, { headers: { 'x-api-key': key } });
      expect((await asKey()).status).toBe(404);
      const revoked = await assay(['keys', 'revoke', id, '--json'], nodeA);
      expect(revoked.exitCode, revoked.stderr).toBe(0);
      await sleep(SERVER_KEY_CACHE_MS + 100);
      expect((await asKey()).status).toBe(401);
    } finally {
      await server.stop('SIGTERM');
      expect(server.child.exitCode, server.log).toBe(0);
    }
  });

  it('a store that is not a postgres:// URL is a usage error; an unreachable one never prints its password', async () => {
    const wrong = await assay(['jobs', 'list', '--store', 'mysql://db/assay'], { ASSAY_HOME: homeA.dir });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/postgres:\/\//);
    const down = await assay(
      ['jobs', 'list', '--store', `postgres://assay:hunter2-secret@localhost/assay?host=${homeA.dir}`],
      { ASSAY_HOME: homeA.dir },
    );
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toMatch(/Cannot use the PostgreSQL store at /);
    expect(`${down.stdout}${down.stderr}`).not.toContain('hunter2-secret');
  });

  it('serve over the PostgreSQL store is ready only while it reaches the store, and says where jobs live', async () => {
    // A server of its own, to stop under the running node.
    const own = await startPostgres();
    const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--log-level', 'warn'], {
      env: { ...process.env, ASSAY_HOME: homeA.dir, ASSAY_STORE: await own.createDatabase() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    server.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const base = await new Promise<string>((resolve, reject) => {
      server.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    try {
      expect(stderr).toMatch(/jobs in PostgreSQL \//);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
      await own.stop();
      const lost = await fetch(`${base}/readyz`);
      expect(lost.status).toBe(503);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      // The workers keep retrying, and the log says why nothing moves (once, not once per poll).
      const until = Date.now() + 10_000;
      while (!stdout.includes('job store unreachable') && Date.now() < until) await sleep(100);
      expect(stdout.match(/job store unreachable/g)).toHaveLength(1);
    } finally {
      await own.stop();
      server.kill('SIGTERM');
      const [code] = await once(server, 'exit');
      expect(code, stderr).toBe(0);
    }
  });
});
