import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { sendOnce } from '../../delivery/http.js';
import { type JobKind, PermanentJobError, RetryLaterError } from '../../engine/registry.js';
import type { NewJob } from '../../engine/types.js';
import type { KeyStore } from '../../keys/store.js';

export const LAB_WEBHOOK_KIND = 'lab.webhook';

/** SPEC.md Lab webhooks: one event per terminal state. */
export type LabEvent =
  | 'job.completed'
  | 'job.failed'
  | 'job.quarantined'
  | 'job.rejected_phi'
  | 'job.invalid_document';

export interface WebhookTarget {
  url: string;
  /** The API key the upload came with: its webhook secret signs the delivery. */
  keyId: string;
}

export interface LabWebhookPayload extends WebhookTarget {
  /** Stable across retries, so receivers can drop duplicates (Standard Webhooks `webhook-id`). */
  webhookId: string;
  /** The B4 envelope, serialised once so every retry sends (and signs) the same bytes. */
  body: string;
}

/**
 * The delivery job for one event: the B4 envelope is built now, when the lab job ends, and stored with the
 * delivery (the outbox), so a slow receiver never holds the lab job and a restart never loses the event.
 */
export function labWebhookJob(target: WebhookTarget, event: LabEvent, jobId: string, data: unknown): NewJob {
  const body = JSON.stringify({ event, jobId, timestamp: new Date().toISOString(), data });
  const payload: LabWebhookPayload = { ...target, webhookId: `msg_${randomUUID()}`, body };
  return {
    kind: LAB_WEBHOOK_KIND,
    payload,
    maxAttempts: 6,
    waitingStatus: 'queued',
    runningStatus: 'delivering',
  };
}

/** About 5 s, 5 min, 30 min, 2 h and 5 h after the first attempt (DESIGN.md "Webhooks and callbacks"). */
export const WEBHOOK_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000];

/** ASSAY_WEBHOOK_SCHEDULE_MS="100,200" shortens the schedule (tests, demos); unset keeps the default. */
export function webhookScheduleFromEnv(): readonly number[] | undefined {
  const steps = process.env.ASSAY_WEBHOOK_SCHEDULE_MS?.split(',').map(Number);
  return steps?.length && steps.every((n) => Number.isFinite(n) && n >= 0) ? steps : undefined;
}

/**
 * Sends a lab webhook: POST with X-API-Key (the key's webhook secret, SPEC.md) and the Standard Webhooks
 * headers signed with the same secret. 2xx within 15 s counts; 410 stops for good; Retry-After is honoured.
 */
export function labWebhookKind(opts: {
  /** The key store (opened on first use), whose home's keys/ folder opens the sealed webhook secrets. */
  keys: () => Promise<Pick<KeyStore, 'webhookSecret'>>;
  scheduleMs?: readonly number[];
}): JobKind {
  return {
    kind: LAB_WEBHOOK_KIND,
    maxAttempts: 6,
    waitingStatus: 'queued',
    runningStatus: 'delivering',
    backoff: { baseMs: 5_000, maxMs: 18_000_000, scheduleMs: opts.scheduleMs ?? WEBHOOK_SCHEDULE_MS },
    timeoutMs: 20_000,
    async handler(raw, ctx) {
      const p = raw as LabWebhookPayload;
      const secret = await (await opts.keys()).webhookSecret(p.keyId);
      if (!secret)
        throw new PermanentJobError('WebhookKeyRevoked', 'The API key this upload came with was revoked.');
      const sentAt = new Date();
      const headers = {
        'content-type': 'application/json',
        'x-api-key': secret,
        'webhook-id': p.webhookId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(p.webhookId, sentAt, p.body),
      };
      const result = await sendOnce(p.url, { method: 'POST', headers, body: p.body }, { signal: ctx.signal });
      if (result.ok) return { result: { httpStatus: result.status, attempts: ctx.job.attempts } };
      const message = result.message ?? 'Webhook delivery failed.';
      if (result.status === 410)
        throw new PermanentJobError('WebhookGone', `${message} (410: the receiver asked us to stop).`);
      if (result.final) throw new PermanentJobError(result.errorType ?? 'WebhookRejected', message);
      throw new RetryLaterError(result.errorType ?? 'WebhookFailed', message, result.retryAfterMs ?? 0);
    },
  };
}
