import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import { NotFoundError } from '../../src/errors.js';
import { HttpError } from '../../src/server/error-bodies.js';
import { completedLine, withoutSignature } from '../../src/server/request-log.js';
import { startServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { withOneRoute } from './support/one-route-app.js';
import { createKey } from './support/test-server.js';

const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';

interface Line {
  level: number;
  time: number;
  pid: number;
  hostname: string;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; route?: string; remoteAddress: string };
  res?: { statusCode: number };
  responseTime?: number;
  err?: { type: string };
}

const readLines = (file: string): Line[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line)
    : [];

/** `serve` in `home` logging at `level` to a file there, and an API key for it. */
async function loggedServer(home: string, level: string) {
  const { key } = createKey(home);
  const file = join(home, 'requests.log');
  const server = await startServer(await openEngine({ home }), {
    home,
    host: '127.0.0.1',
    port: 0,
    workers: 1,
    logLevel: level,
    logDestination: file,
  });
  return { key, file, server };
}

describe('the request log at the default level (a real server writing to a real file)', () => {
  const home = tmpHome('assay-request-log-');
  afterAll(() => home.cleanup());

  it('logs each request and its status, never the API key, an Authorization header or an upload signature', async () => {
    const { key, file, server } = await loggedServer(home.dir, 'info');
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
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.req || l.res);
    // One line per request, when it is answered, with what an operator needs of it.
    expect(lines.map((l) => l.req?.url)).toEqual([
      '/lab-ranges/?sex=female',
      `/extraction/lab/status/${UNKNOWN_JOB}`,
      `/extraction/lab/upload/${UNKNOWN_JOB}?expires=1&signature=[redacted]`,
    ]);
    expect(lines.map((l) => l.res?.statusCode)).toEqual([200, 404, expect.any(Number)]);
    expect(lines.map((l) => l.req?.route)).toEqual([
      '/lab-ranges/',
      '/extraction/lab/status/:jobId',
      '/extraction/lab/upload/:jobId',
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ level: 30, msg: 'request completed', reqId: expect.any(String) });
      expect(line).toMatchObject({
        pid: process.pid,
        hostname: expect.any(String),
        time: expect.any(Number),
      });
      expect(line.req).toMatchObject({ method: expect.any(String), remoteAddress: expect.any(String) });
      expect(line.responseTime).toBeGreaterThanOrEqual(0);
      // Compact: what an operator needs, nothing else of the request.
      expect(Object.keys(line.req ?? {}).sort()).toEqual(['method', 'remoteAddress', 'route', 'url']);
    }
    expect(text).not.toContain(key);
    expect(text).not.toContain('not-to-be-logged');
    expect(text).not.toContain('S1gnatureNotToBeLogged');
  });
});

describe('the request log in the running server', () => {
  const home = tmpHome('assay-request-log-batch-');
  afterAll(() => home.cleanup());

  it('writes lines in batches, yet a quiet server shows its line within half a second, before closing', async () => {
    const { key, file, server } = await loggedServer(home.dir, 'info');
    try {
      expect(
        (await fetch(`${server.url}/lab-ranges/?sex=male`, { headers: { 'x-api-key': key } })).status,
      ).toBe(200);
      await sleep(600);
      expect(readLines(file).map((l) => l.req?.url)).toContain('/lab-ranges/?sex=male');
    } finally {
      await server.close();
    }
  });

  it("a failing request's error line and its completed line carry the same request id", async () => {
    const { key } = createKey(home.dir);
    const file = join(home.dir, 'errors.log');
    await withOneRoute(
      home.dir,
      { level: 'info', file },
      '/faulty',
      async () => {
        throw new Error('a fault');
      },
      async (app) => {
        expect((await app.inject({ url: '/faulty', headers: { 'x-api-key': key } })).statusCode).toBe(500);
      },
    );
    const lines = readLines(file).filter((l) => l.reqId);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'request failed'],
      [30, 'request completed'],
    ]);
    expect(lines[0]?.err).toEqual({ type: 'Error' });
    expect(lines[1]).toMatchObject({ reqId: lines[0]?.reqId, res: { statusCode: 500 } });
    expect(lines[1]?.req).toMatchObject({ method: 'GET', url: '/faulty', route: '/faulty' });
  });
});

describe('completedLine', () => {
  const request = (fields: Partial<FastifyRequest> & { route?: string }) =>
    ({
      id: 'r-1',
      method: 'GET',
      url: '/x',
      ip: '127.0.0.1',
      ...fields,
      routeOptions: { url: fields.route },
    }) as unknown as FastifyRequest;
  const reply = { statusCode: 404, elapsedTime: 1.23456 } as unknown as FastifyReply;

  it('is one line of JSON whatever the URL holds (quotes, backslashes, controls, any Unicode)', () => {
    for (const url of [
      '/a"b',
      '/a\\b',
      '/a\u0001b\nc',
      '/caf\u00e9',
      '/\ud83d\ude00',
      '/lone\ud800',
      '/%22?q=%0A',
    ]) {
      const line = completedLine(request({ url }), reply);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
      const parsed = JSON.parse(line) as Line;
      expect(parsed.req?.url).toBe(JSON.parse(JSON.stringify(url)));
      expect(parsed).toMatchObject({
        level: 30,
        reqId: 'r-1',
        res: { statusCode: 404 },
        responseTime: 1.235,
      });
    }
  });

  it('leaves out a route the request did not match, and redacts an upload signature', () => {
    const parsed = JSON.parse(
      completedLine(request({ url: '/u/1?expires=1&signature=secret' }), reply),
    ) as Line;
    expect(parsed.req).toEqual({
      method: 'GET',
      url: '/u/1?expires=1&signature=[redacted]',
      remoteAddress: '127.0.0.1',
    });
  });
});

describe('withoutSignature', () => {
  it('redacts a signature however its name is spelled in the query, and leaves the rest as sent', () => {
    expect(withoutSignature('/u/1?expires=1&%73ignature=abc&x=1')).toBe(
      '/u/1?expires=1&%73ignature=[redacted]&x=1',
    );
    expect(withoutSignature('/u/1?Signature=abc')).toBe('/u/1?Signature=[redacted]');
    expect(withoutSignature('/u/1?signature=a&signature=b')).toBe(
      '/u/1?signature=[redacted]&signature=[redacted]',
    );
    expect(withoutSignature('/u/1?sig%6Eature=a')).toBe('/u/1?sig%6Eature=[redacted]');
    expect(withoutSignature('/u/1?%E0%A4%A=1&signature=z')).toBe('/u/1?%E0%A4%A=1&signature=[redacted]');
    expect(withoutSignature('/lab-ranges/?sex=female')).toBe('/lab-ranges/?sex=female');
  });
});

describe('the request log at debug', () => {
  const home = tmpHome('assay-request-log-debug-');
  afterAll(() => home.cleanup());

  it("also logs each request as it arrives (Fastify's incoming-request line)", async () => {
    const { key, file, server } = await loggedServer(home.dir, 'debug');
    expect(
      (await fetch(`${server.url}/lab-ranges/?sex=female`, { headers: { 'x-api-key': key } })).status,
    ).toBe(200);
    await server.close();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.req?.url === '/lab-ranges/?sex=female');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [20, 'incoming request'],
      [30, 'request completed'],
    ]);
    expect(lines[0]?.reqId).toBe(lines[1]?.reqId);
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
