import { blobKeys } from '../../blobs/store.js';
import { type AttemptResult, redactUrl } from '../../delivery/http.js';
import { openStoredUrl } from '../../delivery/sealed-url.js';
import type { JobContext, JobKind, KeptBlobs } from '../../engine/registry.js';
import type { JobOutcome } from '../../engine/types.js';
import {
  deleteCredential,
  deleteReportPdf,
  type ReportFiles,
  readCredential,
  readReportPdf,
  reportFiles,
} from '../job/files.js';
import { type CallbackTarget, callbackPutUrl, postCallback, putCallbackPdf } from './callback.js';
import {
  DEFAULT_DELIVERY_ATTEMPTS,
  DELIVERY_KIND,
  type DeliveryKindOptions,
  type DeliveryPayload,
  type DeliveryResult,
  deliveryJob,
  deliveryRefs,
} from './payload.js';
import { statusPostAfter } from './plan.js';
import { putPresigned } from './put-presigned.js';

/** A failed attempt the engine should retry with backoff; `code` becomes the job's error_type. */
class DeliveryAttemptError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

const missing = (type: string, message: string): AttemptResult => ({
  ok: false,
  status: null,
  final: true,
  retryAfterMs: null,
  errorType: type,
  message,
});

async function callbackTarget(
  p: DeliveryPayload,
  files: ReportFiles,
): Promise<CallbackTarget | AttemptResult> {
  const cb = p.callback;
  if (!cb) return missing('DeliveryMisconfigured', 'This delivery has no callback_url.');
  const url = await openStoredUrl(files, cb.url, cb.urlRef);
  if (!url)
    return missing('CallbackUrlMissing', 'The callback URL is no longer stored; submit the report again.');
  const token = cb.credentialRef ? await readCredential(files, cb.credentialRef) : null;
  if (cb.authType !== 'none' && token === null) {
    return missing(
      'CallbackCredentialMissing',
      'The callback credential is no longer stored; submit the report again.',
    );
  }
  return { url, authType: cb.authType, keyName: cb.keyName, token };
}

/** The kept PDF; a store that does not answer throws, and the attempt is retried. */
async function readPdf(p: DeliveryPayload, files: ReportFiles): Promise<Buffer | AttemptResult> {
  const pdf = await readReportPdf(files, p.reportJobId);
  return (
    pdf ?? missing('ReportFileMissing', `The generated PDF of job ${p.reportJobId} is no longer stored.`)
  );
}

/** One try of this step's HTTP request. */
async function attemptStep(
  p: DeliveryPayload,
  ctx: JobContext,
  files: ReportFiles,
  timeoutMs?: number,
): Promise<AttemptResult> {
  const opts = { signal: ctx.signal, timeoutMs };
  if (p.step === 'callback_post') {
    const target = await callbackTarget(p, files);
    if ('ok' in target) return target;
    if (!p.body) return missing('DeliveryMisconfigured', 'The status delivery has no payload.');
    return postCallback(target, p.body, opts);
  }
  const pdf = await readPdf(p, files);
  if (!Buffer.isBuffer(pdf)) return pdf;
  if (p.step === 'storage_put') {
    const url = p.storageRef ? await readCredential(files, p.storageRef) : p.storageUrl;
    if (!url)
      return missing('StorageUrlMissing', 'The storage URL is no longer stored; submit the report again.');
    return putPresigned(url, pdf, opts);
  }
  const target = await callbackTarget(p, files);
  if ('ok' in target) return target;
  return putCallbackPdf(target, p.reportJobId, pdf, opts);
}

function targetOf(p: DeliveryPayload): string {
  if (p.step === 'storage_put') return redactUrl(p.storageUrl ?? '');
  if (p.step === 'callback_put' && p.callback)
    return redactUrl(callbackPutUrl(p.callback.url, p.reportJobId));
  return redactUrl(p.callback?.url ?? '');
}

