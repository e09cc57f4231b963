import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type LogFn, type Logger, type LoggerOptions } from 'pino';

export interface RequestLogOptions {
  level: string;
  /** A file descriptor or path; default 1 (stdout). */
  destination?: number | string;
}

/**
 * The request log of `assay serve`: one JSON line per request at the default level (`info`), written
 * asynchronously (lines are queued while a write is in flight, and flushed when the server closes or the
 * process exits) rather than one blocking write per line on the thread that serves requests.
 *
 * Fastify logs two lines per request, "incoming request" when it arrives and "request completed" when it is
 * answered; the pair cost a third of the server's requests per second. The completion line carries what an
 * operator needs of both (request id, method, path and query, route, client address, status, time), and
 * the arrival line moves to `debug` (`--log-level debug` shows both, as before). A request that fails is
 * still logged as "request errored" at `error`, with the same fields.
 *
 * No redaction pass runs per line: the request serializer below never emits headers (where the API key
 * and any Authorization travel) nor a body, and hides the one credential a URL can carry, the signature of
 * a pre-signed upload URL. pino's path redaction did the same work on every line to remove nothing.
 */
export function requestLog(opts: RequestLogOptions): { options: LoggerOptions; flush: () => void } {
  const stream = pino.destination({ dest: opts.destination ?? 1, sync: false });
  return {
    options: {
      level: opts.level,
      stream,
      serializers: { req: requestFields },
      hooks: { logMethod: oneLinePerRequest },
    } as LoggerOptions,
    flush: () => {
      try {
        stream.flushSync();
      } catch {
        // Nothing queued or a write still in flight: pino flushes what is left when the process exits.
      }
    },
  };
}

const INFO = 30;

/**
 * pino's hook on every log call: Fastify's "incoming request" goes to `debug`; its "request completed" and
 * "request errored" lines get the request (serialized by requestFields) beside the reply.
 */
function oneLinePerRequest(this: Logger, args: unknown[], method: LogFn, level: number): void {
  if (level === INFO && args[1] === 'incoming request') {
    if (this.isLevelEnabled('debug')) this.debug(args[0], args[1] as string);
    return;
  }
  // Fastify makes a new fields object for each line: adding the request to it in place costs least.
  const fields = args[0] as { req?: unknown; res?: FastifyReply } | undefined;
  if (
    fields?.res?.request &&
    !fields.req &&
    (args[1] === 'request completed' || args[1] === 'request errored')
  )
    fields.req = fields.res.request;
  method.apply(this, args as Parameters<LogFn>);
}

function requestFields(req: FastifyRequest) {
  return {
    method: req.method,
    url: withoutSignature(req.url),
    route: req.routeOptions?.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * `?expires=...&signature=<hmac>` -> `signature=[redacted]`: a log line must not hold a usable upload URL.
 * Every parameter whose decoded name holds "signature" (any case, `%73ignature`, repeated) is redacted: the
 * query parser that checks it decodes names, so the log must judge them decoded too.
 */
export function withoutSignature(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((param) => {
      const eq = param.indexOf('=');
      const name = eq === -1 ? param : param.slice(0, eq);
      return isSignatureName(name) ? `${name}=[redacted]` : param;
    });
  return `${url.slice(0, q + 1)}${params.join('&')}`;
}

function isSignatureName(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: judge the raw name, erring towards redaction.
  }
  return /signature/i.test(name);
}
