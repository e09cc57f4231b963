/**
 * Issue #29.7 acceptance: a client generated from the served /openapi.json (openapi-typescript types,
 * openapi-fetch calls) type-checks with tsc, and with it a program uploads a lab PDF (multipart form and
 * raw PDF), polls the status, downloads the result as JSON, FHIR and CSV, submits a report and downloads
 * its PDF, against a real `assay serve` on 127.0.0.1. Spawns tsc (system tier).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from './support/test-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** A report receiver whose PUT waits for `release()`: the server keeps the report's PDF meanwhile. */
function holdingReceiver(): Promise<{ server: Server; url: string; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'PUT') void released.then(() => res.writeHead(200).end());
      else res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        release,
      }),
    ),
  );
}

/**
 * The program an integrator would write with the generated types. The `@ts-expect-error` lines prove the
 * types bind: tsc fails if any of them is not an error.
 */
const CLIENT = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type Status = components['schemas']['LabJobStatus'];
type Report = components['schemas']['FullReportRequest'];

export interface Flow {
  multipart: { status: number; location: string | null; jobId: string };
  raw: { status: number; jobId: string };
  final: Status;
  json: Status;
  fhir: { resourceType?: string; entry?: unknown[] };
  csv: string;
  reportAck: components['schemas']['ReportAck'];
  reportPdf: Uint8Array;
}

const FINAL = ['completed', 'failed', 'quarantined', 'rejected_phi', 'invalid_document', 'cancelled'];

