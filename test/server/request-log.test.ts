import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import { NotFoundError } from '../../src/errors.js';
import { HttpError } from '../../src/server/error-bodies.js';
import { startServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey } from './support/test-server.js';

const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';

describe('the request log at the default level (a real server writing to a real file)', () => {
  const home = tmpHome('assay-request-log-');
  afterAll(() => home.cleanup());

  it('logs each request and its status, never the API key, an Authorization header or an upload signature', async () => {
    const { key } = createKey(home.dir);
    const file = join(home.dir, 'requests.log');
    const server = await startServer(await openEngine({ home: home.dir }), {
      home: home.dir,
      host: '127.0.0.1',
      port: 0,
      workers: 1,
      logLevel: 'info',
      logDestination: file,
    });
    const headers = { 'x-api-key': key, authorization: 'Bearer not-to-be-logged' };
    expect((await fetch(`${server.url}/lab-ranges/?sex=female`, { headers })).status).toBe(200);
    expect((await fetch(`${server.url}/extraction/lab/status/${UNKNOWN_JOB}`, { headers })).status).toBe(404);
    const signed = `${server.url}/extraction/lab/upload/${UNKNOWN_JOB}?expires=1&signature=S1gnatureNotToBeLogged`;
    expect((await fetch(signed, { method: 'PUT', body: '%PDF-1.4' })).status).toBeGreaterThanOrEqual(400);
    await server.close();

    const text = readFileSync(file, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { req?: { url: string }; res?: { statusCode: number } });
    const urls = lines.map((l) => l.req?.url).filter(Boolean);
    expect(urls).toEqual([
      '/lab-ranges/?sex=female',
      `/extraction/lab/status/${UNKNOWN_JOB}`,
      `/extraction/lab/upload/${UNKNOWN_JOB}?expires=1&signature=[redacted]`,
    ]);
    expect(lines.map((l) => l.res?.statusCode).filter(Boolean)).toEqual([200, 404, expect.any(Number)]);
    expect(text).not.toContain(key);
    expect(text).not.toContain('not-to-be-logged');
    expect(text).not.toContain('S1gnatureNotToBeLogged');
  });
});

describe('expected answers carry no stack trace; faults keep theirs', () => {
  const frames = (e: Error) => (e.stack ?? '').split('\n').filter((l) => l.trim().startsWith('at ')).length;

  it('a 4xx HttpError and a NotFoundError have none, a 5xx HttpError and other errors do', () => {
    expect(frames(new HttpError(404, 'not_found', 'No lab job with id x.'))).toBe(0);
    expect(frames(new HttpError(401, 'unauthorized', 'Missing or invalid API key.'))).toBe(0);
    expect(frames(new NotFoundError('No report job with id x.'))).toBe(0);
    expect(frames(new HttpError(502, 'upstream_unavailable', 'down'))).toBeGreaterThan(0);
    expect(frames(new Error('a fault'))).toBeGreaterThan(0);
  });
});
