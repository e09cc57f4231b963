import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import { isPublicAddress } from '../../src/delivery/addresses.js';
import { type DeliveryFailure, onDeliveryFailure, sendOnce } from '../../src/delivery/http.js';
import { allowPrivateTargets } from '../../src/delivery/target-guard.js';
import { waitForReport } from '../../src/report/job/status.js';
import { submitReport } from '../../src/report/job/submit.js';
import { parseReportRequest, type ReportStatusRecord } from '../../src/schemas/report.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

const reportWith = (configuration: Record<string, string>) => {
  const request = JSON.parse(
    readFileSync(new URL('../../fixtures/reports/condensed-one-event.json', import.meta.url), 'utf8'),
  ) as { report_metadata: { configuration: Record<string, string> } };
  request.report_metadata.configuration = configuration;
  return request;
};

/** A TCP listener on every interface that counts connections and drops them: a service SSRF could reach. */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : 0,
    connections: () => count,
  };
}

/** Issue #17 item 2: deliveries reach public addresses only, checked at the moment each connects. */
describe('SSRF: callback, storage and webhook targets', () => {
  const home = tmpHome('assay-ssrf-');
  let server: RunningServer;
  let key: string;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const status = async (id: string) =>
    (await (
      await fetch(`${server.url}/health-score/report/status/${id}`, { headers: { 'x-api-key': key } })
    ).json()) as ReportStatusRecord;

  beforeAll(async () => {
    key = createKey(home.dir, 'ssrf').key;
    server = await startTestServer(home.dir, { allowPrivateTargets: false });
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  const literals = [
    'https://[::127.0.0.1]/h',
    'https://[::ffff:10.0.0.1]/h',
    'https://[64:ff9b::7f00:1]/h',
    'https://[fec0::1]/h',
    'https://[ff02::1]/h',
    'https://224.0.0.1/h',
    'https://255.255.255.255/h',
    'https://198.18.0.1/h',
    'https://localhost./h',
  ];

  it.each(literals)('refuses %s as a callback_url at request time (422)', async (url) => {
    const res = await post('/health-score/report/condensed', reportWith({ callback_url: url }));
    expect(res.status).toBe(422);
  });

  it('refuses a non-public webhookUrl literal at request time (422)', async () => {
    const res = await post('/extraction/lab/upload', { webhookUrl: 'https://[64:ff9b::a00:1]/w' });
    expect(res.status).toBe(422);
  });

  it('never connects to a name that resolves to a non-public address, and says so without detail', async () => {
    const name = hostname();
    // The machine's own name resolves to loopback or this host's private address, neither of them public.
    const resolved = await lookup(name, { all: true });
    expect(resolved.length).toBeGreaterThan(0);
    expect(resolved.every((a) => !isPublicAddress(a.address))).toBe(true);

    const target = await listener();
    try {
      const res = await post(
        '/health-score/report/condensed',
        reportWith({ callback_url: `https://${name}:${target.port}/hook` }),
      );
      expect(res.status).toBe(202);
      const { job_id } = (await res.json()) as { job_id: string };
      let record = await status(job_id);
      for (let i = 0; i < 300 && record.status !== 'failed' && target.connections() === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        record = await status(job_id);
      }
      expect(target.connections()).toBe(0);
      expect(record).toMatchObject({ status: 'failed', error_type: 'DeliveryTargetRefused' });
      expect(record.error_message).not.toContain(String(target.port));
      expect(record.error_message).not.toMatch(/ECONN|127\.0\.0\.1|TLS|socket/i);
    } finally {
      target.server.close();
    }
  });

  it('checks the policy when delivering, not only when accepting: a job accepted elsewhere is refused', async () => {
    let requests = 0;
    const receiver = createHttpServer((_req, res) => {
      requests += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    // Accepted without the server's request check (as the CLI, or a server run with
    // --allow-private-targets, would); this server's workers deliver it.
    const engine = await openEngine({ home: home.dir });
    try {
      const parsed = parseReportRequest(reportWith({ callback_url: `http://127.0.0.1:${port}/hook` }), {
        requireDestination: true,
      });
      const { job } = await submitReport(engine, parsed, { home: home.dir });
      const record = await waitForReport(engine.store, job.id, { signal: AbortSignal.timeout(20_000) });
      expect(record).toMatchObject({ status: 'failed', error_type: 'DeliveryTargetRefused' });
      expect(requests).toBe(0);
    } finally {
      await engine.close();
      receiver.close();
    }
  });

  it('a delivery that gets no answer reports one generic message; the detail goes to the log only', async () => {
    const closed = await listener();
    closed.server.close();
    const failures: DeliveryFailure[] = [];
    const stop = onDeliveryFailure((f) => failures.push(f));
    allowPrivateTargets(true);
    try {
      const url = `http://127.0.0.1:${closed.port}/hook?token=abc`;
      const result = await sendOnce(url, { method: 'POST', headers: {}, body: '{}' });
      expect(result).toMatchObject({ ok: false, errorType: 'DeliveryNetworkError' });
      expect(result.message).not.toMatch(/ECONNREFUSED|refused/i);
      expect(failures).toEqual([
        {
          target: `http://127.0.0.1:${closed.port}/hook`,
          code: 'ECONNREFUSED',
          address: '127.0.0.1',
          port: closed.port,
        },
      ]);
    } finally {
      allowPrivateTargets(false);
      stop();
    }
  });
});
