import { blobKeys } from '../../blobs/store.js';
import { type JobKind, type KeptBlobs, lazyHandler } from '../../engine/registry.js';
import { deleteDeliverySecrets, deliveriesAfterFailure, reportDeliveryContext } from '../delivery/plan.js';
import { reportFiles } from './files.js';
import type { ReportKindOptions } from './options.js';
import { deliverySecretRefs, REPORT_KINDS, type ReportJobPayload } from './payload.js';

/**
 * A job the handler could not end itself (its last attempt timed out or was aborted) still tells the
 * receiver: the failure callback is enqueued with the failure, and an unused credential is removed.
 */
function failureFollowUps(opts: ReportKindOptions): NonNullable<JobKind['onFinalFailure']> {
  return (job, error) => {
    const p = job.payload as ReportJobPayload;
    const failure = {
      error_type: error.type,
      error_message: error.message,
      error_details: { stage: 'generate', attempts: job.attempts },
    };
    const followUps = deliveriesAfterFailure(
      reportDeliveryContext(p, job, opts.deliveryMaxAttempts),
      failure,
    );
    // This hook cannot wait: a delete that fails leaves the sealed credential to `assay jobs prune`.
    if (followUps.length === 0)
      deleteDeliverySecrets(reportFiles(opts.files, p.reportDir), p).catch(() => {});
    return followUps;
  };
}

/** The keys blobKeys gives a report's PDF (named for its job) and its sealed credentials (for no job). */
const REPORT_PDF = /^reports\/([^/]+)\.pdf$/;
const CREDENTIAL = /^reports\/credentials\/[^/]+\.secret$/;

/**
 * A report's PDF is kept while its job is stored, so a delivery that failed can be retried; its credentials
 * are shared with the deliveries that follow it, and stay while any of them may still run.
 */
const reportBlobs: KeptBlobs = {
  prefix: 'reports/',
  owner: (key) => REPORT_PDF.exec(key)?.[1],
  keepWhileStored: true,
  shared: (key) => CREDENTIAL.test(key),
  live(job) {
    const p = job.payload as ReportJobPayload;
    return [blobKeys.reportPdf(job.id), ...deliverySecretRefs(p).map(blobKeys.credential)];
  },
};

export function reportKinds(opts: ReportKindOptions): JobKind[] {
  const common = {
    waitingStatus: 'pending',
    runningStatus: 'processing',
    maxAttempts: 3,
    timeoutMs: opts.timeoutMs ?? 5 * 60_000,
    handler: lazyHandler(async () => (await import('./handler.js')).reportHandler(opts)),
    onFinalFailure: failureFollowUps(opts),
    blobs: reportBlobs,
  };
  return [
    { kind: REPORT_KINDS.full, ...common },
    { kind: REPORT_KINDS.condensed, ...common },
  ];
}
