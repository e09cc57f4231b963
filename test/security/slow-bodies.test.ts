import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

const CAP = 4;

/** Issue #17 item 5: a body that trickles in is cut off, and one address cannot hold every connection. */
describe('slow bodies and connection floods', () => {
  const home = tmpHome('assay-slow-bodies-');
  let server: RunningServer;
  let key: string;
  let port: number;
  const sockets: Socket[] = [];

  /** A connection from `from` that sends an upload's headers and then one body byte every 200 ms. */
  async function trickle(from = '127.0.0.1'): Promise<{ socket: Socket; closed: () => boolean }> {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    sockets.push(socket);
    await once(socket, 'connect');
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.write(
      `POST /extraction/lab/upload HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n',
    );
    const timer = setInterval(() => (closed ? clearInterval(timer) : socket.write(' ')), 200);
    socket.on('close', () => clearInterval(timer));
    return { socket, closed: () => closed };
  }

  /** GET /healthz from a given local address: the status, or 0 when the connection was refused. */
  const health = (from: string) =>
    new Promise<number>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/healthz', localAddress: from, agent: false },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', () => resolve(0));
      req.end();
    });

  beforeAll(async () => {
    key = createKey(home.dir, 'slow').key;
    process.env.ASSAY_REQUEST_TIMEOUT_MS = '1500';
    process.env.ASSAY_MAX_CONNECTIONS_PER_IP = String(CAP);
    server = await startTestServer(home.dir);
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    delete process.env.ASSAY_REQUEST_TIMEOUT_MS;
    delete process.env.ASSAY_MAX_CONNECTIONS_PER_IP;
    for (const s of sockets) s.destroy();
    await server.close();
    home.cleanup();
  });

  it('a body trickling in is cut off once the request time limit has passed', async () => {
    const slow = await trickle();
    await new Promise((r) => setTimeout(r, 4_000));
    expect(slow.closed()).toBe(true);
  });

  it('one address holding its share of connections cannot take more; another address still gets in', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => trickle()));
    expect(held.every((h) => !h.closed())).toBe(true);
    expect(await health('127.0.0.1')).toBe(0);
    expect(await health('127.0.0.2')).toBe(200);
    for (const h of held) h.socket.destroy();
  });
});
