import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/cli/job-view.js';
import { openJobStore } from '../../src/engine/open-store.js';
import type { JobStore } from '../../src/engine/store.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { assay, json } from './cli.js';
import { CliProcess } from './support/cli-process.js';
import { jsonBody, Receiver } from './support/receivers.js';

/**
 * Issue #16's multi-node acceptance: two `assay serve` and two `assay jobs work` processes of the built CLI
 * on one PostgreSQL job store; 100 lab uploads and 50 report jobs spread over both servers; one worker
 * process and one server SIGKILLed with jobs in flight and not restarted. Every job must end exactly once,
 * every lab webhook and report callback must arrive at least once under a stable id, and the 101st upload
 * of the key within the hour must be refused by either server.
 */

/**
 * Each node has a home of its own, as on two machines: jobs, API keys, rate counters, reference data and
 * kept files are in PostgreSQL. Only the keys folder (ASSAY_KEYS_DIR: the keys that seal credentials and
 * webhook secrets, which never go in the database) is shared, as an operator copies or mounts it.
 */
const root = mkdtempSync(join(tmpdir(), 'assay-multi-node-'));
const KEYS_DIR = join(root, 'keys');

/** The home of node `i` (0 or 1). */
function nodeHome(i: number): string {
  return join(root, `home-${i}`);
}

/** What every process of node `i` runs with, besides --store. */
function nodeEnv(i: number, store: string): Record<string, string> {
  return {
    ASSAY_HOME: nodeHome(i),
    ASSAY_STORE: store,
    ASSAY_KEYS_DIR: KEYS_DIR,
    // The receivers are on 127.0.0.1; the policy is the delivering process's, so every process needs it.
    ASSAY_ALLOW_PRIVATE_TARGETS: 'true',
    // A killed worker's jobs are claimable again 2 s after its last heartbeat.
    ASSAY_LEASE_MS: '2000',
    ASSAY_WEBHOOK_SCHEDULE_MS: '200,400,800,1600,3200',
    // Four processes share two cores: one extraction thread each.
    ASSAY_THREADS: '1',
  };
}
// ----

const LABS = new URL('../../fixtures/labs/', import.meta.url);
const REPORTS = new URL('../../fixtures/reports/', import.meta.url);
/** Small text PDFs of both vendors that extract to `completed`. */
const LAB_PDFS = ['quest-cbc-a1c.pdf', 'labcorp-a1c-thyroid-lipid.pdf', 'quest-cmp-lipid.pdf'].map((f) =>
  readFileSync(new URL(f, LABS)).toString('base64'),
);
const REPORT_FIXTURES = [
  'full-required-only.json',
  'full-three-events.json',
  'condensed-one-event.json',
  'condensed-required-only.json',
].map((f) => JSON.parse(readFileSync(new URL(f, REPORTS), 'utf8')) as Record<string, unknown>);
const UPLOADS = 100;
const REPORTS_COUNT = 50;
const HOUR_MS = 3_600_000;
const LIVE_STATES = ['held', 'ready', 'running'];

