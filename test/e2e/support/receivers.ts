import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a receiver saw it. */
export interface Delivery {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * A real HTTP receiver on 127.0.0.1 that answers 200 to POST and PUT on any path and keeps every request,
 * grouped by the id `idOf` reads from it (a webhook's jobId, a callback's job_id). Requests it cannot
 * place are kept under '' so a stray one still shows in a failure message.
 */
export class Receiver {
  readonly byId = new Map<string, Delivery[]>();
  url = '';
  private readonly server: Server;

  private constructor(idOf: (d: Delivery) => string | undefined) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const d: Delivery = {
          method: req.method ?? '',
          url: new URL(req.url ?? '/', 'http://127.0.0.1'),
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        let id: string | undefined;
        try {
          id = idOf(d);
        } catch {
          id = undefined;
        }
        const list = this.byId.get(id ?? '') ?? [];
        list.push(d);
        this.byId.set(id ?? '', list);
        res.writeHead(200).end();
      });
    });
  }

  static async start(idOf: (d: Delivery) => string | undefined): Promise<Receiver> {
    const r = new Receiver(idOf);
    r.server.listen(0, '127.0.0.1');
    await once(r.server, 'listening');
    r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook`;
    return r;
  }

  /** The requests for one id with this method. */
  of(id: string, method = 'POST'): Delivery[] {
    return (this.byId.get(id) ?? []).filter((d) => d.method === method);
  }

  total(method = 'POST'): number {
    let n = 0;
    for (const list of this.byId.values()) n += list.filter((d) => d.method === method).length;
    return n;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

/** The JSON body of a delivery, or undefined. */
export function jsonBody(d: Delivery): Record<string, unknown> | undefined {
  try {
    return JSON.parse(d.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
