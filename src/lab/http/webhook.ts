import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { FileBlobStore } from '../../blobs/file.js';
import { type BlobStore, blobKeys } from '../../blobs/store.js';
import { sendOnce } from '../../delivery/http.js';
import { deleteStoredUrl, openStoredUrl, sealUrlSecrets } from '../../delivery/sealed-url.js';
import { type JobKind, type KeptBlobs, PermanentJobError, RetryLaterError } from '../../engine/registry.js';
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
  /** Where the event goes; only its address when urlRef names the sealed URL as given. */
  url: string;
  /**
   * The webhookUrl as given, sealed in the blob store, when it carries more than its address (a query
   * string, which may hold a token): the job store keeps `url` without it. Absent when the URL had nothing
   * to hide, and on jobs stored before it existed. Read by the webhook job, deleted when its attempts end.
   */
  urlRef?: string;
  /** The API key the upload came with: its webhook secret signs the delivery. */
  keyId: string;
}

/** Where the blobs of the lab kinds are kept: the worker's home (its keys folder) and its blob store. */
export interface WebhookFiles {
  home: string;
  blobs: BlobStore;
}

/**
 * The target as a lab job may store it: a URL with more than its address is sealed (see sealed-url.ts). The
 * caller deletes the sealed copy (forgetTarget) when no job keeps the target.
 */
export async function storableTarget(
  files: WebhookFiles,
  target: Omit<WebhookTarget, 'urlRef'>,
): Promise<WebhookTarget> {
  const { url, ref } = await sealUrlSecrets(files, target.url);
  return { ...target, url, ...(ref ? { urlRef: ref } : {}) };
}

/** The sealed URL goes: its webhook has ended, or the job that would have sent it was never kept. */
export function forgetTarget(files: WebhookFiles, target: WebhookTarget | undefined): Promise<void> {
  return deleteStoredUrl(files, target?.urlRef);
}

/** The blobs a job holding this target still reads, for `assay jobs prune`. */
export function targetBlobs(target: WebhookTarget | undefined): string[] {
  return target?.urlRef ? [blobKeys.credential(target.urlRef)] : [];
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
 * A webhook owns no blob: it reads the URL its lab job sealed, which must outlive the lab job until the
 * webhook's attempts end.
 */
const webhookBlobs: KeptBlobs = {
  prefix: 'reports/credentials/',
  live: (job) => targetBlobs(job.payload as LabWebhookPayload),
};

/**
 * Sends a lab webhook: POST with X-API-Key (the key's webhook secret, SPEC.md) and the Standard Webhooks
 * headers signed with the same secret. 2xx within 15 s counts; 410 stops for good; Retry-After is honoured.
 * A URL sealed at upload is opened for each attempt and deleted once the webhook has ended.
 */
export function labWebhookKind(opts: {
  /** The key store (opened on first use), whose home's keys/ folder opens the sealed webhook secrets. */
  keys: () => Promise<Pick<KeyStore, 'webhookSecret'>>;
  /** The worker's home (whose keys folder opens a sealed URL) and blob store (default: the home's files). */
  files: { home: string; blobs?: BlobStore };
  scheduleMs?: readonly number[];
}): JobKind {
  const files: WebhookFiles = {
    home: opts.files.home,
    blobs: opts.files.blobs ?? new FileBlobStore(opts.files.home),
  };
  return {
    kind: LAB_WEBHOOK_KIND,
    maxAttempts: 6,
    waitingStatus: 'queued',
    runningStatus: 'delivering',
    backoff: { baseMs: 5_000, maxMs: 18_000_000, scheduleMs: opts.scheduleMs ?? WEBHOOK_SCHEDULE_MS },
    timeoutMs: 20_000,
    blobs: webhookBlobs,
    afterEnd: (job) => forgetTarget(files, job.payload as LabWebhookPayload),
    async handler(raw, ctx) {
      const p = raw as LabWebhookPayload;
      const secret = await (await opts.keys()).webhookSecret(p.keyId);
      if (!secret)
        throw new PermanentJobError('WebhookKeyRevoked', 'The API key this upload came with was revoked.');
      const url = await openStoredUrl(files, p.url, p.urlRef);
      if (!url)
        throw new PermanentJobError(
          'WebhookUrlMissing',
          'The webhook URL is no longer stored; upload the file again.',
        );
      const sentAt = new Date();
      const headers = {
        'content-type': 'application/json',
        'x-api-key': secret,
        'webhook-id': p.webhookId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(p.webhookId, sentAt, p.body),
      };
      const result = await sendOnce(url, { method: 'POST', headers, body: p.body }, { signal: ctx.signal });
      if (result.ok) return { result: { httpStatus: result.status, attempts: ctx.job.attempts } };
      const message = result.message ?? 'Webhook delivery failed.';
      if (result.status === 410)
        throw new PermanentJobError('WebhookGone', `${message} (410: the receiver asked us to stop).`);
      if (result.final) throw new PermanentJobError(result.errorType ?? 'WebhookRejected', message);
      throw new RetryLaterError(result.errorType ?? 'WebhookFailed', message, result.retryAfterMs ?? 0);
    },
  };
}
