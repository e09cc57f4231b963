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
  // A locked, full or failing disk: the request may succeed shortly, and the caller is told so.
  if (isStoreUnavailable(err)) {
    return {
      statusCode: 503,
      code: 'store_unavailable',
      message: 'The service cannot store requests right now; try again shortly.',
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

export function labErrorBody(e: NormalisedError, requestId: string): LabErrorBody {
  return {
    error: e.code,
    message: e.message,
    timestamp: new Date().toISOString(),
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
