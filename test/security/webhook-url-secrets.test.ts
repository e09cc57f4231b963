import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';
import { filesHolding, sealedCopiesLeft } from './support/files-holding.js';
import { ROOT } from './support/serve-process.js';

const SECRET = 'SECRET456';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PDF = readFileSync(join(ROOT, 'fixtures/labs/quest-cmp-lipid.pdf'));

/**
 * Issue #30 item 8, for lab uploads: a token in a webhookUrl query string was stored in the clear in the lab
 * job's payload and then in its webhook job's, so the database file and its WAL gave it to anyone with a
 * copy. The store keeps the URL without its query; the URL as given is sealed like a report's callback_url,
 * and the receiver is still called at the whole URL, token included.
 */
describe('a secret in a lab webhookUrl never reaches the disk in the clear (#30 item 8)', () => {
  const tmp = tmpHome('assay-webhook-url-secrets-');
  const received: { jobId: string; url: string }[] = [];
  let receiver: Server;
  let webhookUrl: string;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        received.push({ jobId: (JSON.parse(body) as { jobId: string }).jobId, url: req.url ?? '' });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?token=${SECRET}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    tmp.cleanup();
  });

  const webhookFor = async (jobId: string) => {
    for (let i = 0; i < 600 && !received.some((r) => r.jobId === jobId); i++) await sleep(100);
    return received.filter((r) => r.jobId === jobId);
  };

  /** Upload one PDF inline and one through a pre-signed URL, both naming the webhook; wait for both events. */
  async function uploadBoth(server: RunningServer, key: string): Promise<string[]> {
    const post = (body: unknown) =>
      fetch(`${server.url}/extraction/lab/upload`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const inline = await post({ pdfFile: PDF.toString('base64'), filename: 'a.pdf', webhookUrl });
    expect(inline.status).toBe(202);
    const { jobId: inlineId } = (await inline.json()) as { jobId: string };

    const issued = await post({ filename: 'b.pdf', webhookUrl });
    expect(issued.status).toBe(200);
    const { jobId: presignedId, uploadUrl } = (await issued.json()) as { jobId: string; uploadUrl: string };
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: PDF,
    });
    expect(put.status).toBe(200);
    return [inlineId, presignedId];
  }

  it('through `assay serve`: not in the database, its WAL or any file of the home; the webhook has the token', async () => {
    const home = join(tmp.dir, 'serve-home');
    const { key } = createKey(home, 'webhook');
    let server: RunningServer | undefined = await startTestServer(home, { allowPrivateTargets: true });
    try {
      const ids = await uploadBoth(server, key);
      for (const id of ids) {
        // The event arrives at the URL as given, token included.
        expect(await webhookFor(id)).toEqual([{ jobId: id, url: `/hook?token=${SECRET}` }]);
      }
      // The server still runs: the last writes sit in the WAL.
      expect(filesHolding(home, SECRET)).toEqual([]);
      // The address stays readable (`assay jobs show`); only what follows it was sealed, and the sealed
      // copy goes once the webhook is delivered.
      expect(filesHolding(home, webhookUrl.replace(/\?.*/, ''))).not.toEqual([]);
      expect(await sealedCopiesLeft(home)).toEqual([]);
      await server.close();
      server = undefined;
      expect(filesHolding(home, SECRET)).toEqual([]);
    } finally {
      await server?.close();
    }
  }, 90_000);
});
