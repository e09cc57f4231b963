import { mkdirSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import { bundledDataset } from '../../src/refdata/dataset.js';
import { RefdataStore } from '../../src/refdata/store.js';
import { syncRefdata } from '../../src/refdata/sync.js';
import {
  conceptListSchema,
  labRangeListSchema,
  predictorStatisticsRequestSchema,
  predictorStatisticsResponseSchema,
  topDiseasePredictorsSchema,
} from '../../src/schemas/refdata.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startTestServer } from './support/test-server.js';

describe('reference data routes (SPEC.md C) on a real server', () => {
  const home = tmpHome('assay-refdata-routes-');
  let server: RunningServer;
  let key: string;
  let limitedKey: string;
  let rawKey: string;
  /** Its own key: the suite's daily limit (30) is shared by the other tests' calls. */
  let aliasKey: string;
  /** node:http, not fetch: fetch asks for gzip by itself and inflates, hiding what the server sent. */
  const raw = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status?: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      get(`${server.url}${path}`, { headers: { 'x-api-key': rawKey, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      }).on('error', reject);
    });
  const call = (path: string, init: RequestInit & { apiKey?: string } = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        'x-api-key': init.apiKey ?? key,
        'content-type': 'application/json',
        ...(init.headers ?? {}),
      },
    });
  const statsBody = {
    header: { event_id: '7d9f6a1e-3c1b-4a53-9d0e-2f7c1a9b8e11', event_asof_dtutc: '2026-01-15T10:00:00Z' },
    sex: 'female',
    age: 50,
  };

  beforeAll(async () => {
    const db = openDatabase(home.dir);
    const keys = new ApiKeys(db, { home: home.dir });
    key = keys.create('main').key;
    limitedKey = keys.create('limited').key;
    rawKey = keys.create('raw').key;
    aliasKey = keys.create('aliases').key;
    db.close();
    process.env.ASSAY_LIMIT_REFDATA_PER_DAY = '30';
    server = await startTestServer(home.dir);
  });
  afterAll(async () => {
    delete process.env.ASSAY_LIMIT_REFDATA_PER_DAY;
    await server.close();
    home.cleanup();
  });

  it('answers gzip to clients that accept it, the same JSON as uncompressed, and plain bytes otherwise', async () => {
    const plain = await raw('/lab-ranges/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const rows = labRangeListSchema.parse(JSON.parse(plain.body.toString('utf8')));
    expect(rows.length).toBeGreaterThan(10);

    const zipped = await raw('/lab-ranges/', { 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);

    const refused = await raw('/lab-ranges/', { 'accept-encoding': 'gzip;q=0, deflate' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
  });

  it('answers carry an ETag; If-None-Match naming it gets 304 and no body, until the data change', async () => {
    const plain = await raw('/lab-ranges/');
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const zipped = await raw('/lab-ranges/', { 'accept-encoding': 'gzip' });
    expect(zipped.headers.etag).toBe(etag);

    for (const condition of [etag, `"other", ${etag.slice(2)}`, '*']) {
      const again = await raw('/lab-ranges/', { 'if-none-match': condition });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    const stale = await raw('/lab-ranges/', { 'if-none-match': 'W/"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(plain.body)).toBe(true);
    expect((await raw('/lab-ranges/?sex=male')).headers.etag).not.toBe(etag);

    // A sync of the same data keeps the ETag; a sync that changes the rows gives a new one.
    const db = openDatabase(home.dir);
    const servedAfterSync = async () => {
      await new Promise((r) => setTimeout(r, 300)); // the server rereads the dataset version every 250 ms
      return raw('/lab-ranges/', { 'if-none-match': etag });
    };
    try {
      await syncRefdata(db);
      expect((await servedAfterSync()).status).toBe(304);
      const dir = join(home.dir, 'fewer-ranges');
      mkdirSync(dir);
      writeFileSync(join(dir, 'lab-ranges.json'), JSON.stringify(bundledDataset().labRanges.slice(1)));
      await syncRefdata(db, { kind: 'folder', dir });
      const changed = await servedAfterSync();
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
    } finally {
      await syncRefdata(db);
      db.close();
    }
    expect((await servedAfterSync()).status).toBe(304);
  });

  it('GET /reference-data/ returns C1 concepts', async () => {
    const res = await call('/reference-data/');
    expect(res.status).toBe(200);
    const concepts = conceptListSchema.parse(await res.json());
    expect(concepts.some((c) => c.concept_code === '2345-7' && c.vocabulary_id === 'LOINC')).toBe(true);
  });

  it('POST /predictor-statistics/ echoes the header and returns C3 entries', async () => {
    const res = await call('/predictor-statistics/', { method: 'POST', body: JSON.stringify(statsBody) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    const body = predictorStatisticsResponseSchema.parse(JSON.parse(text));
    expect(body.header).toMatchObject(statsBody.header);
    expect(body.header.scoring_version).toBeTruthy();
    expect(body.predictor_statistics.length).toBeGreaterThan(0);
    // The body is assembled by hand from shared text: it must be exactly what JSON.stringify would write.
    const db = openDatabase(home.dir);
    const expected = await new RefdataStore(db).predictorStatistics(
      predictorStatisticsRequestSchema.parse(statsBody),
    );
    db.close();
    expect(text).toBe(JSON.stringify(expected));
  });

  it('malformed JSON is 400 and a body failing validation is 422, both {detail}', async () => {
    const bad = await call('/predictor-statistics/', { method: 'POST', body: '{"header": ' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: expect.any(String) });
    const invalid = await call('/predictor-statistics/', {
      method: 'POST',
      body: JSON.stringify({ ...statsBody, age: 200 }),
    });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { detail: string }).detail).toMatch(/age/);
  });

  it('GET /top-disease-predictors/ returns C4 with ranks from 1', async () => {
    const body = topDiseasePredictorsSchema.parse(await (await call('/top-disease-predictors/')).json());
    for (const domain of body.top_disease_predictors) {
      domain.predictors.forEach((p, i) => {
        expect(p.rank).toBe(i + 1);
      });
    }
  });

  it('GET /lab-ranges/ filters by sex and vendor_name', async () => {
    const all = labRangeListSchema.parse(await (await call('/lab-ranges/')).json());
    const some = labRangeListSchema.parse(
      await (await call('/lab-ranges/?sex=female&vendor_name=Labcorp')).json(),
    );
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
    expect(some.every((r) => r.gender_name === 'FEMALE' && r.vendor_name.toLowerCase() === 'labcorp')).toBe(
      true,
    );
  });

  it('GET /lab-ranges/ takes vendor aliases and F/M; any other sex is 422 {detail}', async () => {
    const ranges = async (query: string) => {
      const res = await call(`/lab-ranges/?${query}`, { apiKey: aliasKey });
      expect(res.status, query).toBe(200);
      return labRangeListSchema.parse(await res.json());
    };
    const quest = await ranges('vendor_name=Quest%20Diagnostics');
    expect(quest.length).toBeGreaterThan(0);
    for (const alias of ['Quest', 'quest', 'QUEST'])
      expect(await ranges(`vendor_name=${alias}`)).toEqual(quest);
    const labcorp = await ranges('vendor_name=Labcorp');
    expect(labcorp.length).toBeGreaterThan(0);
    expect(await ranges('vendor_name=LabCorp')).toEqual(labcorp);
    expect(await ranges('vendor_name=Lab%20Corp')).toEqual(labcorp);

    const female = await ranges('sex=female');
    expect(female.length).toBeGreaterThan(0);
    expect(await ranges('sex=F')).toEqual(female);
    expect(await ranges('sex=f')).toEqual(female);
    const male = await ranges('sex=M');
    expect(male.length).toBeGreaterThan(0);
    expect(male.every((r) => r.gender_name === 'MALE')).toBe(true);

    // Each refused twice: validated queries are remembered by their text, refusals never are.
    for (const bad of ['x', 'woman', 'FM', 'x', 'woman']) {
      const res = await call(`/lab-ranges/?sex=${bad}`, { apiKey: aliasKey });
      expect(res.status, bad).toBe(422);
      expect(await res.json()).toEqual({
        detail: expect.stringMatching(/^sex must be F, M, female or male/),
      });
    }
    for (let i = 0; i < 2; i++)
      expect((await call(`/lab-ranges/?sex=${'f'.repeat(21)}`, { apiKey: aliasKey })).status).toBe(400);
    // A query answered before is answered alike, from the remembered filter.
    expect(await ranges('sex=F')).toEqual(female);
    expect(await ranges('vendor_name=Quest')).toEqual(quest);
  });

  it('a key past its daily limit gets 429 with Retry-After; other keys are unaffected', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) last = await call('/top-disease-predictors/', { apiKey: limitedKey });
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last?.json()).toEqual({ detail: expect.stringMatching(/Rate limit/) });
    expect((await call('/lab-ranges/')).status).toBe(200);
  });
});
