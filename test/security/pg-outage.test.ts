import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assay, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { type PgServer, startPostgres } from '../support/postgres-server.js';
import { ROOT } from './support/serve-process.js';

const PDF = readFileSync(join(ROOT, 'fixtures/labs/quest-cbc-a1c.pdf'));
const REPORT = readFileSync(join(ROOT, 'fixtures/reports/condensed-one-event.json'), 'utf8');

/**
 * Issue #30 item 4: with its PostgreSQL store stopped, `assay serve` answers every store-backed route 503
 * with Retry-After (the request may succeed once the store is back), never 500; as SQLite does.
 */
describe('PostgreSQL store stopped under a running server (#30 item 4)', () => {
  const home = tmpHome('assay-pg-outage-');
  let pg: PgServer;
  let server: ChildProcess;
  let base: string;
  let key: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    pg = await startPostgres();
    env = { ASSAY_HOME: home.dir, ASSAY_STORE: await pg.createDatabase() };
    key = json<{ key: string }>(await assay(['keys', 'create', '--name', 'outage', '--json'], env)).key;
    server = spawn(
      process.execPath,
      [join(ROOT, 'bin/run.js'), 'serve', '--port', '0', '--log-level', 'silent'],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout?.resume();
    let stderr = '';
    base = await new Promise<string>((resolve, reject) => {
      server.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    home.cleanup();
  });

  it('upload, pre-signed URL and its PUT, status, results, reports, reference data: 503 + Retry-After', async () => {
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    // Made while the store is up: what a client holds when the outage starts.
    const made = await fetch(`${base}/extraction/lab/upload`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ filename: 'a.pdf' }),
    });
    expect(made.status).toBe(200);
    const { jobId, uploadUrl } = (await made.json()) as { jobId: string; uploadUrl: string };

    await pg.stop();

    const requests: Array<[string, string, RequestInit]> = [
      [
        'upload',
        '/extraction/lab/upload',
        { method: 'POST', headers, body: JSON.stringify({ pdfFile: PDF.toString('base64') }) },
      ],
      [
        'pre-signed URL',
        '/extraction/lab/upload',
        { method: 'POST', headers, body: JSON.stringify({ filename: 'b.pdf' }) },
      ],
      [
        'PUT',
        uploadUrl.replace(/^https?:\/\/[^/]+/, ''),
        { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: PDF },
      ],
      ['lab status', `/extraction/lab/status/${jobId}`, { headers }],
      ['lab results', `/extraction/lab/results/${jobId}`, { headers }],
      ['report', '/health-score/report/condensed', { method: 'POST', headers, body: REPORT }],
      ['report status', `/health-score/report/status/${jobId}`, { headers }],
      ['report pdf', `/health-score/report/${jobId}/pdf`, { headers }],
      ['reference data', '/reference-data/', { headers }],
      ['lab ranges', '/lab-ranges/', { headers }],
      ['top predictors', '/top-disease-predictors/', { headers }],
    ];
    const answers: string[] = [];
    for (const [name, path, init] of requests) {
      const res = await fetch(`${base}${path}`, init);
      const body = await res.text();
      answers.push(`${name} ${res.status} ${res.headers.get('retry-after') ?? '-'}`);
      expect(body, name).not.toMatch(/ECONNREFUSED|ENOENT|\.s\.PGSQL|postgres(ql)?:\/\//i);
    }
    expect(answers).toEqual(requests.map(([name]) => `${name} 503 5`));
    expect(server.exitCode).toBeNull();
  }, 90_000);
});
