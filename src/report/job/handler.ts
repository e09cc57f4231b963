/**
 * What a report job runs: the stored request opened, scored, modelled and rendered, then its deliveries
 * planned. Imported on a process's first report job (report-kind.ts), since scoring and the report model
 * are a large part of what the CLI would otherwise load at start-up.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { blobKeys } from '../../blobs/store.js';
import type { JobContext, JobHandler } from '../../engine/registry.js';
import type { JobOutcome } from '../../engine/types.js';
import { openSealedJson, SealedValueError } from '../../home-secrets.js';
import {
  hasDestination,
  parseReportRequest,
  type ReportRequest,
  type ReportVariant,
} from '../../schemas/report.js';
import { ScoringRequestError } from '../../scoring/errors.js';
import {
  deleteDeliverySecrets,
  deliveriesAfterFailure,
  deliveriesAfterReport,
  reportDeliveryContext,
} from '../delivery/plan.js';
import { buildReportModel } from '../model/model.js';
import { keepReportPdf, type ReportFiles, reportFiles, requestKey, writeFileAtomic } from './files.js';
import type { ReportKindOptions } from './options.js';
import type { ReportJobPayload, ReportJobResult } from './payload.js';
import type { RenderFn } from './render-pool.js';

/** Errors that will happen again on every attempt: the input itself cannot be reported on. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof ScoringRequestError ||
    error instanceof SealedValueError ||
    (error instanceof Error && ['SchemaValidationError', 'ReportRenderError'].includes(error.name))
  );
}

/**
 * The report model, as what the render is given and what the result needs. With --out its JSON text is
 * written anyway, so the render gets that text and the model's objects are garbage before the render starts
 * (render-pool.ts, RenderInput); without, the render gets the model.
 */
function modelled(request: ReportRequest, variant: ReportVariant, writesJson: boolean) {
  const model = buildReportModel(request, variant);
  const json = writesJson ? JSON.stringify(model, null, 2) : null;
  return { input: json ?? model, json, variant: model.variant, events: model.events.length };
}

async function generate(
  p: ReportJobPayload,
  ctx: JobContext,
  render: RenderFn,
  files: ReportFiles,
): Promise<ReportJobResult> {
  const started = performance.now();
  // Validated at submission; checked again because a payload is only JSON once stored. The configuration
  // was kept apart, so the stored request has none and needs no destination.
  const { request, variant } = parseReportRequest(openSealedJson(p.request, await requestKey(files.home)), {
    requireDestination: false,
    what: 'The stored request',
  });
  const { input, json, variant: shown, events } = modelled(request, p.variant ?? variant, Boolean(p.out));
  const pdf = await render(input);
  ctx.signal.throwIfAborted();
  const deliver = hasDestination({ report_metadata: { configuration: p.configuration } });
  const kept = deliver ? blobKeys.reportPdf(ctx.job.id) : null;
  if (kept) await keepReportPdf(files, ctx.job.id, pdf);
  let outPdf: string | null = null;
  let outJson: string | null = null;
  if (p.out) {
    outPdf = join(p.out.dir, `${p.out.name}.pdf`);
    outJson = join(p.out.dir, `${p.out.name}.report.json`);
    writeFileAtomic(outPdf, pdf);
    writeFileAtomic(outJson, `${json}\n`);
  }
  return {
    variant: shown,
    events,
    bytes: pdf.length,
    sha256: createHash('sha256').update(pdf).digest('hex'),
    pdf_path: kept,
    out_pdf: outPdf,
    out_json: outJson,
    render_seconds: Math.round(performance.now() - started) / 1000,
  };
}

/**
 * The handler of both report kinds. Success enqueues the deliveries in the same transaction as the
 * completion (the outbox). A failure that retrying cannot fix, or the last attempt's, ends the job with
 * status failed and a result naming the error, and still enqueues the failure callback: a job that simply
 * threw would end without telling the receiver.
 */
export function reportHandler(opts: ReportKindOptions): JobHandler {
  return async (raw, ctx): Promise<JobOutcome> => {
    const p = raw as ReportJobPayload;
    const delivery = reportDeliveryContext(p, ctx.job, opts.deliveryMaxAttempts);
    const files = reportFiles(opts.files, p.reportDir);
    try {
      const result = await generate(p, ctx, opts.render, files);
      const followUps = deliveriesAfterReport(delivery);
      if (followUps.length === 0) await deleteDeliverySecrets(files, p);
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
      if (followUps.length === 0) await deleteDeliverySecrets(files, p);
      return { status: 'failed', result: failure, followUps };
    }
  };
}