export async function flow(
  baseUrl: string,
  apiKey: string,
  pdf: Uint8Array<ArrayBuffer>,
  report: Report,
): Promise<Flow> {
  // Answers typed as their application/json content; the other forms are asked for with parseAs.
  const client = createClient<paths, 'application/json'>({ baseUrl, headers: { 'x-api-key': apiKey } });
  const pdfBlob = new Blob([pdf], { type: 'application/pdf' });

  // Upload as a multipart form: the body is typed as the LabUploadForm schema.
  const form = await client.POST('/extraction/lab/upload', {
    body: { pdfFile: pdfBlob, filename: 'annual.pdf', rejectIfPHI: 'false' },
    bodySerializer(body) {
      const data = new FormData();
      for (const [name, value] of Object.entries(body as Record<string, string | Blob>)) {
        if (value instanceof Blob) data.append(name, value, 'annual.pdf');
        else data.append(name, value);
      }
      return data;
    },
  });
  if (!form.data || !('status' in form.data) || form.data.status !== 'queued') {
    throw new Error('multipart upload not queued: ' + JSON.stringify(form.error));
  }
  const jobId: string = form.data.jobId;

  // The same PDF as the raw body, the other members as typed query parameters.
  const raw = await client.POST('/extraction/lab/upload', {
    params: { query: { filename: 'annual.pdf', rejectIfPHI: 'false' } },
    body: pdfBlob,
    bodySerializer: (body) => body,
    headers: { 'content-type': 'application/pdf' },
  });
  if (!raw.data || !('status' in raw.data)) throw new Error('raw upload failed: ' + JSON.stringify(raw.error));

  // Poll the status until the job ends.
  let final: Status | undefined;
  for (let i = 0; i < 600; i++) {
    const { data, error } = await client.GET('/extraction/lab/status/{jobId}', { params: { path: { jobId } } });
    if (error) throw new Error('status: ' + error.message);
    if (FINAL.includes(data.status)) {
      final = data;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!final) throw new Error('the job did not end');

  const results = { params: { path: { jobId } } } as const;
  const json = await client.GET('/extraction/lab/results/{jobId}', results);
  if (!json.data) throw new Error('results: ' + JSON.stringify(json.error));
  const fhir = await client.GET('/extraction/lab/results/{jobId}', {
    ...results,
    headers: { accept: 'application/fhir+json' },
    parseAs: 'json',
  });
  const csv = await client.GET('/extraction/lab/results/{jobId}', {
    ...results,
    headers: { accept: 'text/csv' },
    parseAs: 'text',
  });
  if (csv.data === undefined) throw new Error('csv: ' + JSON.stringify(csv.error));

  // A report, and its PDF while the server keeps it (until delivered).
  const ack = await client.POST('/health-score/report', { body: report });
  if (!ack.data) throw new Error('report: ' + ack.error?.detail);
  let reportPdf: Uint8Array | undefined;
  for (let i = 0; i < 600 && !reportPdf; i++) {
    const { data, response } = await client.GET('/health-score/report/{job_id}/pdf', {
      params: { path: { job_id: ack.data.job_id } },
      parseAs: 'arrayBuffer',
    });
    if (data) reportPdf = new Uint8Array(data);
    else if (response.status !== 425) throw new Error('report pdf: ' + response.status);
    else await new Promise((r) => setTimeout(r, 100));
  }
  if (!reportPdf) throw new Error('the report PDF never came');

  return {
    multipart: { status: form.response.status, location: form.response.headers.get('location'), jobId },
    raw: { status: raw.response.status, jobId: raw.data.jobId },
    final,
    json: json.data,
    fhir: fhir.data as unknown as Flow['fhir'],
    csv: csv.data,
    reportAck: ack.data,
    reportPdf,
  };
}

// Never called: each line must be a type error for tsc to pass.
export function typesBind(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error the path parameter jobId is required
  void client.GET('/extraction/lab/status/{jobId}', {});
  // @ts-expect-error no such route
  void client.GET('/extraction/lab/nothing');
  // @ts-expect-error a report request needs health_events
  void client.POST('/health-score/report', { body: { uid_ext: 'x', report_metadata: {} } });
  // @ts-expect-error rejectIfPHI is 'true' or 'false' as a query parameter
  void client.POST('/extraction/lab/upload', { params: { query: { rejectIfPHI: 'yes' } }, body: {} });
}
`;

describe('issue #29.7: a client generated from /openapi.json works against a real server', () => {
  const home = tmpHome('assay-generated-client-');
  const work = mkdtempSync(join(tmpdir(), 'assay-client-'));
  let server: RunningServer;
  let hook: Awaited<ReturnType<typeof holdingReceiver>>;
  let key: string;

  beforeAll(async () => {
    key = createKey(home.dir, 'sdk').key;
    hook = await holdingReceiver();
    server = await startTestServer(home.dir, { workers: 2, allowPrivateTargets: true });
  });
  afterAll(async () => {
    hook?.release();
    await server?.close();
    hook?.server.close();
    home.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it('generates, type-checks and runs: upload, poll, JSON, FHIR, CSV, report PDF', {
    timeout: 240_000,
  }, async () => {
    // Binary bodies and answers (format: binary) as Blob, as openapi-typescript's docs suggest.
    const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
    const ast = await openapiTS(new URL(`${server.url}/openapi.json`), {
      transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
      silent: true,
    });
    const types = astToString(ast);
    expect(types).toMatch(/export interface paths/);
    expect(types).toMatch(/LabUploadForm: \{/);
    expect(types).toMatch(/"multipart\/form-data": components\["schemas"\]\["LabUploadForm"\]/);
    expect(types).toMatch(/operations\["uploadLabPdf"\]/);
    writeFileSync(join(work, 'api.ts'), types);
    writeFileSync(join(work, 'client.ts'), CLIENT);
    writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['api.ts', 'client.ts'],
      }),
    );
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');

    const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', work], {
      cwd: work,
    }).catch((error: { stdout?: string; message: string }) => ({ stdout: error.stdout ?? error.message }));
    expect(tsc.stdout).toBe('');

    const { flow } = (await import(pathToFileURL(join(work, 'client.ts')).href)) as {
      flow: (
        baseUrl: string,
        apiKey: string,
        pdf: Uint8Array<ArrayBuffer>,
        report: unknown,
      ) => Promise<{
        multipart: { status: number; location: string | null; jobId: string };
        raw: { status: number; jobId: string };
        final: { status: string; labName?: string };
        json: { jobId: string; status: string; panels?: unknown[] };
        fhir: { resourceType?: string; entry?: unknown[] };
        csv: string;
        reportAck: { job_id: string; status: string };
        reportPdf: Uint8Array;
      }>;
    };
    const pdf = readFileSync(join(ROOT, 'fixtures/labs/quest-annual-male.pdf'));
    const report = JSON.parse(readFileSync(join(ROOT, 'fixtures/reports/full-three-events.json'), 'utf8'));
    report.report_metadata.configuration = { callback_url: hook.url };

    const out = await flow(server.url, key, new Uint8Array(pdf), report);
    expect(out.multipart).toMatchObject({
      status: 202,
      location: `/extraction/lab/status/${out.multipart.jobId}`,
    });
    expect(out.raw.status).toBe(202);
    expect(out.final).toMatchObject({ status: 'completed', labName: 'Quest Diagnostics' });
    expect(out.json).toMatchObject({ jobId: out.multipart.jobId, status: 'completed' });
    expect(out.json.panels?.length).toBeGreaterThan(0);
    expect(out.fhir.resourceType).toBe('Bundle');
    expect(out.fhir.entry?.length).toBeGreaterThan(0);
    expect(out.csv.split('\n')[0]).toMatch(/biomarker/i);
    expect(out.csv.trim().split('\n').length).toBeGreaterThan(5);
    expect(out.reportAck.status).toBe('accepted');
    expect(Buffer.from(out.reportPdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
