import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { JobContext, JobKind } from '../engine/registry.js';
import type { JobOutcome, JobRecord } from '../engine/types.js';
import { openSealedJson, SealedValueError } from '../home-secrets.js';
import { hasDestination, parseReportRequest } from '../schemas/report.js';
import { ScoringRequestError } from '../scoring/errors.js';
import { DEFAULT_DELIVERY_ATTEMPTS } from './delivery/payload.js';
import {
  deliveriesAfterFailure,
  deliveriesAfterReport,
  type ReportDeliveryContext,
} from './delivery/plan.js';
import { deleteCredential, pdfPath, requestKey, writeFileAtomic } from './files.js';
import { REPORT_KINDS, type ReportJobPayload, type ReportJobResult } from './job.js';
import { buildReportModel } from './model.js';
import type { RenderFn } from './render-pool.js';

export interface ReportKindOptions {
  /** How PDFs are rendered: in a worker-thread pool by default, inline in tests and benchmarks. */
  render: RenderFn;
  deliveryMaxAttempts?: number;
  /** Per-attempt time limit (default 5 minutes). */
  timeoutMs?: number;
}

/** Errors that will happen again on every attempt: the input itself cannot be reported on. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof ScoringRequestError ||
    error instanceof SealedValueError ||
    (error instanceof Error && ['SchemaValidationError', 'ReportRenderError'].includes(error.name))
  );
}

async function generate(p: ReportJobPayload, ctx: JobContext, render: RenderFn): Promise<ReportJobResult> {
  const started = performance.now();
  // Validated at submission; checked again because a payload is only JSON once stored. The configuration
  // was kept apart, so the stored request has none and needs no destination.
  const { request, variant } = parseReportRequest(openSealedJson(p.request, await requestKey(p.reportDir)), {
    requireDestination: false,
    what: 'The stored request',
  });
  const model = buildReportModel(request, p.variant ?? variant);
  const pdf = await render(model);
  ctx.signal.throwIfAborted();
  const deliver = hasDestination({ report_metadata: { configuration: p.configuration } });
  const kept = deliver ? pdfPath(p.reportDir, ctx.job.id) : null;
  if (kept) writeFileAtomic(kept, pdf);
  let outPdf: string | null = null;
  let outJson: string | null = null;
  if (p.out) {
    outPdf = join(p.out.dir, `${p.out.name}.pdf`);
    outJson = join(p.out.dir, `${p.out.name}.report.json`);
    writeFileAtomic(outPdf, pdf);
    writeFileAtomic(outJson, `${JSON.stringify(model, null, 2)}\n`);
  }
  return {
    variant: model.variant,
    events: model.events.length,
    bytes: pdf.length,
    sha256: createHash('sha256').update(pdf).digest('hex'),
    pdf_path: kept,
    out_pdf: outPdf,
    out_json: outJson,
    render_seconds: Math.round(performance.now() - started) / 1000,
  };
}

/** Nothing will be delivered: the callback credential and the storage URL go. */
function deleteSecrets(p: ReportJobPayload): void {
  for (const ref of [p.credentialRef, p.storageRef]) if (ref) deleteCredential(p.reportDir, ref);
}

function deliveryContext(p: ReportJobPayload, job: JobRecord, maxAttempts?: number): ReportDeliveryContext {
  return {
    reportJobId: job.id,
    reportCreatedAt: job.createdAt,
    reportDir: p.reportDir,
    configuration: p.configuration,
    credentialRef: p.credentialRef,
    storageRef: p.storageRef ?? null,
    maxAttempts: maxAttempts ?? DEFAULT_DELIVERY_ATTEMPTS,
  };
}

/**
 * The handler of both report kinds. Success enqueues the deliveries in the same transaction as the
 * completion (the outbox). A failure that retrying cannot fix, or the last attempt's, ends the job with
 * status failed and a result naming the error, and still enqueues the failure callback: a job that simply
 * threw would end without telling the receiver.
 */
function reportHandler(opts: ReportKindOptions): JobKind['handler'] {
  return async (raw, ctx): Promise<JobOutcome> => {
    const p = raw as ReportJobPayload;
    const delivery = deliveryContext(p, ctx.job, opts.deliveryMaxAttempts);
    try {
      const result = await generate(p, ctx, opts.render);
      const followUps = deliveriesAfterReport(delivery);
      if (followUps.length === 0) deleteSecrets(p);
      return { status: 'completed', result, followUps };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const lastAttempt = ctx.job.attempts >= ctx.job.maxAttempts;
      if (!isPermanent(error) && !lastAttempt) throw error;
      const err = error instanceof Error ? error : new Error(String(error));
      const failure = {
        error_type: err.name || 'Error',
        error_message: err.message,
        error_details: { stage: 'generate', attempts: ctx.job.attempts },
      };
      const followUps = deliveriesAfterFailure(delivery, failure);
      if (followUps.length === 0) deleteSecrets(p);
      return { status: 'failed', result: failure, followUps };
    }
  };
}

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
    const followUps = deliveriesAfterFailure(deliveryContext(p, job, opts.deliveryMaxAttempts), failure);
    if (followUps.length === 0) deleteSecrets(p);
    return followUps;
  };
}

export function reportKinds(opts: ReportKindOptions): JobKind[] {
  const common = {
    waitingStatus: 'pending',
    runningStatus: 'processing',
    maxAttempts: 3,
    timeoutMs: opts.timeoutMs ?? 5 * 60_000,
    handler: reportHandler(opts),
    onFinalFailure: failureFollowUps(opts),
  };
  return [
    { kind: REPORT_KINDS.full, ...common },
    { kind: REPORT_KINDS.condensed, ...common },
  ];
}
