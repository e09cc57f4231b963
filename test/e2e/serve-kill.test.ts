import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import { tmpHome } from '../engine/support/tmp-home.js';

/**
 * Crash safety of `assay serve` as a user runs it: the built CLI is SIGKILLed with lab and report jobs in
 * flight, restarted on the same home and port, and every job must still end and be announced at least once
 * (lab webhook, report A4 callback POST). Duplicates are allowed; a missing one is the bug this looks for.
 */
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const LABS = new URL('../../fixtures/labs/', import.meta.url);
const REPORTS = new URL('../../fixtures/reports/', import.meta.url);
const JOBS_EACH = 50;
const LAB_TERMINAL = ['completed', 'failed', 'quarantined', 'rejected_phi', 'invalid_document'];
const REPORT_TERMINAL = ['completed', 'failed'];

interface Receiver {
  server: Server;
  url: string;
  /** Deliveries per job id (POSTs only: the webhook envelope and the A4 status payload). */
  posts: Map<string, number>;
  puts: number;
}

/** Answers 204 to POST and 200 to PUT on any path, counting POSTs by the job id in their JSON body. */
function receiver(idOf: (body: Record<string, unknown>) => unknown): Promise<Receiver> {
  const r = { posts: new Map<string, number>(), puts: 0 } as Receiver;
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT') {
        r.puts++;
        res.writeHead(200).end();
        return;
      }
      try {
        const id = idOf(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        if (typeof id === 'string') r.posts.set(id, (r.posts.get(id) ?? 0) + 1);
      } catch {
        // Not JSON: not one of ours; still 204 so nothing retries forever.
      }
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    r.server.listen(0, '127.0.0.1', () => {
      r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook`;
      resolve(r);
    }),
  );
}

/** A port free right now: bound then released, so both runs of the server can listen on it. */
async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  s.close();
  await once(s, 'close');
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('assay serve survives SIGKILL with jobs in flight (real processes)', () => {
  const home = tmpHome('assay-serve-kill-');
  const children: ChildProcess[] = [];
  let hooks: Receiver;
  let callbacks: Receiver;
  let key: string;
  let port: number;

  async function serve(): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        ...['--port', String(port), '--workers', '2', '--allow-private-targets', '--log-level', 'silent'],
      ],
      {
        env: {
          ...process.env,
          ASSAY_HOME: home.dir,
          ASSAY_LEASE_MS: '1000',
          ASSAY_WEBHOOK_SCHEDULE_MS: '200,400,800,1600,3200',
          ASSAY_LIMIT_UPLOADS_PER_HOUR: '100000',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    children.push(child);
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      child.once('exit', (code, signal) => reject(new Error(`serve exited ${code ?? signal}: ${stderr}`)));
    });
    return { child, url };
  }

  beforeAll(async () => {
    const db = openDatabase(home.dir);
    key = new ApiKeys(db, { home: home.dir }).create('kill').key;
    db.close();
    hooks = await receiver((b) => b.jobId);
    callbacks = await receiver((b) => b.job_id);
    port = await freePort();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    hooks?.server.close();
    callbacks?.server.close();
    home.cleanup();
  });

  it('every lab and report job ends and is delivered at least once across a SIGKILL and restart', async () => {
    const deadline = Date.now() + 110_000;
    let { child, url } = await serve();
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(202);
      return (await res.json()) as Record<string, string>;
    };

    const pdfs = readdirSync(LABS).filter((f) => f.endsWith('.pdf'));
    const reportFixtures = readdirSync(REPORTS)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(new URL(f, REPORTS), 'utf8')) as Record<string, unknown>);
    const labIds: string[] = [];
    const reportIds: string[] = [];
    for (let i = 0; i < JOBS_EACH; i++) {
      const pdf = readFileSync(new URL(pdfs[i % pdfs.length] as string, LABS));
      const lab = await post('/extraction/lab/upload', {
        pdfFile: pdf.toString('base64'),
        filename: `kill-${i}.pdf`,
        webhookUrl: hooks.url,
      });
      labIds.push(lab.jobId as string);

      const request = structuredClone(reportFixtures[i % reportFixtures.length]) as {
        report_metadata: { configuration: Record<string, string> };
        health_event?: unknown;
      };
      request.report_metadata.configuration = { callback_url: callbacks.url };
      const path = request.health_event ? '/health-score/report/condensed' : '/health-score/report';
      reportIds.push((await post(path, request)).job_id as string);
    }

    // Kill once some jobs have been announced, so the crash lands between done and not done.
    while (hooks.posts.size + callbacks.posts.size < 10 && Date.now() < deadline) await sleep(25);
    child.kill('SIGKILL');
    await once(child, 'exit');
    const announcedBeforeKill = hooks.posts.size + callbacks.posts.size;
    expect(announcedBeforeKill).toBeGreaterThan(0);
    expect(announcedBeforeKill).toBeLessThan(2 * JOBS_EACH);

    ({ child, url } = await serve());
    const statusOf = async (path: string) =>
      ((await (await fetch(`${url}${path}`, { headers })).json()) as { status: string }).status;
    const pending = new Set([...labIds.map((id) => `lab:${id}`), ...reportIds.map((id) => `report:${id}`)]);
    while (pending.size > 0 && Date.now() < deadline) {
      for (const entry of [...pending]) {
        const [area, id] = entry.split(':') as [string, string];
        const ended =
          area === 'lab'
            ? LAB_TERMINAL.includes(await statusOf(`/extraction/lab/status/${id}`))
            : REPORT_TERMINAL.includes(await statusOf(`/health-score/report/status/${id}`));
        if (ended) pending.delete(entry);
      }
      if (pending.size > 0) await sleep(500);
    }
    expect([...pending], 'jobs not in a terminal state').toEqual([]);

    const missing = () => [
      ...labIds.filter((id) => !hooks.posts.has(id)).map((id) => `webhook ${id}`),
      ...reportIds.filter((id) => !callbacks.posts.has(id)).map((id) => `callback ${id}`),
    ];
    while (missing().length > 0 && Date.now() < deadline) await sleep(200);
    expect(missing()).toEqual([]);

    const dupes = (m: Map<string, number>) => [...m.values()].filter((n) => n > 1).length;
    console.log(
      `serve-kill: ${announcedBeforeKill} announced before SIGKILL; after restart all ${2 * JOBS_EACH} ended; ` +
        `lab webhooks ${[...hooks.posts.values()].reduce((a, b) => a + b, 0)} (${dupes(hooks.posts)} jobs twice+), ` +
        `report POSTs ${[...callbacks.posts.values()].reduce((a, b) => a + b, 0)} (${dupes(callbacks.posts)} twice+), ` +
        `PDF PUTs ${callbacks.puts}`,
    );
    child.kill('SIGTERM');
    await once(child, 'exit');
  }, 120_000);
});
