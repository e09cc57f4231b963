import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowPrivateTargets } from '../../src/delivery/target-guard.js';
import { Engine } from '../../src/engine/engine.js';
import { JobRegistry } from '../../src/engine/registry.js';
import { deliveryKind } from '../../src/report/delivery/deliver-kind.js';
import { DELIVERY_KIND } from '../../src/report/delivery/payload.js';
import { pdfPath, reportDir } from '../../src/report/job/files.js';
import { reportKinds } from '../../src/report/job/kind.js';
import { type RenderFn, renderInline } from '../../src/report/job/render-pool.js';
import {
  deliveryJobs,
  reportStatus,
  requireReportStatus,
  waitForReport,
} from '../../src/report/job/status.js';
import { submitReport } from '../../src/report/job/submit.js';
import { parseReportRequest, reportCallbackSchema } from '../../src/schemas/report.js';
import { fixtureJson } from './support/fixtures.js';
import { type Receiver, type Responder, startReceiver } from './support/receiver.js';

// The receivers here listen on 127.0.0.1, which deliveries refuse unless the process allows it.
allowPrivateTargets(true);

const TOKEN = 'secret-token-for-tests';
let home: string;
let engine: Engine;
const receivers: Receiver[] = [];

function open(render: RenderFn = renderInline, timeoutMs?: number): Engine {
  const registry = new JobRegistry();
  for (const kind of reportKinds({ render, deliveryMaxAttempts: 4, timeoutMs })) registry.register(kind);
  registry.register(deliveryKind({ maxAttempts: 4, backoff: { baseMs: 20, maxMs: 50 }, timeoutMs: 2000 }));
  engine = Engine.open(home, registry);
  engine.startWorker({ concurrency: 2, pollMs: 20 });
  return engine;
}

async function receiver(respond?: Responder): Promise<Receiver> {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

function request(configuration: Record<string, string>) {
  const json = fixtureJson('condensed-required-only') as { report_metadata: Record<string, unknown> };
  json.report_metadata.configuration = configuration;
  return parseReportRequest(json, { requireDestination: true });
}

async function run(configuration: Record<string, string>) {
  const { job } = await submitReport(engine, request(configuration), { home });
  const status = await waitForReport(engine.store, job.id);
  return { id: job.id, status };
}

const credentialFiles = () => {
  const dir = join(reportDir(home), 'credentials');
  return existsSync(dir) ? readdirSync(dir) : [];
};

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'assay-report-jobs-'));
});
afterEach(async () => {
  await engine?.close(1000);
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  rmSync(home, { recursive: true, force: true });
});

