import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { SERVER_KEY_CACHE_MS } from '../../src/keys/api-keys.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startTestServer } from './support/test-server.js';

describe('assay serve: a real server on 127.0.0.1', () => {
  const home = tmpHome('assay-server-');
  let server: RunningServer;
  let key: string;
  let keyId: string;
  const get = (path: string, apiKey?: string) =>
    fetch(`${server.url}${path}`, { headers: apiKey ? { 'x-api-key': apiKey } : {} });

  beforeAll(async () => {
    const db = openDatabase(home.dir);
    ({
      key,
      apiKey: { id: keyId },
    } = new ApiKeys(db, { home: home.dir }).create('test'));
    db.close();
    server = await startTestServer(home.dir);
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('answers the probes without a key', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('refuses a missing or wrong key with the SPEC.md body of the area', async () => {
    const ref = await get('/reference-data/');
    expect(ref.status).toBe(401);
    expect(await ref.json()).toEqual({ detail: expect.stringMatching(/API key/) });

    const lab = await get('/extraction/lab/status/abc', 'assay_wrong');
    expect(lab.status).toBe(401);
    const body = (await lab.json()) as Record<string, string>;
    expect(body).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
    expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('unknown routes are 404 in the body shape of their area', async () => {
    const lab = await get('/extraction/nowhere', key);
    expect(lab.status).toBe(404);
    expect(await lab.json()).toMatchObject({ error: 'not_found' });
    const other = await get('/nowhere', key);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: expect.any(String) });
  });

  it('a revoked key is refused once the short key cache of the server has passed', async () => {
    expect((await get('/nowhere', key)).status).toBe(404);
    const db = openDatabase(home.dir);
    new ApiKeys(db, { home: home.dir }).revoke(keyId);
    db.close();
    await new Promise((r) => setTimeout(r, SERVER_KEY_CACHE_MS + 50));
    expect((await get('/nowhere', key)).status).toBe(401);
  });
});

describe('the API description', () => {
  it('serves OpenAPI 3.1 and a docs page without a key', async () => {
    const home = tmpHome('assay-openapi-');
    const server = await startTestServer(home.dir);
    try {
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        openapi: string;
        paths: object;
      };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toContain('/healthz');
      const page = await fetch(`${server.url}/docs`);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
    } finally {
      await server.close();
      home.cleanup();
    }
  });
});
