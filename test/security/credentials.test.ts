import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { assay } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

const HOOK = 'http://127.0.0.1:9/hook';
/** Marks every credential this test sends, so the store's files can be searched for any of them. */
const MARK = 'SeCrEt-7f3a';

const reportWith = (configuration: Record<string, string>) => {
  const request = JSON.parse(
    readFileSync(new URL('../../fixtures/reports/condensed-one-event.json', import.meta.url), 'utf8'),
  ) as { report_metadata: { configuration: Record<string, string> } };
  request.report_metadata.configuration = configuration;
  return request;
};

/** Issue #17 item 4: credentials that cannot be delivered are refused at once and never stored. */
describe('credentials: refused at request time, never in the store; the store readable by its user only', () => {
  const tmp = tmpHome('assay-credentials-');
  // A home assay itself creates (mkdtemp's own directory is already 0700).
  const home = { dir: join(tmp.dir, 'home') };
  let server: RunningServer;
  let key: string;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    key = createKey(home.dir, 'credentials').key;
    // Private targets allowed, so a refusal below can only be about the credential.
    server = await startTestServer(home.dir, { allowPrivateTargets: true });
  });
  afterAll(async () => {
    await server.close();
    tmp.cleanup();
  });

  const refused: [string, Record<string, string>][] = [
    [
      'a bearer token with CR/LF',
      { callback_url: HOOK, auth_type: 'bearer', auth_token: `${MARK}\r\nX-Injected: 1` },
    ],
    ['a bearer token outside Latin-1', { callback_url: HOOK, auth_type: 'bearer', auth_token: `${MARK}π` }],
    ['an api_key token with a NUL', { callback_url: HOOK, auth_type: 'api_key', auth_token: `${MARK}\0` }],
    ...['Host', 'Content-Length', 'transfer-encoding'].map((name): [string, Record<string, string>] => [
      `auth_key_name ${name}`,
      { callback_url: HOOK, auth_type: 'api_key', auth_token: MARK, auth_key_name: name },
    ]),
    ['userinfo in callback_url', { callback_url: `http://user:${MARK}@127.0.0.1:9/hook` }],
    ['userinfo in storage_presigned_url', { storage_presigned_url: `http://${MARK}@127.0.0.1:9/put` }],
  ];

  it.each(refused)('refuses %s with 422, without quoting it', async (_what, configuration) => {
    const res = await post('/health-score/report/condensed', reportWith(configuration));
    expect(res.status).toBe(422);
    expect(await res.text()).not.toContain(MARK);
  });

  it('refuses userinfo in a lab webhookUrl with 422, without quoting it', async () => {
    const res = await post('/extraction/lab/upload', { webhookUrl: `http://user:${MARK}@127.0.0.1:9/w` });
    expect(res.status).toBe(422);
    expect(await res.text()).not.toContain(MARK);
  });

  it('still accepts a Latin-1 token in an ordinary header, and a UTF-8 basic credential', async () => {
    const latin1 = { callback_url: HOOK, auth_type: 'api_key', auth_token: 'tökén', auth_key_name: 'X-Key' };
    expect((await post('/health-score/report/condensed', reportWith(latin1))).status).toBe(202);
    const basic = { callback_url: HOOK, auth_type: 'basic', auth_token: 'user:pässwörd✓' };
    expect((await post('/health-score/report/condensed', reportWith(basic))).status).toBe(202);
  });

  it('a pre-signed storage URL is used as given but stored without its signature, and forgotten after', async () => {
    const puts: string[] = [];
    const bucket: Server = createServer((req, res) => {
      puts.push(`${req.method} ${req.url}`);
      req.resume().on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => bucket.listen(0, '127.0.0.1', resolve));
    const port = (bucket.address() as AddressInfo).port;
    const signed = `http://127.0.0.1:${port}/bucket/r.pdf?X-Amz-Expires=300&X-Amz-Signature=${MARK}`;
    try {
      const res = await post('/health-score/report/condensed', reportWith({ storage_presigned_url: signed }));
      expect(res.status).toBe(202);
      const { job_id } = (await res.json()) as { job_id: string };
      let status = '';
      for (let i = 0; i < 200 && status !== 'completed' && status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const polled = await fetch(`${server.url}/health-score/report/status/${job_id}`, {
          headers: { 'x-api-key': key },
        });
        status = ((await polled.json()) as { status: string }).status;
      }
      expect(status).toBe('completed');
      expect(puts).toEqual([`PUT /bucket/r.pdf?X-Amz-Expires=300&X-Amz-Signature=${MARK}`]);

      const list = await assay(['jobs', 'list', '--json', '--home', home.dir]);
      expect(list.exitCode).toBe(0);
      expect(list.stdout).not.toContain(MARK);
      const show = await assay(['jobs', 'show', job_id, '--payload', '--json', '--home', home.dir]);
      expect(show.exitCode).toBe(0);
      expect(show.stdout).toContain(`127.0.0.1:${port}/bucket/r.pdf`);
      expect(show.stdout).not.toContain(MARK);
      // The file that held the URL went with the last delivery.
      const kept = join(home.dir, 'reports', 'credentials');
      const files = existsSync(kept) ? readdirSync(kept) : [];
      expect(files.some((f) => readFileSync(join(kept, f), 'utf8').includes(MARK))).toBe(false);
    } finally {
      bucket.close();
    }
  });

  it('no credential reached the database or its WAL', () => {
    for (const f of ['assay.db', 'assay.db-wal']) {
      const file = join(home.dir, f);
      if (existsSync(file)) expect(readFileSync(file).includes(MARK)).toBe(false);
    }
  });

  it('the home is 0700 and the database files 0600', () => {
    expect(statSync(home.dir).mode & 0o777).toBe(0o700);
    for (const f of ['assay.db', 'assay.db-wal', 'assay.db-shm']) {
      const file = join(home.dir, f);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });
});
