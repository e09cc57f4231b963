import { hostname } from 'node:os';
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type Logger } from 'pino';

export interface RequestLogOptions {
  level: string;
  /** A file descriptor or path; default 1 (stdout). */
  destination?: number | string;
}

export interface RequestLog {
  /** The Fastify options that set the log up: `logger`, `logController`, `childLoggerFactory`. */
  fastify: Pick<FastifyServerOptions, 'logger' | 'logController' | 'childLoggerFactory'>;
  /** Write out every line held (the server closes): synchronously, and stop the flush timer. */
  flush(): void;
}

const LEVELS: Record<string, number> & { info: number; debug: number } = {
  ...pino.levels.values,
  info: 30,
  debug: 20,
};
/**
 * Lines are held until this many bytes are waiting (about 200 lines)... Each write costs the server far more
 * than its bytes (an asynchronous write wakes a libuv thread and then the event loop): on a 2-core VM,
 * batches of 8 KB still cost 10 us a request more than batches of 64 KB.
 */
const BATCH_BYTES = 64 * 1024;
/** Room for a line past BATCH_BYTES; a longer one goes alone. */
const LINE_ROOM = 16 * 1024;
/** ...or this long: a quiet server's line shows within a quarter of a second. */
const FLUSH_MS = 250;

/**
 * The request log of `assay serve`: at the default level (`info`) one JSON line per request, when it is
 * answered, with what an operator needs of it (request id, method, path and query, route, client address,
 * status, milliseconds) and never a header, a body or an upload signature.
 *
 * It costs a few microseconds a request, where Fastify's own request logging (two lines, a pino child logger
 * per request, one write to the file per line) cost a third of the server's requests per second:
 * - the line is one string built from the request's fields (logController below), not an object run
 *   through pino's serializers; the arrival line is written only at `debug`;
 * - a request's logger (`req.log`, with its request id) is made only if something logs through it
 *   (an error, a warning): LazyChild;
 * - lines are written in batches (BATCH_CHARS, at least every FLUSH_MS, and at close and exit),
 *   not one write each: on a 2-core VM a write per line cost 25 us a request.
 *
 * Everything else the server logs (errors, warnings) goes through pino to the same stream, in order. No
 * redaction pass runs per line: the request serializer never emits headers (where the API key and any
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
  const threshold = opts.level === 'silent' ? Number.POSITIVE_INFINITY : (LEVELS[opts.level] ?? LEVELS.info);
  const lines = new RequestLines({
    sink,
    completed: threshold <= LEVELS.info,
    arrived: threshold <= LEVELS.debug,
  });
  return {
    fastify: {
      logger: { level: opts.level, stream: sink, serializers: { req: requestFields } },
      logController: lines,
      childLoggerFactory: (logger, bindings, options) =>
        new LazyChild(logger as Logger, bindings, options) as unknown as FastifyBaseLogger,
    },
    flush: () => sink.close(),
  };
}

interface Sink {
  write(line: string): void;
}

/**
 * Holds lines and hands them to the destination in batches, encoded as they come into one buffer per batch
 * (a batch held as one long string cost more to flatten and encode at once than its lines did to build).
 * pino's SonicBoom would otherwise start a write for every line.
 */
class BatchedSink implements Sink {
  private held = Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
  private used = 0;
  /** After close, lines (a worker's last warning) go straight to the destination. */
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onExit = () => this.close();

  constructor(private readonly destination: ReturnType<typeof pino.destination>) {
    this.timer = setInterval(() => this.release(), FLUSH_MS).unref();
    process.once('exit', this.onExit);
  }

  write(line: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    if (this.used + line.length * 3 > this.held.length) {
      this.release();
      if (line.length * 3 > this.held.length) {
        this.destination.write(Buffer.from(line) as unknown as string);
        return;
      }
    }
    this.used += this.held.write(line, this.used);
    if (this.closed || this.used >= BATCH_BYTES) this.release();
  }

  private release(): void {
    if (this.used === 0) return;
    const lines = this.held.subarray(0, this.used);
    this.held = Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
    this.used = 0;
    // The destination keeps the buffer until it is written (contentMode 'buffer'); this sink never reuses it.
    this.destination.write(lines as unknown as string);
  }

  /** Everything held and queued, written now (the server closes, or the process exits). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    process.removeListener('exit', this.onExit);
    this.release();
    try {
      this.destination.flushSync();
    } catch {
      // A write still in flight: pino flushes what is left when the process exits.
    }
  }
}

const INFO_PREFIX = `{"level":30,"time":`;
const BASE = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

/**
 * Fastify's hooks for its own request lines: "incoming request" at `debug` only, and "request completed" as
 * one precomputed-shape line; "request errored" and the rest stay as Fastify writes them, through pino.
 */
class RequestLines extends LogController {
  private readonly sink: Sink;
  private readonly completed: boolean;
  private readonly arrived: boolean;

  constructor(opts: { sink: Sink; completed: boolean; arrived: boolean }) {
    super();
    this.sink = opts.sink;
    this.completed = opts.completed;
    this.arrived = opts.arrived;
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.arrived) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else if (this.completed) {
      this.sink.write(completedLine(request, reply));
    }
  }
}

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

/**
 * A request's logger (`req.log`, `reply.log`), made only when something logs through it: most requests
 * never do (their one line is written by RequestLines), and a pino child per request was a microsecond.
 */
class LazyChild {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindingsOf: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): Logger {
    this.made ??= this.parent.child(this.bindingsOf, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.logger.isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.logger.bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  fatal(...args: Parameters<Logger['fatal']>): void {
    this.logger.fatal(...args);
  }

  error(...args: Parameters<Logger['error']>): void {
    this.logger.error(...args);
  }

  warn(...args: Parameters<Logger['warn']>): void {
    this.logger.warn(...args);
  }

  info(...args: Parameters<Logger['info']>): void {
    this.logger.info(...args);
  }

  debug(...args: Parameters<Logger['debug']>): void {
    this.logger.debug(...args);
  }

  trace(...args: Parameters<Logger['trace']>): void {
    this.logger.trace(...args);
  }

  silent(): void {}
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