describe('two serve and two jobs-work processes on one PostgreSQL survive SIGKILLs (issue #16)', () => {
  // The run's shared PostgreSQL (test/support/postgres-global.ts), a database of this file's own.
  const pgServer = postgresForSuite();
  let url: string;
  let store: JobStore;
  let key: string;
  let webhookSecret: string;
  let hooks: Receiver;
  let callbacks: Receiver;
  const serves: CliProcess[] = [];
  const workers: CliProcess[] = [];
  const baseUrls: string[] = [];

  beforeAll(async () => {
    mkdirSync(KEYS_DIR, { mode: 0o700 });
    url = await pgServer.createDatabase();
    for (const i of [0, 1]) {
      const migrated = await assay(['db', 'migrate', '--store', url, '--json'], nodeEnv(i, url));
      expect(migrated.exitCode, migrated.stderr).toBe(0);
    }
    const created = await assay(['keys', 'create', '--name', 'multi-node', '--json'], nodeEnv(0, url));
    expect(created.exitCode, created.stderr).toBe(0);
    ({ key, webhookSecret } = json<{ key: string; webhookSecret: string }>(created));

    hooks = await Receiver.start((d) => jsonBody(d)?.jobId as string | undefined);
    callbacks = await Receiver.start((d) =>
      d.method === 'PUT' ? (d.url.searchParams.get('job_id') ?? undefined) : (jsonBody(d)?.job_id as string),
    );
    store = await openJobStore({ home: nodeHome(0), store: url });

    for (const i of [0, 1]) {
      serves.push(
        new CliProcess(
          `serve-${i}`,
          ['serve', '--port', '0', '--workers', '1', '--allow-private-targets', '--log-level', 'silent'],
          nodeEnv(i, url),
        ),
      );
      workers.push(new CliProcess(`work-${i}`, ['jobs', 'work', '--concurrency', '2'], nodeEnv(i, url)));
    }
    for (const s of serves) baseUrls.push((await s.waitFor(/listening on (http:\/\/\S+)/))[1] as string);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...serves, ...workers].map((p) => p.stop('SIGKILL')));
    await store?.close();
    await hooks?.close();
    await callbacks?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const headers = () => ({ 'x-api-key': key, 'content-type': 'application/json' });
  const post = (node: number, path: string, body: unknown) =>
    fetch(`${baseUrls[node]}${path}`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  const upload = (node: number, i: number) =>
    post(node, '/extraction/lab/upload', {
      pdfFile: LAB_PDFS[i % LAB_PDFS.length],
      filename: `multi-node-${i}.pdf`,
      webhookUrl: hooks.url,
    });

  /** A report request of the fixtures, calling back to our receiver with its own bearer token. */
  const reportRequest = (i: number) => {
    const request = structuredClone(REPORT_FIXTURES[i % REPORT_FIXTURES.length]) as Record<
      string,
      unknown
    > & {
      report_metadata: { configuration: Record<string, string> };
    };
    request.report_metadata.configuration = {
      callback_url: callbacks.url,
      auth_type: 'bearer',
      auth_token: `multi-node-token-${i}`,
    };
    return {
      path: request.health_event ? '/health-score/report/condensed' : '/health-score/report',
      request,
    };
  };

  /** Running jobs of the given process, by the pid in their worker id (`host:pid:random`). */
  const runningOn = async (p: CliProcess) =>
    (await store.list({ state: 'running', limit: 1_000 })).filter(
      (j) => j.workerId?.split(':')[1] === String(p.pid),
    );

  /**
   * SIGKILL every process of `ps` at the same moment, once each holds a running job (or after `ms`); returns
   * the jobs they left running. Killed together, no job can be orphaned twice: lab extraction has two
   * attempts, and a job taken over by the second victim before it was killed would rightly end WorkerLost.
   */
  async function killMidFlight(ps: CliProcess[], ms: number) {
    const until = Date.now() + ms;
    const holding = async () => (await Promise.all(ps.map(runningOn))).every((jobs) => jobs.length > 0);
    while (!(await holding()) && Date.now() < until) await sleep(20);
    await Promise.all(ps.map((p) => p.stop('SIGKILL')));
    return (await Promise.all(ps.map(runningOn))).flat();
  }

  it('every job ends once, every delivery arrives under a stable id, and the upload limit holds on both nodes', async () => {
    const started = Date.now();
    // The limit counts per fixed clock hour: start where all 102 uploads fit in one window.
    const leftInHour = HOUR_MS - (Date.now() % HOUR_MS);
    if (leftInHour < 45_000) await sleep(leftInHour + 500);

    // ---- Load: uploads alternate the nodes, reports go to the other one, four requests at a time. ----
    const labIds: string[] = [];
    const reportIds: string[] = [];
    const tokenOf = new Map<string, string>();
    for (let i = 0; i < UPLOADS; i += 2) {
      const batch = [0, 1].map(async (k) => {
        const n = i + k;
        const res = await upload(n % 2, n);
        expect(res.status, `upload ${n} on node ${n % 2}: ${await res.clone().text()}`).toBe(202);
        labIds.push(((await res.json()) as { jobId: string }).jobId);
        const r = n / 2;
        if (k === 0 && r < REPORTS_COUNT) {
          const { path, request } = reportRequest(r);
          const ack = await post((n + 1) % 2, path, request);
          expect(ack.status, `report ${r}: ${await ack.clone().text()}`).toBe(202);
          const id = ((await ack.json()) as { job_id: string }).job_id;
          reportIds.push(id);
          tokenOf.set(id, `Bearer ${request.report_metadata.configuration.auth_token}`);
        }
      });
      await Promise.all(batch);
    }
    expect(labIds).toHaveLength(UPLOADS);
    expect(reportIds).toHaveLength(REPORTS_COUNT);

    // ---- The 101st upload of the key this hour: refused by either node, though each saw only 50. ----
    for (const node of [0, 1]) {
      const refused = await upload(node, UPLOADS + node);
      expect(refused.status, `node ${node}`).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({
        error: 'rate_limit_exceeded',
        details: { retryAfterSeconds: expect.any(Number) },
      });
    }
    const loadedMs = Date.now() - started;

    // ---- SIGKILL a worker process and a server while they hold jobs; neither comes back. ----
    const until = Date.now() + 60_000;
    while (hooks.total() + callbacks.total() < 10 && Date.now() < until) await sleep(20);
    const announcedBeforeKill = hooks.total() + callbacks.total();
    const killedWorker = workers[0] as CliProcess;
    const killedServe = serves[1] as CliProcess;
    const orphans = await killMidFlight([killedWorker, killedServe], 15_000);
    const deadPids = new Set([String(killedWorker.pid), String(killedServe.pid)]);
    expect(orphans.length, 'a SIGKILL landed while its process held a job').toBeGreaterThan(0);

    // ---- Wait for the queue to empty: every job and every follow-up delivery ended. ----
    const deadline = Date.now() + 150_000;
    let live = Number.POSITIVE_INFINITY;
    while (Date.now() < deadline) {
      live = (await store.list({ limit: 10_000 })).filter((j) => LIVE_STATES.includes(j.state)).length;
      if (live === 0) break;
      await sleep(250);
    }
    expect(
      live,
      `jobs still live; ${[...serves, ...workers].map((p) => `${p.name}: ${p.log}`).join('\n')}`,
    ).toBe(0);
    const drainedMs = Date.now() - started;

    // ---- Exactly once, as the store lists it (`assay jobs list --json --store`, from either node). ----
    const listed = await assay(['jobs', 'list', '--json', '--limit', '10000'], nodeEnv(1, url));
    expect(listed.exitCode, listed.stderr).toBe(0);
    const jobs = json<JobView[]>(listed);
    const childrenOf = new Map<string, JobView[]>();
    for (const j of jobs)
      if (j.parentId) childrenOf.set(j.parentId, [...(childrenOf.get(j.parentId) ?? []), j]);
    const byId = new Map(jobs.map((j) => [j.id, j]));
    // Follow-ups are written in the transaction that ends their parent: one set of them per job means the
    // job ended once. 100 lab jobs + their webhooks, 50 reports + the PDF PUT + the status POST each.
    const unfinished = jobs.filter((j) => j.state !== 'done');
    const orphanIds = new Set(orphans.map((o) => o.id));
    const seenBy = (id: string) =>
      [...serves, ...workers]
        .map(
          (p) =>
            `${p.name}(${p.pid}): ${p.log
              .split('\n')
              .filter((l) => l.includes(id))
              .join(' | ')}`,
        )
        .join('; ');
    expect(
      unfinished.map(
        (j) =>
          `${j.kind} ${j.id}: ${j.status} ${j.errorType} after ${j.attempts} attempts on ${j.workerId}` +
          `${orphanIds.has(j.id) ? ' (orphaned by a SIGKILL)' : ''}; ${seenBy(j.id)}`,
      ),
    ).toEqual([]);
    expect(jobs).toHaveLength(2 * UPLOADS + 3 * REPORTS_COUNT);
    for (const id of labIds) {
      const job = byId.get(id);
      expect(job, id).toMatchObject({ kind: 'lab.extract', state: 'done', status: 'completed' });
      expect(
        childrenOf.get(id)?.map((c) => [c.kind, c.state]),
        `webhook jobs of ${id}`,
      ).toEqual([['lab.webhook', 'done']]);
    }
    for (const id of reportIds) {
      expect(byId.get(id)?.state, id).toBe('done');
      expect(byId.get(id)?.status, id).toBe('completed');
      const [put, ...morePuts] = childrenOf.get(id) ?? [];
      expect(morePuts, `deliveries after ${id}`).toEqual([]);
      expect(put).toMatchObject({ kind: 'report.deliver', state: 'done' });
      expect(childrenOf.get(put?.id as string)?.map((c) => [c.kind, c.state])).toEqual([
        ['report.deliver', 'done'],
      ]);
    }
    // The jobs the killed processes held were taken over by a live one and finished there.
    for (const o of orphans) {
      const after = byId.get(o.id);
      expect(after?.state, o.id).toBe('done');
      expect(after?.attempts, o.id).toBeGreaterThan(o.attempts);
      expect(deadPids.has(after?.workerId?.split(':')[1] as string), o.id).toBe(false);
    }

    // ---- The surviving server answers for every job, whichever node took it. ----
    const get = (path: string) => fetch(`${baseUrls[0]}${path}`, { headers: headers() });
    for (const id of labIds) {
      expect(((await (await get(`/extraction/lab/status/${id}`)).json()) as { status: string }).status).toBe(
        'completed',
      );
    }
    for (const id of reportIds) {
      const body = (await (await get(`/health-score/report/status/${id}`)).json()) as { status: string };
      expect(body.status, id).toBe('completed');
    }

    // ---- At least once, under a stable id: duplicates repeat the same event, never a new one. ----
    for (const id of labIds) {
      const posts = hooks.of(id);
      expect(posts.length, `webhooks for ${id}`).toBeGreaterThan(0);
      expect(new Set(posts.map((d) => d.headers['webhook-id'])).size, `webhook ids for ${id}`).toBe(1);
      expect(new Set(posts.map((d) => d.body.toString('utf8'))).size, `webhook bodies for ${id}`).toBe(1);
      expect(jsonBody(posts[0] as (typeof posts)[0])?.event).toBe('job.completed');
      // Signed with the key's webhook secret, whichever node sent it (SPEC.md: X-API-Key; Standard Webhooks).
      for (const d of posts) {
        expect(d.headers['x-api-key']).toBe(webhookSecret);
        new Webhook(webhookSecret).verify(d.body.toString('utf8'), d.headers as Record<string, string>);
      }
    }
    for (const id of reportIds) {
      const statusPosts = callbacks.of(id, 'POST');
      const pdfPuts = callbacks.of(id, 'PUT');
      expect(statusPosts.length, `status POSTs for ${id}`).toBeGreaterThan(0);
      expect(pdfPuts.length, `PDF PUTs for ${id}`).toBeGreaterThan(0);
      expect(new Set(statusPosts.map((d) => d.body.toString('utf8'))).size, `A4 bodies for ${id}`).toBe(1);
      expect(jsonBody(statusPosts[0] as (typeof statusPosts)[0])?.status).toBe('success');
      for (const d of pdfPuts) expect(d.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // The sealed callback credential was opened by whichever node delivered.
      for (const d of [...statusPosts, ...pdfPuts]) expect(d.headers.authorization).toBe(tokenOf.get(id));
    }
    expect(hooks.byId.get(''), 'webhooks for no job of ours').toBeUndefined();
    expect(callbacks.byId.get(''), 'callbacks for no job of ours').toBeUndefined();

    const twice = (r: Receiver) =>
      [...r.byId.values()].filter((l) => l.filter((d) => d.method === 'POST').length > 1);
    console.log(
      `multi-node: ${UPLOADS} uploads + ${REPORTS_COUNT} reports accepted in ${loadedMs} ms, queue empty at ` +
        `${drainedMs} ms; ${announcedBeforeKill} announced before the SIGKILLs, ${orphans.length} jobs orphaned ` +
        `(${orphans.map((o) => o.kind).join(', ')}); webhooks ${hooks.total()} (${twice(hooks).length} jobs twice+), ` +
        `status POSTs ${callbacks.total()} (${twice(callbacks).length} twice+), PDF PUTs ${callbacks.total('PUT')}`,
    );

    // The survivors drain and exit cleanly.
    for (const p of [serves[0], workers[1]] as CliProcess[]) {
      await p.stop('SIGTERM');
      expect(p.child.exitCode, `${p.name}: ${p.log}`).toBe(0);
    }
    // Uploads, report PDFs and credentials lived in PostgreSQL: no node kept a file of them.
    for (const i of [0, 1])
      for (const folder of ['uploads', 'reports'])
        expect(existsSync(join(nodeHome(i), folder)), `${folder}/ in node ${i}'s home`).toBe(false);
  }, 240_000);
});
