import type { FastifyReply, FastifyRequest } from 'fastify';
import { AssayError, stackTraceLimit } from '../errors.js';
import { isStoreUnavailable } from './store-health.js';

/** SPEC.md "Lab extraction error body". */
export interface LabErrorBody {
  error: string;
  message: string;
  timestamp: string;
  requestId: string;
  details?: Record<string, unknown>;
}

/** SPEC.md "Reference data errors" (also used by the report routes): `{ detail }`. */
export interface DetailErrorBody {
  detail: string;
}

/**
 * An error meant for an HTTP caller: its status and SPEC.md error code. A 4xx is the answer to a request,
 * not a fault of ours, so it is built without a stack trace (nobody reads it; its capture was most of a
 * 404's cost).
 */
export class HttpError extends AssayError {
  readonly statusCode: number;
  readonly details?: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    details?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) {
    const restore = stackTraceLimit(statusCode < 500 ? 0 : Error.stackTraceLimit);
    try {
      super(code, message);
    } finally {
      restore();
    }
    this.statusCode = statusCode;
    this.details = details;
    this.headers = headers;
  }
}

const STATUS_BY_CODE: Record<string, number> = {
  invalid_request: 400,
  invalid_pdf: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  file_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  too_early: 425,
  rate_limit_exceeded: 429,
  upstream_unavailable: 502,
  store_unavailable: 503,
};

/** A connection that could not be made or was lost: refused, no socket file, no route, no answer in time. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SOCKET_CALLS = new Set(['connect', 'getaddrinfo', 'read', 'write']);
/**
 * PostgreSQL's SQLSTATEs of a server that cannot serve now: class 08 (connection), 53 (out of disk, memory
 * or connections), 57P01-57P03 (shutting down, crashed, starting), 25006 (a standby after a failover).
 */
const PG_UNAVAILABLE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123]|25006)$/;
/** node-postgres says these in words only (no code). */
const PG_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether `err` (or what it wraps) says the store's server cannot be reached or cannot serve now: the
 * PostgreSQL store stopped, restarting, out of connections, or its network gone.
 */
export function isStoreUnreachable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  const e = err as {
    code?: unknown;
    syscall?: unknown;
    severity?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) && typeof e.syscall === 'string' && SOCKET_CALLS.has(e.syscall)) return true;
  if (typeof e.severity === 'string' && PG_UNAVAILABLE.test(code)) return true;
  if (typeof e.message === 'string' && PG_LOST.test(e.message)) return true;
  const inner = err instanceof AggregateError ? err.errors : [];
  return [e.cause, ...inner].some((c) => isStoreUnreachable(c, depth + 1));
}

export interface NormalisedError {
  statusCode: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * The one boundary where errors become HTTP: typed errors keep their status and message; anything else is a
 * 500 whose message says nothing about internals (the log has the details, never PHI).
 */
export function normaliseError(err: unknown): NormalisedError {
  if (err instanceof HttpError) {
    return {
      statusCode: err.statusCode,
      code: err.code,
      message: err.message,
      details: err.details,
      headers: err.headers,
    };
  }
  // A locked, full or failing disk, or a PostgreSQL store out of reach: the request may succeed shortly,
  // and the caller is told so, on every route and whichever store (one mapping, here).
  if (isStoreUnavailable(err) || isStoreUnreachable(err)) {
    return {
      statusCode: 503,
      code: 'store_unavailable',
      message: 'The service cannot reach its store right now; try again shortly.',
      headers: { 'retry-after': '5' },
    };
  }
  if (err instanceof AssayError) {
    return { statusCode: STATUS_BY_CODE[err.code] ?? 500, code: err.code, message: err.message, headers: {} };
  }
  const fastify = err as { statusCode?: number; code?: string; message?: string };
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
    const code = fastify.statusCode === 413 ? 'file_too_large' : 'invalid_request';
    return {
      statusCode: fastify.statusCode,
      code,
      message: fastify.message ?? 'Invalid request.',
      headers: {},
    };
  }
  return { statusCode: 500, code: 'internal_error', message: 'Unexpected server error.', headers: {} };
}

/**
 * The time now as ISO 8601, formatted once per millisecond: a poller of unknown ids gets many error bodies
 * a millisecond, and formatting the date was a few per cent of such a 404's cost in the server.
 */
const isoNow = (() => {
  let at = Number.NaN;
  let text = '';
  return (now = Date.now()): string => {
    if (now !== at) {
      at = now;
      text = new Date(now).toISOString();
    }
    return text;
  };
})();

export function labErrorBody(e: NormalisedError, requestId: string): LabErrorBody {
  return {
    error: e.code,
    message: e.message,
    timestamp: isoNow(),
    requestId,
    ...(e.details ? { details: e.details } : {}),
  };
}

export const detailErrorBody = (e: NormalisedError): DetailErrorBody => ({ detail: e.message });

/** The longest message an error body carries; past it the message is cut (a body is never echoed whole). */
export const MAX_ERROR_MESSAGE = 600;

/** The message as sent: whole when short, else cut and marked, so no error body grows with the request. */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE) return message;
  return `${message.slice(0, MAX_ERROR_MESSAGE - 20)}… (message shortened)`;
}

/** SPEC.md's body for an error on `path`: the lab body under /extraction, `{detail}` elsewhere. */
export function errorBodyFor(path: string, e: NormalisedError, requestId: string) {
  const bounded = e.message.length > MAX_ERROR_MESSAGE ? { ...e, message: boundedMessage(e.message) } : e;
  return path.startsWith('/extraction') ? labErrorBody(bounded, requestId) : detailErrorBody(bounded);
}

/** Set the error's status and headers on `reply` and give the body its route's area answers with. */
export function answerError(req: FastifyRequest, reply: FastifyReply, e: NormalisedError) {
  reply.status(e.statusCode).headers(e.headers);
  return errorBodyFor(req.url, e, req.id);
}

/**
 * The answer to a lookup that found nothing, returned by the route rather than thrown: an unknown id is an
 * expected answer, and Fastify's error path (the throw, its hooks, the error handler) cost a third of a 404.
 */
export const notFound = (req: FastifyRequest, reply: FastifyReply, message: string) =>
  answerError(req, reply, { statusCode: 404, code: 'not_found', message, headers: {} });
