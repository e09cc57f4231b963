import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkLiteralHost, guardedLookup, privateTargetsAllowed } from './target-guard.js';

export interface ExchangeInit {
  method: 'PUT' | 'POST';
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | string;
}

export interface Exchanged {
  status: number;
  headers: IncomingHttpHeaders;
}

/** The body's length as Content-Length unless the caller set one: some receivers refuse chunked uploads. */
function withLength(headers: Record<string, string>, length: number): Record<string, string> {
  const has = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  return has ? headers : { ...headers, 'Content-Length': String(length) };
}

/**
 * One request and its response status, on a fresh connection whose address passed the target policy at
 * connect time (see target-guard.ts). No redirect is followed; the response body is read and dropped.
 */
export function exchange(url: string, init: ExchangeInit, signal: AbortSignal): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const guarded = !privateTargetsAllowed();
    if (guarded) checkLiteralHost(target.hostname);
    const send =
      target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : null;
    if (!send) throw new Error(`unsupported protocol ${target.protocol}`);
    const body = typeof init.body === 'string' ? Buffer.from(init.body) : init.body;
    const options = {
      method: init.method,
      headers: withLength(init.headers, body.length),
      signal,
      agent: false as const,
      ...(guarded ? { lookup: guardedLookup } : {}),
    };
    const req = send(target, options, (res) => {
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('close', () => {
        if (!res.complete) reject(signal.reason ?? new Error('response cut off'));
      });
      res.resume();
    });
    req.on('error', reject);
    req.end(body);
  });
}
