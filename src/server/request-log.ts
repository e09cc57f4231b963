import type { FastifyRequest } from 'fastify';
import pino, { type LoggerOptions } from 'pino';

export interface RequestLogOptions {
  level: string;
  /** A file descriptor or path; default 1 (stdout). */
  destination?: number | string;
}

/**
 * The request log of `assay serve`: Fastify's two JSON lines per request, written asynchronously (lines are
 * queued while a write is in flight, and flushed when the server closes or the process exits) rather than
 * one blocking write per line on the thread that serves requests.
 *
 * No redaction pass runs per line: the request serializer below never emits headers (where the API key
 * and any Authorization travel) nor a body, and hides the one credential a URL can carry, the signature of
 * a pre-signed upload URL. pino's path redaction did the same work on every line to remove nothing.
 */
export function requestLog(opts: RequestLogOptions): { options: LoggerOptions; flush: () => void } {
  const stream = pino.destination({ dest: opts.destination ?? 1, sync: false });
  return {
    options: { level: opts.level, stream, serializers: { req: requestFields } } as LoggerOptions,
    flush: () => {
      try {
        stream.flushSync();
      } catch {
        // Nothing queued or a write still in flight: pino flushes what is left when the process exits.
      }
    },
  };
}

function requestFields(req: FastifyRequest) {
  return {
    method: req.method,
    url: withoutSignature(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** `?expires=...&signature=<hmac>` -> `signature=[redacted]`: a log line must not hold a usable upload URL. */
export function withoutSignature(url: string): string {
  const at = url.indexOf('signature=');
  if (at === -1) return url;
  const end = url.indexOf('&', at);
  return `${url.slice(0, at)}signature=[redacted]${end === -1 ? '' : url.slice(end)}`;
}