/**
 * The delivery chain has ended: the credential goes, and the PDF too once it reached its destination. A PDF
 * that was not delivered stays in the blob store (until `assay jobs prune`), so `assay jobs retry` or the
 * operator can still use it.
 */
async function endOfDeliveries(p: DeliveryPayload, files: ReportFiles, pdfDelivered: boolean): Promise<void> {
  for (const ref of deliveryRefs(p)) await deleteCredential(files, ref);
  if (pdfDelivered) await deleteReportPdf(files, p.reportJobId);
}

async function finish(
  p: DeliveryPayload,
  files: ReportFiles,
  result: DeliveryResult,
  maxAttempts: number,
): Promise<JobOutcome> {
  const status = result.delivered ? 'completed' : 'failed';
  if (p.step === 'callback_post') {
    await endOfDeliveries(p, files, p.pdfDelivered ?? false);
    return { status, result };
  }
  const outcome = result.delivered
    ? ({ ok: true } as const)
    : {
        ok: false as const,
        error_type: result.error_type ?? 'DeliveryFailed',
        error_message: result.error_message ?? 'The report could not be delivered.',
        error_details: { step: p.step, http_status: result.http_status, attempts: result.attempt },
      };
  const followUps = statusPostAfter(p, outcome, maxAttempts);
  if (followUps.length === 0) await endOfDeliveries(p, files, result.delivered);
  return { status, result, followUps };
}

/**
 * A delivery owns no blob: it reads its report's PDF, kept by the report job, and the credentials that job
 * sealed, which must outlive the report job until the chain of deliveries ends.
 */
const deliveryBlobs: KeptBlobs = {
  prefix: 'reports/',
  live(job) {
    const p = job.payload as DeliveryPayload;
    return [blobKeys.reportPdf(p.reportJobId), ...deliveryRefs(p).map(blobKeys.credential)];
  },
};

/**
 * `report.deliver`: one HTTP delivery of a report, as its own job so a slow or failing receiver never holds
 * the report job. Retries go through the engine's backoff; a Retry-After from the receiver reschedules the
 * delivery as a new job at that time instead, so no worker sits waiting. Ends in status completed or failed,
 * and either way enqueues the next step (the status POST) in the same transaction.
 */
export function deliveryKind(opts: DeliveryKindOptions = {}): JobKind {
  const maxAttempts = opts.maxAttempts ?? DEFAULT_DELIVERY_ATTEMPTS;
  return {
    kind: DELIVERY_KIND,
    waitingStatus: 'pending',
    runningStatus: 'sending',
    maxAttempts,
    backoff: opts.backoff ?? { baseMs: 2_000, maxMs: 10 * 60_000 },
    timeoutMs: (opts.timeoutMs ?? 15_000) + 15_000,
    blobs: deliveryBlobs,
    async handler(raw, ctx) {
      const p = raw as DeliveryPayload;
      const files = reportFiles(opts.files, p.reportDir);
      const attempt = ctx.job.attempts + p.priorAttempts;
      const sent = await attemptStep(p, ctx, files, opts.timeoutMs);
      const result: DeliveryResult = {
        step: p.step,
        delivered: sent.ok,
        attempt,
        http_status: sent.status,
        target: targetOf(p),
        error_type: sent.errorType,
        error_message: sent.message,
      };
      if (sent.ok || sent.final || attempt >= ctx.job.maxAttempts)
        return finish(p, files, result, ctx.job.maxAttempts);
      if (sent.retryAfterMs !== null) {
        return {
          status: 'rescheduled',
          result: { ...result, retry_after_ms: sent.retryAfterMs },
          followUps: [
            deliveryJob(
              { ...p, priorAttempts: attempt },
              { maxAttempts: ctx.job.maxAttempts, runAt: Date.now() + sent.retryAfterMs },
            ),
          ],
        };
      }
      throw new DeliveryAttemptError(sent.errorType ?? 'DeliveryFailed', sent.message ?? 'Delivery failed.');
    },
  };
}
