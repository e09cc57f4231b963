import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import { reportAckSchema, reportCallbackSchema, reportStatusRecordSchema } from '../../src/schemas/report.js';
import type { RunningServer } from '../../src/server/serve.js';
import { checkTargetUrl } from '../../src/server/target-policy.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startTestServer } from './support/test-server.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/reports/${name}`, import.meta.url), 'utf8')) as {
    report_metadata: { configuration: Record<string, string> };
  };

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A callback receiver on 127.0.0.1 implementing POST and PUT on one URL, as SPEC.md asks. */
function receiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received }),
    ),
  );
}

describe('report routes (SPEC.md A) on a real server with a real callback receiver', () => {
  const home = tmpHome('assay-report-routes-');
  let server: RunningServer;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let key: string;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const status = async (id: string) =>
    (await fetch(`${server.url}/health-score/report/status/${id}`, { headers: { 'x-api-key': key } })).json();

  beforeAll(async () => {
    const db = openDatabase(home.dir);
    key = new ApiKeys(db, { home: home.dir }).create('reports').key;
    db.close();
    hook = await receiver();
    server = await startTestServer(home.dir, { workers: 2, allowPrivateTargets: true });
  });
  afterAll(async () => {
    await server.close();
    hook.server.close();
    home.cleanup();
  });

  it('accepts a full report (202, A2), delivers PUT ?job_id= and the A4 POST with bearer auth, status completed', async () => {
    const request = fixture('full-three-events.json');
    request.report_metadata.configuration = {
      callback_url: hook.url,
      auth_type: 'bearer',
      auth_token: 'secret-token-1',
    };
    const res = await post('/health-score/report', request);
    expect(res.status).toBe(202);
    const ack = reportAckSchema.parse(await res.json());
    expect(ack.status).toBe('accepted');

    let record = reportStatusRecordSchema.parse(await status(ack.job_id));
    for (let i = 0; i < 200 && record.status !== 'completed' && record.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      record = reportStatusRecordSchema.parse(await status(ack.job_id));
    }
    expect(record).toMatchObject({
      job_id: ack.job_id,
      status: 'completed',
      error_type: null,
      error_message: null,
    });

    const put = hook.received.find((r) => r.method === 'PUT');
    expect(put?.url).toBe(`/hook?job_id=${ack.job_id}`);
    expect(put?.body.subarray(0, 5).toString()).toBe('%PDF-');
    const callback = hook.received.find((r) => r.method === 'POST');
    expect(callback?.headers.authorization).toBe('Bearer secret-token-1');
    expect(reportCallbackSchema.parse(JSON.parse(String(callback?.body)))).toMatchObject({
      job_id: ack.job_id,
      status: 'success',
    });
  });

  it('a request with neither destination is rejected (422) with a clear message', async () => {
    const res = await post('/health-score/report', fixture('full-no-destination.json'));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      /storage_presigned_url or callback_url/,
    );
  });

  it('malformed JSON is 400; a condensed request on the full route is 422; unknown job is 404', async () => {
    expect((await post('/health-score/report', '{"report_metadata":')).status).toBe(400);
    const condensed = fixture('condensed-one-event.json');
    condensed.report_metadata.configuration = { callback_url: hook.url };
    expect((await post('/health-score/report', condensed)).status).toBe(422);
    const missing = await fetch(`${server.url}/health-score/report/status/nope`, {
      headers: { 'x-api-key': key },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: expect.stringMatching(/No report job/) });
  });
});

describe('callback and upload URL policy', () => {
  it('refuses http and private or loopback targets unless allowed', () => {
    expect(() => checkTargetUrl('https://hooks.example.com/x', 'callback_url', false)).not.toThrow();
    for (const bad of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'https://localhost/x',
      'https://169.254.169.254/latest',
    ]) {
      expect(() => checkTargetUrl(bad, 'callback_url', false)).toThrow(/callback_url/);
    }
    expect(() => checkTargetUrl('http://127.0.0.1:9/x', 'callback_url', true)).not.toThrow();
    expect(() => checkTargetUrl('not a url', 'callback_url', true)).toThrow(/absolute URL/);
  });
});
