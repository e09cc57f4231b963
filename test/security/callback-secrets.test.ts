import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { assay } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';
import { filesHolding, sealedCopiesLeft } from './support/files-holding.js';
import { ROOT } from './support/serve-process.js';

const SECRET = 'SECRET123';

const reportWith = (configuration: Record<string, string>) => {
  const request = JSON.parse(
    readFileSync(join(ROOT, 'fixtures/reports/condensed-one-event.json'), 'utf8'),
  ) as {
    report_metadata: { configuration: Record<string, string> };
  };
  request.report_metadata.configuration = configuration;
  return request;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue #30 item 8: a token in a callback_url query string was stored in the clear in the job store (the
 * report's payload and each delivery's), so the database file and its WAL gave it to anyone with a copy.
 * The store keeps the URL without its query; the URL as given is sealed like the pre-signed storage URL,
 * and the receiver is still called at the whole URL, token included.
 */
describe('a secret in callback_url never reaches the disk in the clear (#30 item 8)', () => {
  const tmp = tmpHome('assay-callback-secrets-');
  const received: { method: string; url: string }[] = [];
  let receiver: Server;
  let callback: string;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '' });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb?token=${SECRET}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    tmp.cleanup();
  });

  const waitForCalls = async (n: number) => {
    for (let i = 0; i < 300 && received.length < n; i++) await sleep(100);
    return received.splice(0);
  };

  it('through `assay serve`: not in the database, its WAL or any file of the home; the callback has the token', async () => {
    const home = join(tmp.dir, 'serve-home');
    const { key } = createKey(home, 'callback');
    let server: RunningServer | undefined = await startTestServer(home, { allowPrivateTargets: true });
    try {
      const res = await fetch(`${server.url}/health-score/report/condensed`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(reportWith({ callback_url: callback })),
      });
      expect(res.status).toBe(202);
      const { job_id } = (await res.json()) as { job_id: string };
      const calls = await waitForCalls(2);
      // The PDF (PUT, with job_id added) and then the A4 status (POST), each at the URL as given.
      expect(calls).toEqual([
        { method: 'PUT', url: `/cb?token=${SECRET}&job_id=${job_id}` },
        { method: 'POST', url: `/cb?token=${SECRET}` },
      ]);
      // The server still runs: the last writes sit in the WAL.
      expect(filesHolding(home, SECRET)).toEqual([]);
      // The address stays readable (`assay jobs show`); only what follows it was sealed, and the sealed copy
      // goes once the deliveries end.
      expect(filesHolding(home, callback.replace(/\?.*/, ''))).not.toEqual([]);
      expect(await sealedCopiesLeft(home)).toEqual([]);
      await server.close();
      server = undefined;
      expect(filesHolding(home, SECRET)).toEqual([]);
    } finally {
      await server?.close();
    }
  });

  it('through `assay report generate`: not in the home, nor in what --out writes', async () => {
    const home = join(tmp.dir, 'cli-home');
    const out = join(tmp.dir, 'out');
    const input = join(tmp.dir, 'input');
    mkdirSync(input);
    writeFileSync(join(input, 'request.json'), JSON.stringify(reportWith({ callback_url: callback })));
    const r = await assay(['report', 'generate', join(input, 'request.json'), '--out', out, '--home', home], {
      ASSAY_ALLOW_PRIVATE_TARGETS: '1',
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const calls = await waitForCalls(2);
    expect(calls.map((c) => `${c.method} ${c.url.replace(/&job_id=.*/, '')}`)).toEqual([
      `PUT /cb?token=${SECRET}`,
      `POST /cb?token=${SECRET}`,
    ]);
    expect(filesHolding(home, SECRET)).toEqual([]);
    expect(filesHolding(out, SECRET)).toEqual([]);
  }, 60_000);
});
