import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/cli/job-view.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { assay, json } from './cli.js';

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const LAB_PDF = fileURLToPath(new URL('../../fixtures/labs/quest-cbc-a1c.pdf', import.meta.url));
const REPORT = fileURLToPath(new URL('../../fixtures/reports/condensed-required-only.json', import.meta.url));
const TOKEN = 'e2e-callback-token-never-stored-plain';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * Issue #16: any node runs any job. `serve` on home A takes a lab upload and a report with a callback, then
 * dies (SIGKILL) before or while working them; `jobs work` on home B, with the same --store and
 * ASSAY_KEYS_DIR, finishes both from what is in PostgreSQL: the uploaded PDF, the sealed credential.
 */
describe('blobs in PostgreSQL: serve on one home, work on another (real processes)', () => {
  // The run's shared PostgreSQL (test/support/postgres-global.ts), a database of this file's own.
  const server = postgresForSuite();
  let url: string;
  const homeA = tmpHome('assay-e2e-blobs-a-');
  const homeB = tmpHome('assay-e2e-blobs-b-');
  const keys = tmpHome('assay-e2e-blobs-keys-');
  const children: ChildProcess[] = [];
  let receiver: Server;
  const seen: Seen[] = [];

  beforeAll(async () => {
    url = await server.createDatabase();
    receiver = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      req.resume();
      req.on('end', () => res.writeHead(req.method === 'PUT' ? 200 : 204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  }, 60_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    receiver?.close();
    for (const h of [homeA, homeB, keys]) h.cleanup();
  });

  it('a lab upload and a report accepted by serve on home A are completed by jobs work on home B', async () => {
    const shared = { ASSAY_STORE: url, ASSAY_KEYS_DIR: join(keys.dir, 'keys') };
    const nodeA = { ...shared, ASSAY_HOME: homeA.dir };
    const nodeB = { ...shared, ASSAY_HOME: homeB.dir, ASSAY_ALLOW_PRIVATE_TARGETS: '1' };
    const created = await assay(['keys', 'create', '--name', 'e2e', '--json'], nodeA);
    expect(created.exitCode, created.stderr).toBe(0);
    const { key } = json<{ key: string }>(created);

    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--workers', '1', '--allow-private-targets', '--log-level', 'silent'],
      { env: { ...process.env, ...nodeA, ASSAY_LEASE_MS: '1500' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    const base = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const report = JSON.parse(readFileSync(REPORT, 'utf8')) as { report_metadata: Record<string, unknown> };
    const callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    report.report_metadata.configuration = { callback_url: callback, auth_type: 'bearer', auth_token: TOKEN };
    const [lab, rep] = await Promise.all([
      fetch(`${base}/extraction/lab/upload`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ pdfFile: readFileSync(LAB_PDF).toString('base64'), filename: 'labs.pdf' }),
      }),
      fetch(`${base}/health-score/report/condensed`, {
        method: 'POST',
        headers,
        body: JSON.stringify(report),
      }),
    ]);
    expect(lab.status).toBe(202);
    expect(rep.status).toBe(202);
    // Node A dies at once: at most it claimed the jobs, whose leases run out for node B to take them.
    child.kill('SIGKILL');
    await once(child, 'exit');
    const labId = ((await lab.json()) as { jobId: string }).jobId;
    const reportId = ((await rep.json()) as { job_id: string }).job_id;

    // Nothing of it is in home A's folders; the credential is in PostgreSQL only sealed.
    expect(existsSync(join(homeA.dir, 'uploads')) || existsSync(join(homeA.dir, 'reports'))).toBe(false);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ key: string }>('SELECT key FROM blobs ORDER BY key');
      expect(rows.map((r) => r.key)).toContain(`uploads/${labId}.pdf`);
      const plain = await client.query(
        "SELECT count(*)::int AS n FROM blob_chunks WHERE position(convert_to($1, 'UTF8') in data) > 0",
        [TOKEN],
      );
      expect(plain.rows[0].n).toBe(0);

      const work = await assay(['jobs', 'work', '--drain', '--json'], nodeB);
      expect(work.exitCode, work.stderr).toBe(0);

      const show = async (id: string) =>
        json<JobView>(await assay(['jobs', 'show', id, '--json'], nodeB)) as JobView & { status: string };
      expect((await show(labId)).status).toBe('completed');
      expect((await show(reportId)).status).toBe('completed');
      // The callback got the PDF and the status, authenticated with the credential node A sealed.
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`PUT /hook?job_id=${reportId}`, 'POST /hook']);
      expect(seen.every((s) => s.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
      // Ended jobs leave no upload, credential or delivered PDF behind.
      const left = await client.query<{ key: string }>('SELECT key FROM blobs');
      expect(left.rows).toEqual([]);
    } finally {
      await client.end();
    }
    expect(existsSync(join(homeB.dir, 'uploads')) || existsSync(join(homeB.dir, 'reports'))).toBe(false);
    expect(existsSync(join(homeA.dir, 'keys')) || existsSync(join(homeB.dir, 'keys'))).toBe(false);
    const listed = json<JobView[]>(await assay(['jobs', 'list', '--json'], nodeA));
    expect(listed.map((j) => j.id)).toEqual(expect.arrayContaining([labId, reportId]));
  }, 120_000);
});
