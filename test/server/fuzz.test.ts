import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startTestServer } from './support/test-server.js';

/**
 * Malformed-request fuzzing over every SPEC.md route on a real server. Whatever arrives, the server must not
 * answer 5xx, must answer JSON, and errors must carry the body of their area: the lab error body under
 * /extraction, `{detail}` elsewhere. A fixed seed keeps a failure reproducible.
 */
const SEED = 0x5eed_a55a;
const REQUESTS = 2_400;
const CONCURRENCY = 8;

/** mulberry32: small, fast, good enough to pick cases; not for anything secret. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const readJson = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as unknown;
const PDF_B64 = readFileSync(new URL('../../fixtures/labs/reject-other-lab.pdf', import.meta.url)).toString(
  'base64',
);
const REPORTS = {
  full: readJson('../../fixtures/reports/full-three-events.json'),
  condensed: readJson('../../fixtures/reports/condensed-one-event.json'),
};
const STATS = {
  header: { event_id: '7d9f6a1e-3c1b-4a53-9d0e-2f7c1a9b8e11', event_asof_dtutc: '2026-01-15T10:00:00Z' },
  sex: 'female',
  age: 50,
};

// Ids as they appear in the request line: traversal, encodings (good and broken), unicode, very long.
const BAD_IDS = [
  '..',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '%2e%2e',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  encodeURIComponent('日本語のジョブ'),
  encodeURIComponent('💥🧪'),
  'caf\u00e9',
  '\u00ff\u00fe',
  '%27;%20DROP%20TABLE%20jobs;--',
  'null',
  '-1',
  '0',
  '1e309',
  '%20',
  'a;b=c',
  '{}',
  '[]',
  'x'.repeat(101),
  'y'.repeat(1_000),
  'z'.repeat(6_000),
  '00000000-0000-0000-0000-000000000000',
  '7d9f6a1e-3c1b-4a53-9d0e-2f7c1a9b8e11',
  'a/b',
  'a//b',
  '.%2e/',
];
const QUERY_JUNK = [
  '',
  '?',
  '?&&&',
  '?sex=male',
  '?sex=male&sex=female',
  '?sex[]=male',
  '?sex[a]=1',
  `?sex=${'m'.repeat(3_000)}`,
  `?vendor_name=${'v'.repeat(500)}`,
  '?vendor_name=%FF%FE',
  '?vendor_name=%',
  '?%%%=%%%',
  '?__proto__=x',
  '?constructor[prototype][x]=1',
  '?sex=%00',
  '?expires=-1&signature=',
  '?expires=9999999999999&signature=abc',
  '?expires=abc&signature=%ZZ',
  `?q=${encodeURIComponent('日本')}`,
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json;;;',
  'Application/JSON',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/pdf',
  'application/octet-stream',
  'application/xml',
  '*/*',
  '',
  'garbage',
  undefined,
];
const BAD_JSON = [
  '{',
  '{"a":',
  '[1,2',
  'nul',
  'undefined',
  "{'a': 1}",
  '{"a":1,}',
  '{"a" 1}',
  '"\\ud800"',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(3_000)}${']'.repeat(3_000)}`,
  `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`,
  '\ufeff{}',
  '{"age": 1e999}',
  '{"age": -0}',
  '',
];

function junkString(r: Rng): string {
  switch (r.int(9)) {
    case 0:
      return '';
    case 1:
      return 'A'.repeat(r.pick([100, 10_000, 200_000]));
    case 2:
      return '日本語🧪\u202e\u0000\ud800';
    case 3:
      return '%%%not base64%%%';
    case 4:
      return 'JVBERi0'; // a truncated %PDF- header
    case 5:
      return Buffer.from('%PDF-1.4 junk that is no PDF').toString('base64');
    case 6:
      return r.pick(BAD_IDS);
    case 7:
      return 'javascript:alert(1)';
    default:
      return r.pick(['http://127.0.0.1/x', 'ftp://x', 'https://10.0.0.1/', 'not a url', 'https://']);
  }
}

function junkValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 8 : 10)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1.5, 121, -1e308, 1e308, Number.MAX_SAFE_INTEGER + 2]);
    case 3:
    case 4:
      return junkString(r);
    case 5:
      return [];
    case 6:
      return {};
    case 7:
      return '2025-02-30';
    case 8:
      return Array.from({ length: r.int(4) }, () => junkValue(r, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: r.int(4) }, (_, i) => [`k${i}`, junkValue(r, depth + 1)] as const),
      );
  }
}

/** Every path into a JSON value, so one mutation can hit any member at any depth. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  if (out.length > 400) return out;
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) paths(x, [...prefix, i], out);
  } else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
  out.push(prefix);
  return out;
}

/** A valid body with one to three members replaced by junk or removed. */
function mutate(r: Rng, valid: unknown): unknown {
  let body = structuredClone(valid);
  for (let n = 1 + r.int(3); n > 0; n--) {
    const path = r.pick(paths(body));
    if (path.length === 0) {
      body = junkValue(r);
      continue;
    }
    let parent = body as Record<string | number, unknown>;
    for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    if (r.chance(0.3) && !Array.isArray(parent)) delete parent[last];
    else parent[last] = junkValue(r);
  }
  return body;
}

interface Route {
  method: string;
  path: (r: Rng) => string;
  valid?: () => unknown;
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

describe('malformed requests on every route (fixed-seed fuzzing on a real server)', () => {
  const home = tmpHome('assay-fuzz-');
  let server: RunningServer;
  let base: URL;
  let key: string;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const held: { jobId: string; uploadUrl: URL }[] = [];

  function send(req: Sent): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
      const out = request(
        { agent, host: base.hostname, port: base.port, method: req.method, path: req.path, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(req.body);
    });
  }

  beforeAll(async () => {
    const db = openDatabase(home.dir);
    key = new ApiKeys(db, { home: home.dir }).create('fuzz').key;
    db.close();
    // Limits are read when the server starts; raised so 429s do not hide the shapes of other answers.
    process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR = '1000000';
    process.env.ASSAY_LIMIT_REFDATA_PER_SECOND = '1000000';
    process.env.ASSAY_LIMIT_REFDATA_PER_DAY = '1000000';
    server = await startTestServer(home.dir);
    base = new URL(server.url);
    // Real pending uploads, so signatures and bodies on the pre-signed PUT get fuzzed past the 404.
    for (let i = 0; i < 3; i++) {
      const res = await send({
        method: 'POST',
        path: '/extraction/lab/upload',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ filename: `held-${i}.pdf` }),
      });
      const { jobId, uploadUrl } = JSON.parse(res.text) as { jobId: string; uploadUrl: string };
      held.push({ jobId, uploadUrl: new URL(uploadUrl) });
    }
  });
  afterAll(async () => {
    delete process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR;
    delete process.env.ASSAY_LIMIT_REFDATA_PER_SECOND;
    delete process.env.ASSAY_LIMIT_REFDATA_PER_DAY;
    agent.destroy();
    await server?.close();
    home.cleanup();
  });

  const id = (r: Rng) => (r.chance(0.15) && held.length > 0 ? r.pick(held).jobId : r.pick(BAD_IDS));
  const routes: Route[] = [
    {
      method: 'POST',
      path: () => '/extraction/lab/upload',
      valid: () => ({ pdfFile: PDF_B64, filename: 'a.pdf', dateOfBirth: '1970-01-01', rejectIfPHI: true }),
    },
    {
      method: 'PUT',
      path: (r) => {
        const h = held[r.int(held.length)];
        if (h && r.chance(0.4)) return `${h.uploadUrl.pathname}${h.uploadUrl.search}`;
        return `/extraction/lab/upload/${id(r)}${r.pick(QUERY_JUNK)}`;
      },
    },
    { method: 'GET', path: (r) => `/extraction/lab/status/${id(r)}${r.pick(QUERY_JUNK)}` },
    { method: 'GET', path: (r) => `/extraction/lab/results/${id(r)}${r.pick(QUERY_JUNK)}` },
    { method: 'POST', path: () => '/health-score/report', valid: () => REPORTS.full },
    { method: 'POST', path: () => '/health-score/report/condensed', valid: () => REPORTS.condensed },
    { method: 'GET', path: (r) => `/health-score/report/status/${id(r)}${r.pick(QUERY_JUNK)}` },
    { method: 'GET', path: (r) => `/reference-data/${r.pick(QUERY_JUNK)}` },
    { method: 'POST', path: () => '/predictor-statistics/', valid: () => STATS },
    { method: 'GET', path: (r) => `/top-disease-predictors/${r.pick(QUERY_JUNK)}` },
    { method: 'GET', path: (r) => `/lab-ranges/${r.pick(QUERY_JUNK)}` },
  ];

  function body(r: Rng, route: Route): string | Buffer | undefined {
    const valid = route.valid?.();
    switch (r.int(7)) {
      case 0:
        return r.pick(BAD_JSON);
      case 1:
        return JSON.stringify(junkValue(r));
      case 2:
        return Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0xff, 0x00, 0xfe]); // %PDF- then binary
      case 3:
        return r.chance(0.5) ? undefined : '';
      default:
        return JSON.stringify(valid === undefined ? junkValue(r) : mutate(r, valid));
    }
  }

  function headers(r: Rng, forBody: boolean): Record<string, string> {
    const h: Record<string, string> = {};
    const auth = r.next();
    if (auth < 0.75) h['x-api-key'] = key;
    else if (auth < 0.8) h['x-api-key'] = '';
    else if (auth < 0.85) h['x-api-key'] = `assay_${'x'.repeat(r.int(200))}`;
    else if (auth < 0.9) h['x-api-key'] = key.toUpperCase();
    else if (auth < 0.93) h.authorization = `Bearer ${key}`;
    const contentType = forBody && r.chance(0.75) ? 'application/json' : r.pick(CONTENT_TYPES);
    if (contentType !== undefined) h['content-type'] = contentType;
    return h;
  }

  /** One malformed request: mostly the route's own method with junk, sometimes a wrong method. */
  function generate(r: Rng): Sent {
    const route = r.pick(routes);
    const method = r.chance(0.15)
      ? r.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
      : route.method;
    const withBody = method !== 'GET' && method !== 'OPTIONS' ? true : r.chance(0.1);
    const sent: Sent = { method, path: route.path(r), headers: headers(r, withBody) };
    if (withBody) sent.body = body(r, route);
    return sent;
  }

  function checkShape(sent: Sent, answer: Answer): string | null {
    if (answer.status >= 500) return `status ${answer.status}`;
    if (!answer.contentType.includes('application/json')) return `content-type ${answer.contentType}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return 'body is not JSON';
    }
    if (answer.status < 400) return parsed !== null && typeof parsed === 'object' ? null : 'not an object';
    const b = parsed as Record<string, unknown>;
    if (sent.path.startsWith('/extraction')) {
      const ok =
        typeof b.error === 'string' &&
        typeof b.message === 'string' &&
        typeof b.timestamp === 'string' &&
        !Number.isNaN(Date.parse(b.timestamp)) &&
        typeof b.requestId === 'string' &&
        /^[0-9a-f-]{36}$/.test(b.requestId) &&
        (b.details === undefined || (typeof b.details === 'object' && b.details !== null));
      return ok ? null : 'not the lab error body';
    }
    const keys = Object.keys(b);
    return keys.length === 1 && typeof b.detail === 'string' ? null : 'not {detail}';
  }

  it(`${REQUESTS} malformed requests: no 5xx, JSON of the right shape for each area, server still up`, async () => {
    const r = prng(SEED);
    const requests = Array.from({ length: REQUESTS }, () => generate(r));
    // A few whole-route sweeps with no key and the wrong methods, so no route is left to chance.
    for (const route of routes) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        requests.push({ method, path: route.path(r), headers: {}, body: method === 'GET' ? undefined : '{' });
      }
    }
    // Oversized bodies, one per body-taking route: 413, not a crash, in the right shape.
    for (const path of [
      '/extraction/lab/upload',
      '/health-score/report/condensed',
      '/predictor-statistics/',
    ]) {
      requests.push({
        method: 'POST',
        path,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ pdfFile: 'A'.repeat(14 * 1024 * 1024) }),
      });
    }

    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const sent = requests[next++] as Sent;
        let answer: Answer;
        try {
          answer = await send(sent);
        } catch (e) {
          failures.push(
            `${sent.method} ${sent.path.slice(0, 120)} ${JSON.stringify(sent.headers)} -> ${(e as Error).message}`,
          );
          continue;
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problem = checkShape(sent, answer);
        if (problem && failures.length < 20) {
          failures.push(
            `${sent.method} ${sent.path.slice(0, 120)} -> ${problem}: ${answer.text.slice(0, 200)}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    console.log(
      `fuzz: ${requests.length} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(failures).toEqual([]);
    expect(requests.length).toBeGreaterThanOrEqual(2_000);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  }, 120_000);

  it('429s (limits low on a second server over the same store) keep the shape of their area', async () => {
    const db = openDatabase(home.dir);
    const limitedKey = new ApiKeys(db, { home: home.dir }).create('fuzz-limited').key;
    db.close();
    process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR = '2';
    process.env.ASSAY_LIMIT_REFDATA_PER_SECOND = '3';
    const limited = await startTestServer(home.dir);
    try {
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${limited.url}${path}`, {
          ...init,
          headers: { 'x-api-key': limitedKey, 'content-type': 'application/json' },
        });
      const refdata = await Promise.all(Array.from({ length: 12 }, () => call('/lab-ranges/?sex=female')));
      const uploads: Response[] = [];
      for (let i = 0; i < 4; i++) {
        uploads.push(await call('/extraction/lab/upload', { method: 'POST', body: '{"filename":"x.pdf"}' }));
      }
      const refdata429 = refdata.filter((r) => r.status === 429);
      const upload429 = uploads.filter((r) => r.status === 429);
      expect(refdata429.length).toBeGreaterThan(0);
      expect(upload429.length).toBe(2);
      for (const r of refdata429) expect(await r.json()).toEqual({ detail: expect.any(String) });
      for (const r of upload429) {
        expect(await r.json()).toMatchObject({
          error: 'rate_limit_exceeded',
          message: expect.any(String),
          timestamp: expect.any(String),
          requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          details: { retryAfterSeconds: expect.any(Number) },
        });
      }
    } finally {
      await limited.close();
    }
  });
});
