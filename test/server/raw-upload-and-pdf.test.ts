import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from './support/test-server.js';

const labPdf = (name: string) => readFileSync(new URL(`../../fixtures/labs/${name}.pdf`, import.meta.url));
const reportRequest = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/reports/${name}`, import.meta.url), 'utf8')) as {
    report_metadata: { configuration: Record<string, string> };
  };

/** A callback receiver whose PUTs wait for `release()`: the report's PDF stays kept while they wait. */
function holdingReceiver(): Promise<{
  server: Server;
  url: string;
  puts: Buffer[];
  release: () => void;
}> {
  const puts: Buffer[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'PUT') {
        res.writeHead(200).end();
        return;
      }
      puts.push(Buffer.concat(chunks));
      void released.then(() => res.writeHead(200).end());
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        puts,
        release,
      }),
    ),
  );
}

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  let value = await read();
  for (let i = 0; i < 300 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
};

describe('issue #29.7 on a real server: raw PDF upload, Location, report PDF download, operationIds', () => {
  const home = tmpHome('assay-raw-upload-');
  let server: RunningServer;
  let hook: Awaited<ReturnType<typeof holdingReceiver>>;
  let key: string;
  let keyId: string;
  let otherKey: string;
  let limitedKey: string;

  const as = (apiKey: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string>) },
    });
  const rawUpload = (body: Buffer<ArrayBuffer> | string, query = '', apiKey = key) =>
    as(apiKey, `/extraction/lab/upload${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body,
    });
  const jsonUpload = (body: unknown, apiKey = key) =>
    as(apiKey, '/extraction/lab/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** An error answer: its status, its parsed body, and its size in bytes. */
  const errorOf = async (res: Response) => {
    const text = await res.text();
    return {
      status: res.status,
      bytes: Buffer.byteLength(text),
      body: JSON.parse(text) as { error: string; message: string },
    };
  };

  beforeAll(async () => {
    const created = createKey(home.dir, 'raw');
    key = created.key;
    keyId = created.apiKey.id;
    otherKey = createKey(home.dir, 'other').key;
    limitedKey = createKey(home.dir, 'limited').key;
    hook = await holdingReceiver();
    process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR = '12';
    server = await startTestServer(home.dir, { workers: 2, allowPrivateTargets: true });
  });
  afterAll(async () => {
    delete process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR;
    hook.release();
    await server.close();
    hook.server.close();
    home.cleanup();
  });

  it('takes the PDF bytes as the body (application/pdf): 202 with Location, extracted, owned by its key', async () => {
    const res = await rawUpload(labPdf('quest-cmp-lipid'), '?filename=mine.pdf&rejectIfPHI=false');
    expect(res.status).toBe(202);
    const queued = (await res.json()) as { jobId: string; status: string };
    expect(queued.status).toBe('queued');
    expect(res.headers.get('location')).toBe(`/extraction/lab/status/${queued.jobId}`);

    // The Location is relative to the server and answers the job's status to its key.
    const status = await until(
      async () =>
        (await (await as(key, res.headers.get('location') ?? '')).json()) as {
          status: string;
          labName?: string;
        },
      (s) => s.status === 'completed' || s.status === 'failed',
    );
    expect(status).toMatchObject({ status: 'completed', labName: 'Quest Diagnostics' });
    expect((await as(otherKey, `/extraction/lab/status/${queued.jobId}`)).status).toBe(404);

    // The JSON (base64) path answers 202 with its Location too.
    const json = await jsonUpload({ pdfFile: labPdf('quest-cmp-lipid').toString('base64') });
    expect(json.status).toBe(202);
    const jsonJob = (await json.json()) as { jobId: string };
    expect(json.headers.get('location')).toBe(`/extraction/lab/status/${jsonJob.jobId}`);
  });

  it('validates the raw upload as the JSON one: query parameters, PDF header, 10 MB (413)', async () => {
    const pdf = labPdf('quest-cmp-lipid');
    const badDob = await errorOf(await rawUpload(pdf, '?dateOfBirth=31-12-1980'));
    expect(badDob.status).toBe(400);
    expect(badDob.body).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/dateOfBirth/),
    });

    const badFlag = await errorOf(await rawUpload(pdf, '?rejectIfPHI=yes'));
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.message).toMatch(/rejectIfPHI: expected rejectIfPHI as true or false/);

    const badHook = await errorOf(await rawUpload(pdf, '?webhookUrl=not-a-url'));
    expect(badHook.status).toBe(400);
    expect(badHook.body.message).toMatch(/webhookUrl/);

    const unknown = await errorOf(await rawUpload(pdf, `?pdfFile=x&${'z'.repeat(5000)}=1`));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/unknown query parameters "pdfFile", "z+…"; expected filename/);
    expect(unknown.bytes).toBeLessThan(1024);

    const notPdf = await errorOf(await rawUpload('hello, not a PDF'));
    expect(notPdf).toMatchObject({ status: 400, body: { error: 'invalid_pdf' } });
    expect(notPdf.body.message).toMatch(/body is not a PDF/);

    const empty = await errorOf(await rawUpload(Buffer.alloc(0)));
    expect(empty).toMatchObject({ status: 400, body: { error: 'invalid_request' } });

    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.7\n');
    const tooBig = await errorOf(await rawUpload(big));
    expect(tooBig).toMatchObject({ status: 413, body: { error: 'file_too_large' } });
  });

  it('answers a wrong content type or a malformed body with a short, specific message (under 1 KB)', async () => {
    const text = await errorOf(
      await as(key, '/extraction/lab/upload', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'x'.repeat(100_000),
      }),
    );
    expect(text.status).toBe(415);
    expect(text.body.message).toMatch(/^Content-Type text\/plain is not accepted here\. .*application\/pdf/);
    expect(text.bytes).toBeLessThan(1024);

    const form = await errorOf(
      await as(key, '/extraction/lab/upload', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=b',
      }),
    );
    expect(form.status).toBe(415);
    expect(form.bytes).toBeLessThan(1024);

    const malformed = await errorOf(await jsonUpload('{"pdfFile":'));
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_request');
    expect(malformed.bytes).toBeLessThan(1024);

    const array = await errorOf(await jsonUpload([1, 2, 3]));
    expect(array.status).toBe(400);
    expect(array.body.message).toMatch(/^Expected a JSON object body\./);

    // Unknown members are named, clipped and counted, never listed by the thousand or echoed.
    const manyKeys = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`${'k'.repeat(200)}${i}`, i]),
    );
    const many = await errorOf(await jsonUpload(manyKeys));
    expect(many.status).toBe(400);
    expect(many.body.message).toMatch(/^unknown members "k+…", "k+…", "k+…" and 4997 more; expected pdfFile/);
    expect(many.bytes).toBeLessThan(1024);

    const wrongTypes = await errorOf(
      await jsonUpload({ pdfFile: 1, filename: 2, dateOfBirth: 3, webhookUrl: 4, rejectIfPHI: 5 }),
    );
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.message).toMatch(
      /^pdfFile: expected pdfFile as a base64 string; .*\(and 2 more problems\)$/,
    );
    expect(wrongTypes.bytes).toBeLessThan(1024);
  });

  it('counts raw uploads against the same hourly limit as JSON uploads', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await jsonUpload({ filename: `n${i}.pdf` }, limitedKey)).status);
    for (let i = 0; i < 6; i++) statuses.push((await rawUpload('not a pdf', '', limitedKey)).status);
    expect(statuses).toEqual([...Array(6).fill(200), ...Array(6).fill(400)]);
    const over = await rawUpload(labPdf('quest-cmp-lipid'), '', limitedKey);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('report: 202 with Location; GET /health-score/report/{job_id}/pdf gives the PDF while kept, 409 once delivered', async () => {
    const request = reportRequest('full-three-events.json');
    request.report_metadata.configuration = { callback_url: hook.url };
    const res = await as(key, '/health-score/report', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(res.status).toBe(202);
    const ack = (await res.json()) as { job_id: string };
    expect(res.headers.get('location')).toBe(`/health-score/report/status/${ack.job_id}`);
    expect((await as(key, res.headers.get('location') ?? '')).status).toBe(200);

    const pdfPath = `/health-score/report/${ack.job_id}/pdf`;
    // Rendered and kept while the callback PUT is held open by the receiver.
    const kept = await until(
      () => as(key, pdfPath),
      (r) => r.status !== 425,
    );
    expect(kept.status).toBe(200);
    expect(kept.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await kept.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const foreign = await as(otherKey, pdfPath);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: `No report job with id ${ack.job_id}.` });
    const missing = await as(key, '/health-score/report/no-such-job/pdf');
    expect(missing.status).toBe(404);

    // The same bytes went to the callback; once delivered, the server keeps no copy.
    await until(
      async () => hook.puts.length,
      (n) => n > 0,
    );
    expect(hook.puts[0]?.equals(bytes)).toBe(true);
    hook.release();
    const record = await until(
      async () =>
        (await (await as(key, `/health-score/report/status/${ack.job_id}`)).json()) as { status: string },
      (r) => r.status === 'completed' || r.status === 'failed',
    );
    expect(record.status).toBe('completed');
    const gone = await as(key, pdfPath);
    expect(gone.status).toBe(409);
    expect(((await gone.json()) as { detail: string }).detail).toMatch(/no longer kept.*delivered/);
  });

  it('report PDF: 425 before the report is rendered', async () => {
    // A report job of this key that no worker may claim yet, enqueued beside the server on its store.
    const engine = await openEngine({ home: home.dir });
    try {
      const job = await engine.store.enqueue([
        { kind: 'report.full', payload: {}, owner: keyId, held: true, heldStatus: 'pending' },
      ]);
      const id = job[0]?.id ?? '';
      const early = await as(key, `/health-score/report/${id}/pdf`);
      expect(early.status).toBe(425);
      expect(((await early.json()) as { detail: string }).detail).toMatch(/not ready yet/);
      expect((await as(otherKey, `/health-score/report/${id}/pdf`)).status).toBe(404);
    } finally {
      await engine.close();
    }
  });

  it('/openapi.json: every operation has a unique camelCase operationId; the new routes are described', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId?: string;
            requestBody?: { content: Record<string, unknown> };
            responses: Record<
              string,
              { headers?: Record<string, unknown>; content?: Record<string, unknown> }
            >;
          }
        >
      >;
    };
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    expect(ops.length).toBeGreaterThan(10);
    for (const { path, method, op } of ops) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
    }
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const idOf = (method: string, path: string) => doc.paths[path]?.[method]?.operationId;
    expect(idOf('post', '/extraction/lab/upload')).toBe('uploadLabPdf');
    expect(idOf('get', '/extraction/lab/status/{jobId}')).toBe('getLabStatus');
    expect(idOf('get', '/extraction/lab/results/{jobId}')).toBe('getLabResults');
    expect(idOf('post', '/health-score/report')).toBe('submitFullReport');
    expect(idOf('get', '/health-score/report/status/{job_id}')).toBe('getReportStatus');
    expect(idOf('get', '/health-score/report/{job_id}/pdf')).toBe('getReportPdf');

    const upload = doc.paths['/extraction/lab/upload']?.post;
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual([
      'application/json',
      'application/pdf',
      'multipart/form-data',
    ]);
    expect(upload?.responses['202']?.headers).toHaveProperty('Location');
    expect(doc.paths['/health-score/report']?.post?.responses['202']?.headers).toHaveProperty('Location');
    expect(doc.paths['/health-score/report/{job_id}/pdf']?.get?.responses['200']?.content).toHaveProperty(
      'application/pdf',
    );
  });
});