describe('report jobs and their deliveries', () => {
  it('uploads to storage, then POSTs success with the storage location; the credential and PDF copy go', async () => {
    open();
    const storage = await receiver();
    const hook = await receiver();
    const { id, status } = await run({
      storage_presigned_url: `${storage.url}/bucket/r.pdf?X-Signature=abc`,
      callback_url: `${hook.url}/hook`,
      auth_type: 'bearer',
      auth_token: TOKEN,
    });
    expect(status).toMatchObject({ job_id: id, status: 'completed', error_type: null, error_message: null });
    expect(storage.requests).toHaveLength(1);
    expect(storage.requests[0]?.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(hook.requests.map((r) => r.method)).toEqual(['POST']);
    expect(hook.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const body = reportCallbackSchema.parse(JSON.parse(hook.requests[0]?.body.toString() ?? ''));
    expect(body).toMatchObject({
      job_id: id,
      status: 'success',
      storage_location: `${storage.url}/bucket/r.pdf`,
    });
    expect(typeof body.processing_time).toBe('number');
    expect(credentialFiles()).toEqual([]);
    expect(existsSync(pdfPath(reportDir(home), id))).toBe(false);
    // Neither the credential, the external user id nor a health value entered the job store readably.
    const rows = JSON.stringify(await engine.store.list({ limit: 100 }));
    const fixture = fixtureJson('condensed-required-only') as {
      uid_ext: string;
      report_metadata: { event_id: string };
      health_event: { health_event_id: string; predictors: Array<{ id: string; value: string }> };
    };
    expect(rows).not.toContain(TOKEN);
    expect(rows).not.toContain(fixture.uid_ext);
    for (const value of [
      fixture.report_metadata.event_id,
      fixture.health_event.health_event_id,
      ...fixture.health_event.predictors.flatMap((p) => [p.id, `"${p.value}"`]),
    ]) {
      expect(rows).not.toContain(value);
    }
  });

  it('with only a callback: PUTs the PDF to ?job_id=<id>, then POSTs the status', async () => {
    open();
    const hook = await receiver();
    const { id, status } = await run({
      callback_url: `${hook.url}/hook`,
      auth_type: 'api_key',
      auth_token: TOKEN,
      auth_key_name: 'X-Receiver-Key',
    });
    expect(status.status).toBe('completed');
    expect(hook.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `PUT /hook?job_id=${id}`,
      'POST /hook',
    ]);
    expect(hook.requests.every((r) => r.headers['x-receiver-key'] === TOKEN)).toBe(true);
    expect(hook.requests[0]?.headers['content-type']).toBe('application/pdf');
    const body = JSON.parse(hook.requests[1]?.body.toString() ?? '');
    expect(body).toMatchObject({ job_id: id, status: 'success' });
    expect(body.storage_location).toBeUndefined();
  });

  it('a 403 from the storage URL fails the report with PresignedUrlForbidden, tells the callback, keeps the PDF', async () => {
    open();
    const storage = await receiver((_q, res) => res.writeHead(403).end());
    const hook = await receiver();
    const { id, status } = await run({
      storage_presigned_url: `${storage.url}/bucket/r.pdf`,
      callback_url: `${hook.url}/hook`,
      auth_type: 'basic',
      auth_token: 'user:pw',
    });
    expect(status).toMatchObject({ status: 'failed', error_type: 'PresignedUrlForbidden' });
    expect(status.error_message).toMatch(/PUT/);
    expect(storage.requests).toHaveLength(1);
    const body = JSON.parse(hook.requests[0]?.body.toString() ?? '');
    expect(body).toMatchObject({ job_id: id, status: 'failed', error_type: 'PresignedUrlForbidden' });
    expect(hook.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('user:pw').toString('base64')}`,
    );
    expect(existsSync(pdfPath(reportDir(home), id))).toBe(true);
    expect(credentialFiles()).toEqual([]);
  });

  it('retries a receiver that fails twice with the engine backoff, then completes', async () => {
    open();
    const storage = await receiver((_q, res, i) => res.writeHead(i < 2 ? 503 : 200).end());
    const { id, status } = await run({ storage_presigned_url: `${storage.url}/b/r.pdf` });
    expect(status.status).toBe('completed');
    expect(storage.requests).toHaveLength(3);
    const [delivery] = await deliveryJobs(engine.store, id);
    expect(delivery).toMatchObject({ kind: DELIVERY_KIND, status: 'completed', attempts: 3 });
  });

  it('honours Retry-After by rescheduling the delivery, not by holding a worker', async () => {
    open();
    const storage = await receiver((_q, res, i) =>
      i === 0 ? res.writeHead(429, { 'Retry-After': '1' }).end() : res.writeHead(200).end(),
    );
    const started = Date.now();
    const { id, status } = await run({ storage_presigned_url: `${storage.url}/b/r.pdf` });
    expect(status.status).toBe('completed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const jobs = await deliveryJobs(engine.store, id);
    expect(jobs.map((j) => j.status).sort()).toEqual(['completed', 'rescheduled']);
  });

  it('a callback that never succeeds leaves the uploaded report completed and still removes the credential', async () => {
    open();
    const storage = await receiver();
    const hook = await receiver((_q, res) => res.writeHead(500).end());
    const { id, status } = await run({
      storage_presigned_url: `${storage.url}/b/r.pdf`,
      callback_url: `${hook.url}/hook`,
      auth_type: 'bearer',
      auth_token: TOKEN,
    });
    expect(status.status).toBe('completed');
    expect(hook.requests).toHaveLength(4);
    const post = (await deliveryJobs(engine.store, id)).find((j) => j.status === 'failed');
    expect(post?.result).toMatchObject({ step: 'callback_post', delivered: false, http_status: 500 });
    expect(credentialFiles()).toEqual([]);
  });

  it('a report that cannot be generated ends failed and the callback hears of it', async () => {
    open(async () => {
      throw Object.assign(new Error('the renderer broke'), { name: 'ReportRenderError' });
    });
    const hook = await receiver();
    const { id, status } = await run({
      callback_url: `${hook.url}/hook`,
      auth_type: 'bearer',
      auth_token: TOKEN,
    });
    expect(status).toMatchObject({
      status: 'failed',
      error_type: 'ReportRenderError',
      error_message: 'the renderer broke',
    });
    expect(hook.requests.map((r) => r.method)).toEqual(['POST']);
    expect(JSON.parse(hook.requests[0]?.body.toString() ?? '')).toMatchObject({
      job_id: id,
      status: 'failed',
      error_type: 'ReportRenderError',
    });
    expect(credentialFiles()).toEqual([]);
  });

  it('a report whose every attempt times out ends failed, and the callback still hears of it', async () => {
    open(() => new Promise<never>(() => {}), 100);
    const hook = await receiver();
    const { id, status } = await run({
      callback_url: `${hook.url}/hook`,
      auth_type: 'bearer',
      auth_token: TOKEN,
    });
    expect(status).toMatchObject({ status: 'failed', error_type: 'JobTimeout' });
    // The failure callback is its own delivery job, enqueued with the failure.
    for (let i = 0; i < 100 && hook.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(hook.requests[0]?.body.toString() ?? '{}')).toMatchObject({
      job_id: id,
      status: 'failed',
      error_type: 'JobTimeout',
    });
    expect(hook.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  }, 20_000);

  it('a request sealed with a key the home no longer has fails at once, and says so without its values', async () => {
    const registry = new JobRegistry();
    for (const kind of reportKinds({ render: renderInline })) registry.register(kind);
    registry.register(deliveryKind({ maxAttempts: 1 }));
    engine = Engine.open(home, registry);
    const hook = await receiver();
    const { job } = await submitReport(engine, request({ callback_url: `${hook.url}/hook` }), { home });
    // Sealed at submission; the key is then replaced, as when keys/ is lost or copied from elsewhere.
    writeFileSync(join(home, 'keys', 'payload.key'), Buffer.alloc(32, 7).toString('base64'));
    engine.startWorker({ concurrency: 1, pollMs: 20 });
    const status = await waitForReport(engine.store, job.id);
    expect(status).toMatchObject({ status: 'failed', error_type: 'SealedValueError' });
    expect((await engine.store.get(job.id))?.attempts).toBe(1);
    expect(hook.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('reports pending before a worker takes the job', async () => {
    const registry = new JobRegistry();
    for (const kind of reportKinds({ render: renderInline })) registry.register(kind);
    engine = Engine.open(home, registry);
    const { job } = await submitReport(engine, request({ callback_url: 'http://127.0.0.1:9/x' }), { home });
    expect((await reportStatus(engine.store, job.id))?.status).toBe('pending');
    expect(await reportStatus(engine.store, 'no-such-job')).toBeNull();
    await expect(requireReportStatus(engine.store, 'no-such-job')).rejects.toThrow(/No report job/);
  });

  it('an idempotency key returns the existing job instead of a second one', async () => {
    const registry = new JobRegistry();
    for (const kind of reportKinds({ render: renderInline })) registry.register(kind);
    engine = Engine.open(home, registry);
    const parsed = request({ callback_url: 'http://127.0.0.1:9/x', auth_type: 'bearer', auth_token: TOKEN });
    const first = await submitReport(engine, parsed, { home, idempotencyKey: 'file.json:abc' });
    const again = await submitReport(engine, parsed, { home, idempotencyKey: 'file.json:abc' });
    expect(again).toMatchObject({ duplicate: true, job: { id: first.job.id } });
    expect(credentialFiles()).toHaveLength(1);
  });
});
