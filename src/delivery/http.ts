import { type Exchanged, type ExchangeInit, exchange } from './exchange.js';
import { TargetRefusedError } from './target-guard.js';

/** What one HTTP delivery attempt came to, in the terms the retry logic needs. */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  /** Retrying cannot help (403 on a pre-signed URL, 410, a redirect, most 4xx). */
  final: boolean;
  /** From the receiver's Retry-After header, when it sent one. */
  retryAfterMs: number | null;
  errorType: string | null;
  message: string | null;
}

export const DELIVERY_TIMEOUT_MS = 15_000;
const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** Retry-After as seconds or an HTTP date (RFC 9110 10.2.3); capped, never negative. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/** Statuses worth another try: the receiver is busy, slow or briefly broken. */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** A URL as it may be logged or stored: no query (pre-signed URLs carry their signature there), no userinfo. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

export interface SendOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Error type and message for a 403 (a GET pre-signed URL answers 403 to a PUT). */
  forbidden?: { type: string; message: string };
}

export interface DeliveryFailure {
  /** The target without query or userinfo. */
  target: string;
  /** The error's code (ECONNREFUSED, ETARGETREFUSED, ERR_TLS_CERT_ALTNAME_INVALID...) or name. */
  code: string;
  /** The address and port a connect error names, for the operator. */
  address?: string;
  port?: number;
}

const failureListeners = new Set<(failure: DeliveryFailure) => void>();

/**
 * Be told the detail of each delivery that got no HTTP answer. Callers only ever see a generic message (the
 * detail would make deliveries a port scanner); the server writes this to its log. Returns the unsubscribe.
 */
export function onDeliveryFailure(listener: (failure: DeliveryFailure) => void): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}

function reportFailure(url: string, error: unknown): void {
  const e = error as { code?: string; name?: string; address?: string; port?: number; cause?: unknown };
  const inner = (e.cause ?? e) as typeof e;
  const failure: DeliveryFailure = {
    target: redactUrl(url),
    code: inner.code ?? e.code ?? inner.name ?? 'Error',
    ...(inner.address ? { address: inner.address } : {}),
    ...(inner.port ? { port: inner.port } : {}),
  };
  for (const listener of failureListeners) listener(failure);
}

/**
 * One HTTP request: 2xx is success; redirects are not followed (a 3xx is a failure, as following one could
 * send the body or credential elsewhere); only `timeoutMs` is allowed for the whole exchange. The target's
 * address must pass the target policy when the connection is made. Without an HTTP answer the caller gets
 * one generic message whatever happened (refused, timed out, TLS): which it was is for the operator's log.
 */
export async function sendOnce(
  url: string,
  init: ExchangeInit,
  opts: SendOptions = {},
): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let response: Exchanged;
  try {
    response = await exchange(url, init, signal);
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    reportFailure(url, error);
    if (error instanceof TargetRefusedError) {
      return {
        ok: false,
        status: null,
        final: true,
        retryAfterMs: null,
        errorType: 'DeliveryTargetRefused',
        message: error.message,
      };
    }
    return {
      ok: false,
      status: null,
      final: false,
      retryAfterMs: null,
      errorType: 'DeliveryNetworkError',
      message: `No HTTP answer from ${redactUrl(url)}: the connection failed or timed out.`,
    };
  }
  const { status } = response;
  if (status >= 200 && status < 300) {
    return { ok: true, status, final: false, retryAfterMs: null, errorType: null, message: null };
  }
  const retryAfter = response.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : null);
  if (status === 403 && opts.forbidden) {
    return {
      ok: false,
      status,
      final: true,
      retryAfterMs: null,
      errorType: opts.forbidden.type,
      message: opts.forbidden.message,
    };
  }
  if (status >= 300 && status < 400) {
    return {
      ok: false,
      status,
      final: true,
      retryAfterMs: null,
      errorType: 'RedirectNotFollowed',
      message: `${redactUrl(url)} answered ${status} (a redirect); redirects are not followed, configure the final URL.`,
    };
  }
  return {
    ok: false,
    status,
    final: !retryableStatus(status),
    retryAfterMs,
    errorType: 'DeliveryHttpError',
    message: `${redactUrl(url)} answered HTTP ${status}.`,
  };
}
