import type { BlobStore } from '../../blobs/store.js';
import type { BackoffPolicy } from '../../engine/backoff.js';
import type { NewJob } from '../../engine/types.js';
import type { ReportCallback } from '../../schemas/report.js';
import type { AuthType } from './auth.js';

export const DELIVERY_KIND = 'report.deliver';

/** storage_put and callback_put carry the PDF; callback_post carries the A4 status and always comes last. */
export type DeliveryStep = 'storage_put' | 'callback_put' | 'callback_post';

/**
 * The callback target without its secrets: the token lives in a sealed blob named by credentialRef, and a
 * URL with a query string (which may carry a token) in one named by urlRef, `url` keeping it without.
 */
export interface CallbackRef {
  url: string;
  urlRef?: string;
  authType: AuthType;
  keyName: string;
  credentialRef: string | null;
}

/** The sealed blobs a delivery reads: the callback credential and URL, the storage URL. */
export function deliveryRefs(p: Pick<DeliveryPayload, 'callback' | 'storageRef'>): string[] {
  return [p.callback?.credentialRef, p.callback?.urlRef, p.storageRef].filter((ref): ref is string =>
    Boolean(ref),
  );
}

export interface DeliveryPayload {
  reportJobId: string;
  step: DeliveryStep;
  reportDir: string;
  reportCreatedAt: number;
  /** The storage URL without query or userinfo (older jobs: the whole URL, when storageRef is absent). */
  storageUrl?: string;
  /** The sealed blob holding the pre-signed URL as given; it never enters the job store. */
  storageRef?: string;
  callback?: CallbackRef;
  /** callback_post: the A4 body, fixed at enqueue so every retry sends the same document. */
  body?: ReportCallback;
  /** callback_post: whether the PDF reached its destination, so the last step knows what to clean up. */
  pdfDelivered?: boolean;
  /** Attempts made by earlier jobs of this delivery (a Retry-After reschedules into a new job). */
  priorAttempts: number;
}

export interface DeliveryKindOptions {
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  /** Per-request limit; SPEC-facing default 15 s. */
  timeoutMs?: number;
  /** The running process's home (keys) and blob store; without them, the submitting home's (one box). */
  files?: { home: string; blobs?: BlobStore };
}

export const DEFAULT_DELIVERY_ATTEMPTS = 6;

/** A delivery job as a follow-up of the job that completes before it (the outbox). */
export function deliveryJob(
  payload: DeliveryPayload,
  opts: { maxAttempts?: number; runAt?: number } = {},
): NewJob {
  return {
    kind: DELIVERY_KIND,
    payload,
    waitingStatus: 'pending',
    runningStatus: 'sending',
    maxAttempts: opts.maxAttempts ?? DEFAULT_DELIVERY_ATTEMPTS,
    ...(opts.runAt !== undefined ? { runAt: opts.runAt } : {}),
  };
}

/** What a delivery job stores as its result: no credential, no signed query string. */
export interface DeliveryResult {
  step: DeliveryStep;
  delivered: boolean;
  attempt: number;
  http_status: number | null;
  target: string;
  error_type: string | null;
  error_message: string | null;
  retry_after_ms?: number;
}
