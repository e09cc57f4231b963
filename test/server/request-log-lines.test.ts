import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import { startServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { withOneRoute } from './support/one-route-app.js';
import { createKey } from './support/test-server.js';

// Fastify's own logger is off (request-log.ts): what it wrote must still be written, through ours.

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; route?: string; remoteAddress: string };
  res?: { statusCode: number };
  store?: string;
}

const readLines = (file: string): Line[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line)
    : [];

describe("the server's own lines beside the request lines (a real server writing to a real file)", () => {
  const home = tmpHome('assay-request-log-lines-');
  afterAll(() => home.cleanup());

  it('writes the startup line and a warning to the same file, in order with the requests', async () => {
    const { key } = createKey(home.dir);
    const file = join(home.dir, 'server.log');
    const server = await startServer(await openEngine({ home: home.dir }), {
      home: home.dir,
      host: '127.0.0.1',
      port: 0,
      workers: 1,
      logLevel: 'info',
      logDestination: file,
    });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      server.app.log.warn({ store: 'SQLITE_BUSY' }, 'a warning');
      expect((await fetch(`${server.url}/healthz?second`)).status).toBe(200);
      expect((await fetch(`${server.url}/no-such-route`, { headers: { 'x-api-key': key } })).status).toBe(
        404,
      );
    } finally {
      await server.close();
    }
    const lines = readLines(file);
    expect(lines.map((l) => [l.level, l.msg, l.req?.url])).toEqual([
      [30, `Server listening at ${server.url}`, undefined],
      [30, 'request completed', '/healthz'],
      [40, 'a warning', undefined],
      [30, 'request completed', '/healthz?second'],
      [30, 'request completed', '/no-such-route'],
    ]);
    expect(lines[2]).toMatchObject({ store: 'SQLITE_BUSY' });
    expect(lines[2]?.reqId).toBeUndefined();
    // A request no route matched: its status, and no route.
    expect(lines[4]?.res).toEqual({ statusCode: 404 });
    expect(lines[4]?.req && Object.keys(lines[4].req).sort()).toEqual(['method', 'remoteAddress', 'url']);
    expect(new Set(lines.filter((l) => l.reqId).map((l) => l.reqId)).size).toBe(3);
  });

  it('at warn, writes no line per request, yet a fault with its request id', async () => {
    const { key } = createKey(home.dir);
    const file = join(home.dir, 'warn.log');
    await withOneRoute(
      home.dir,
      { level: 'warn', file },
      '/faulty',
      async () => {
        throw new Error('a fault');
      },
      async (app) => {
        const url = await app.listen({ host: '127.0.0.1', port: 0 });
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect((await fetch(`${url}/faulty`, { headers: { 'x-api-key': key } })).status).toBe(500);
      },
    );
    const lines = readLines(file);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[50, 'request failed']]);
    expect(lines[0]?.reqId).toEqual(expect.any(String));
    expect(readFileSync(file, 'utf8')).not.toContain(key);
  });

  it("logs a stream's failure after the headers as Fastify did, with the request id", async () => {
    const { key } = createKey(home.dir);
    const file = join(home.dir, 'stream.log');
    await withOneRoute(
      home.dir,
      { level: 'info', file },
      '/broken-stream',
      async (_req, reply) => {
        const body = new Readable({ read() {} });
        body.push('a first chunk');
        setTimeout(() => body.destroy(new Error('the source failed')), 20);
        return reply.type('text/plain').send(body);
      },
      async (app) => {
        const url = await app.listen({ host: '127.0.0.1', port: 0 });
        const res = await fetch(`${url}/broken-stream`, { headers: { 'x-api-key': key } });
        await expect(res.text()).rejects.toThrow();
      },
    );
    const lines = readLines(file).filter((l) => l.reqId);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'response terminated with an error with headers already sent'],
    ]);
  });
});
