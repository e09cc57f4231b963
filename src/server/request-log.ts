import { hostname } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import pino, { type Logger } from 'pino';
import { BatchedSink } from './batched-sink.js';
import { RequestLines } from './request-lines.js';

export interface RequestLogOptions {
  level: string;
  /** A file descriptor or path; default 1 (stdout). */
  destination?: number | string;
}

export interface RequestLog {
  /** Fastify's own options: no logger of its own, and our lines for its per-request events. */
  fastify: Pick<FastifyServerOptions, 'logger' | 'logController'>;
  /** Makes this the app's log (`app.log`) and hooks in the line per request: before any route is added. */
  attach(app: FastifyInstance): void;
  /** A logger for one request's rare lines (an error, a warning), with its request id as `reqId`. */
  of(request: FastifyRequest): Logger;
  /** Write out every line held (the server closes): synchronously, and stop the flush timer. */
  flush(): void;
}

const LEVELS: Record<string, number> & { info: number; debug: number } = {
  ...pino.levels.values,
  info: 30,
  debug: 20,
};

/**
 * The request log of `assay serve`: at the default level (`info`) one JSON line per request, when it is
 * answered, with what an operator needs of it (request id, method, path and query, route, client address,
 * status, milliseconds) and never a header, a body or an upload signature.
 *
 * Fastify's own logger stays off: on, it made a logger child per request (a call of childLoggerFactory and
 * a check of what it returned, however lazy the child) and its response listeners: with them, the log cost
 * ~19 us of server CPU a request on a 2-core VM (issue #33), where the line itself costs ~1 us. Instead:
 * - the line is one string built from the request's fields (completedLine), written from one onResponse
 *   hook; the arrival line is written only at `debug`;
 * - everything else (errors, warnings, startup) goes through a pino logger of ours, `app.log`, and a child
 *   of it made only for a request that logs (`of(request)`, with its request id);
 * - lines go to the destination in batches (BatchedSink), not one write each: on a 2-core VM a write per
 *   line cost 25 us a request.
 *
 * No redaction pass runs per line: the request serializer never emits headers (where the API key and any
 * Authorization travel) nor a body, and hides the one credential a URL can carry, the signature of a
 * pre-signed upload URL.
 */
export function requestLog(opts: RequestLogOptions): RequestLog {
  const sink = new BatchedSink(
    // Written synchronously, a batch at a time: a 64 KB write every couple of hundred requests costs the
    // event loop little, and what close() flushes is on disk when the server says it has closed (an
    // asynchronous file destination could still be opening then, and its lines arrived only at exit).
    pino.destination({ dest: opts.destination ?? 1, sync: true, contentMode: 'buffer' }),
  );
  const logger = pino(
    {
      level: opts.level,
      serializers: { req: requestFields, res: replyFields, err: pino.stdSerializers.err },
    },
    sink,
  );
  const of = (request: FastifyRequest) => logger.child({ reqId: request.id });
  const threshold = opts.level === 'silent' ? Number.POSITIVE_INFINITY : (LEVELS[opts.level] ?? LEVELS.info);
  const lines = new RequestLines({ logger, of, arrived: threshold <= LEVELS.debug });
  const completed = threshold <= LEVELS.info;
  return {
    fastify: { logger: false, logController: lines },
    attach(app) {
      // Fastify writes its own server lines (listening, a failing hook) to app.log, as the areas do. What it
      // writes straight to a request's log (`reply.log`: a reply sent twice) goes nowhere now: bugs, not events.
      app.log = logger;
      // An onResponse hook also makes Fastify time the reply (reply.elapsedTime). A response destroyed
      // midway never finishes, so has no line, as before; Fastify reports its stream's error (streamError).
      if (completed) {
        app.addHook('onResponse', (request, reply, done) => {
          sink.write(completedLine(request, reply));
          done();
        });
      }
    },
    of,
    flush: () => sink.close(),
  };
}

const INFO_PREFIX = `{"level":30,"time":`;
const BASE = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

/**
 * What pino would write for `{req, res, responseTime}` under the request's `reqId`, with the fields of
 * requestFields, built as one string.
 */
export function completedLine(request: FastifyRequest, reply: FastifyReply): string {
  const route = request.routeOptions.url;
  return (
    `${INFO_PREFIX}${Date.now()}${BASE},"reqId":${str(request.id)}` +
    `,"req":{"method":${str(request.method)},"url":${str(withoutSignature(request.url))}` +
    `${route === undefined ? '' : `,"route":${str(route)}`},"remoteAddress":${str(request.ip)}}` +
    `,"res":{"statusCode":${reply.statusCode}},"responseTime":${Math.round(reply.elapsedTime * 1000) / 1000}` +
    ',"msg":"request completed"}\n'
  );
}

/** Whether JSON.stringify would write the string as is: no quote, backslash, control or surrogate. */
function plain(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** JSON.stringify for a string, without its cost (a third of a microsecond) for the usual plain string. */
function str(value: string | undefined): string {
  if (value === undefined) return 'null';
  return plain(value) ? `"${value}"` : JSON.stringify(value);
}

function requestFields(req: FastifyRequest) {
  return {
    method: req.method,
    url: withoutSignature(req.url),
    route: req.routeOptions?.url,
    remoteAddress: req.ip,
  };
}

function replyFields(reply: FastifyReply) {
  return { statusCode: reply.statusCode };
}

/**
 * `?expires=...&signature=<hmac>` -> `signature=[redacted]`: a log line must not hold a usable upload URL.
 * Every parameter whose decoded name holds "signature" (any case, `%73ignature`, repeated) is redacted: the
 * query parser that checks it decodes names, so the log must judge them decoded too.
 */
export function withoutSignature(url: string): string {
  const q = url.indexOf('?');
  // No parameter name can decode to hold "signature" without a "%" or the word itself: the usual query.
  if (q === -1 || !MAY_NAME_SIGNATURE.test(url.slice(q + 1))) return url;
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

const MAY_NAME_SIGNATURE = /%|signature/i;

function isSignatureName(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: judge the raw name, erring towards redaction.
  }
  return /signature/i.test(name);
}
