import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startTestServer } from './support/test-server.js';

const pdf = (name: string) => readFileSync(new URL(`../../fixtures/labs/${name}.pdf`, import.meta.url));

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

function webhookReceiver(): Promise<{ server: Server; url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
        deliveries,
      }),
    ),
  );
}

describe('lab routes (SPEC.md B) on a real server with a real webhook receiver', () => {
  const home = tmpHome('assay-lab-routes-');
  let server: RunningServer;
  let hook: Awaited<ReturnType<typeof webhookReceiver>>;
  let key: string;
  let otherKey: string;
  let secret: string;
  const headers = () => ({ 'x-api-key': key, 'content-type': 'application/json' });
  const upload = (body: unknown) =>
    fetch(`${server.url}/extraction/lab/upload`, {
      method: 'POST',
      headers: headers(),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = async (path: string) => fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } });
  const eventFor = async (jobId: string) => {
    for (let i = 0; i < 200; i++) {
      const found = hook.deliveries.find((d) => JSON.parse(d.body).jobId === jobId);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no webhook for ${jobId}`);
  };

  beforeAll(async () => {
    const db = openDatabase(home.dir);
    const created = new ApiKeys(db, { home: home.dir }).create('lab');
    key = created.key;
    secret = created.apiKey.webhookSecret;
    otherKey = new ApiKeys(db, { home: home.dir }).create('other').key;
    db.close();
    hook = await webhookReceiver();
    process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR = '8';
    server = await startTestServer(home.dir, { workers: 2, allowPrivateTargets: true });
  });
  afterAll(async () => {
    delete process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR;
    await server.close();
    hook.server.close();
    home.cleanup();
  });

  it('base64 upload: 202 queued, then status and results carry ExtractionResults, and a signed job.completed webhook arrives', async () => {
    const res = await upload({
      pdfFile: pdf('quest-cmp-lipid').toString('base64'),
      filename: 'a.pdf',
      webhookUrl: hook.url,
    });
    expect(res.status).toBe(202);
    const queued = (await res.json()) as { jobId: string; status: string };
    expect(queued.status).toBe('queued');

    const delivery = await eventFor(queued.jobId);
    expect(delivery.headers['x-api-key']).toBe(secret);
    const envelope = new Webhook(secret).verify(
      delivery.body,
      delivery.headers as Record<string, string>,
    ) as {
      event: string;
      data: { status: string; panels: unknown[] };
    };
    expect(envelope.event).toBe('job.completed');
    expect(envelope.data.panels.length).toBeGreaterThan(0);

    const status = (await (await get(`/extraction/lab/status/${queued.jobId}`)).json()) as {
      status: string;
      panels: unknown[];
    };
    expect(status).toMatchObject({ jobId: queued.jobId, status: 'completed', labName: 'Quest Diagnostics' });
    const results = await get(`/extraction/lab/results/${queued.jobId}`);
    expect(results.status).toBe(200);
    expect(await results.json()).toEqual(status);

    // The same results in the formats analysts load: asked for by Accept.
    const as = (accept: string) =>
      fetch(`${server.url}/extraction/lab/results/${queued.jobId}`, {
        headers: { 'x-api-key': key, accept },
      });
    const fhir = await as('application/fhir+json');
    expect(fhir.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    const bundle = (await fhir.json()) as {
      resourceType: string;
      entry: Array<{ resource: { resourceType: string } }>;
    };
    expect(bundle.resourceType).toBe('Bundle');
    const results_ = status.panels.flatMap((p) => (p as { panelResults: unknown[] }).panelResults);
    expect(bundle.entry.filter((e) => e.resource.resourceType === 'Observation')).toHaveLength(
      results_.length,
    );
    const csv = await as('text/csv');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(results_.length + 1);
    expect(fhir.headers.get('vary')).toMatch(/accept/i);
  });

  it('a rejected document sends job.invalid_document with its rejection_reason; results are 409', async () => {
    const res = await upload({ pdfFile: pdf('reject-other-lab').toString('base64'), webhookUrl: hook.url });
    const { jobId } = (await res.json()) as { jobId: string };
    const envelope = JSON.parse((await eventFor(jobId)).body) as {
      event: string;
      data: { error: { rejection_reason: string } };
    };
    expect(envelope.event).toBe('job.invalid_document');
    expect(envelope.data.error.rejection_reason).toBe('non_supported_lab');
    expect((await get(`/extraction/lab/results/${jobId}`)).status).toBe(409);
  });

  it('a corrupt PDF fails with invalid_pdf and sends job.failed', async () => {
    const res = await upload({ pdfFile: pdf('corrupt-truncated').toString('base64'), webhookUrl: hook.url });
    const { jobId } = (await res.json()) as { jobId: string };
    const envelope = JSON.parse((await eventFor(jobId)).body) as {
      event: string;
      data: { error: { code: string } };
    };
    expect(envelope).toMatchObject({ event: 'job.failed', data: { error: { code: 'invalid_pdf' } } });
  });

  it('pre-signed flow: 200 with uploadUrl, 425 before the file, 403 for a bad signature, PUT starts processing', async () => {
    const res = await upload({ filename: 'big.pdf' });
    expect(res.status).toBe(200);
    const { jobId, uploadUrl } = (await res.json()) as { jobId: string; uploadUrl: string };
    expect(((await (await get(`/extraction/lab/status/${jobId}`)).json()) as { status: string }).status).toBe(
      'pending_upload',
    );
    expect((await get(`/extraction/lab/results/${jobId}`)).status).toBe(425);

    const forged = uploadUrl.replace(/signature=[^&]+/, 'signature=forged');
    const denied = await fetch(forged, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: pdf('quest-cbc-a1c'),
    });
    expect(denied.status).toBe(403);

    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: pdf('quest-cbc-a1c'),
    });
    expect(put.status).toBe(200);
    let status = '';
    for (let i = 0; i < 200 && status !== 'completed'; i++) {
      status = ((await (await get(`/extraction/lab/status/${jobId}`)).json()) as { status: string }).status;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('completed');
  });

  it('bad requests: 400 invalid_request / invalid_pdf, 404 unknown job, 413 over 10 MB, all in the lab error body', async () => {
    const badField = await upload({ pdfFile: 'not base64!', rejectIfPHI: 'yes' });
    expect(badField.status).toBe(400);
    const body = (await badField.json()) as Record<string, string>;
    expect(body).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/pdfFile|rejectIfPHI/),
    });
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const notPdf = await upload({ pdfFile: Buffer.from('hello world').toString('base64') });
    expect(((await notPdf.json()) as { error: string }).error).toBe('invalid_pdf');

    const missing = await get('/extraction/lab/status/no-such-job');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found' });

    const huge = await upload({ pdfFile: 'A'.repeat(15 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: 'file_too_large' });
  });

  it('a job id answers only its own key and its own area, however often an unknown id is asked', async () => {
    const pending = (await (await upload({ filename: 'mine.pdf' })).json()) as { jobId: string };
    const as = (apiKey: string, path: string) =>
      fetch(`${server.url}${path}`, { headers: { 'x-api-key': apiKey } });
    const labStatus = `/extraction/lab/status/${pending.jobId}`;
    // Asked twice: the second answer comes from the remembered miss and must be the same answer.
    for (let i = 0; i < 2; i++) {
      const foreign = await as(otherKey, labStatus);
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toMatchObject({ error: 'not_found', requestId: expect.any(String) });
      const otherArea = await as(key, `/health-score/report/status/${pending.jobId}`);
      expect(otherArea.status).toBe(404);
      expect(await otherArea.json()).toEqual({ detail: `No report job with id ${pending.jobId}.` });
      expect((await as(key, '/extraction/lab/results/no-such-job')).status).toBe(404);
    }
    // Neither miss hides the job from its owner.
    const mine = await as(key, labStatus);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ jobId: pending.jobId });
  });

  it('past the hourly upload limit: 429 with details.retryAfterSeconds and Retry-After', async () => {
    let res: Response | undefined;
    for (let i = 0; i < 10; i++) res = await upload({ filename: `n${i}.pdf` });
    expect(res?.status).toBe(429);
    const body = (await res?.json()) as { error: string; details: { retryAfterSeconds: number } };
    expect(body.error).toBe('rate_limit_exceeded');
    expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(res?.headers.get('retry-after')).toBe(String(body.details.retryAfterSeconds));
  });
});
