import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBodyFor, type NormalisedError, normaliseError } from './error-bodies.js';

/**
 * Errors the router raises before any route or error handler runs (a malformed percent-encoding, a path
 * parameter over maxParamLength). Fastify's default answers them in its own `{error, code, statusCode}`
 * shape; this gives them the SPEC.md body of their area like every other error.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const e = normaliseError(err);
  reply
    .status(e.statusCode)
    .headers(e.headers)
    .send(errorBodyFor(req.url, e, req.id));
}

/**
 * Requests node's HTTP parser refuses (non-ASCII bytes in the request line, oversized headers) never become
 * Fastify requests: the answer is written on the raw socket. The path, when the parser got that far, is read
 * from the raw packet to pick the area's body; `Connection: close` because the socket is destroyed next,
 * and a keep-alive client would otherwise reuse it and see a hang-up on its following request.
 */
export function clientErrorHandler(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  // Typed as a JSON-ised Buffer, but node hands over the Buffer itself.
  const raw: unknown = err.rawPacket;
  const path = Buffer.isBuffer(raw) ? (/^[A-Z]+ (\S+)/.exec(raw.toString('latin1', 0, 64))?.[1] ?? '') : '';
  const message =
    status === 408
      ? 'The request took too long to arrive.'
      : status === 431
        ? 'The request headers are too large.'
        : 'Malformed HTTP request.';
  const e: NormalisedError = {
    statusCode: status,
    code: status === 431 ? 'headers_too_large' : 'invalid_request',
    message,
    headers: {},
  };
  const body = JSON.stringify(errorBodyFor(path, e, randomUUID()));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
