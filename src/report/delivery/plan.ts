import { redactUrl } from '../../delivery/http.js';
import type { JobRecord, NewJob } from '../../engine/types.js';
import type { ReportCallback, ReportConfiguration } from '../../schemas/report.js';
import { deleteCredential, type ReportFiles } from '../job/files.js';
import { deliverySecretRefs, type ReportJobPayload } from '../job/payload.js';
import { type CallbackRef, DEFAULT_DELIVERY_ATTEMPTS, type DeliveryPayload, deliveryJob } from './payload.js';

export interface ReportDeliveryContext {
  reportJobId: string;
  reportCreatedAt: number;
  reportDir: string;
  configuration: Omit<ReportConfiguration, 'auth_token'>;
  credentialRef: string | null;
  storageRef: string | null;
  /** The sealed callback_url as given, when configuration holds it without its query. */
  callbackUrlRef: string | null;
  maxAttempts?: number;
}

/** What the deliveries of a report job need to know, from its payload and row. */
export function reportDeliveryContext(
  p: ReportJobPayload,
  job: JobRecord,
  maxAttempts?: number,
): ReportDeliveryContext {
  return {
    reportJobId: job.id,
    reportCreatedAt: job.createdAt,
    reportDir: p.reportDir,
    configuration: p.configuration,
    credentialRef: p.credentialRef,
    storageRef: p.storageRef ?? null,
    callbackUrlRef: p.callbackUrlRef ?? null,
    maxAttempts: maxAttempts ?? DEFAULT_DELIVERY_ATTEMPTS,
  };
}

/** Nothing will be delivered: the callback credential and the storage and callback URLs go. */
export async function deleteDeliverySecrets(files: ReportFiles, p: ReportJobPayload): Promise<void> {
  for (const ref of deliverySecretRefs(p)) await deleteCredential(files, ref);
}

export interface DeliveryError {
  error_type: string;
  error_message: string;
  error_details?: unknown;
}

function callbackRef(ctx: ReportDeliveryContext): CallbackRef | undefined {
  const c = ctx.configuration;
  if (!c.callback_url) return undefined;
  return {
    url: c.callback_url,
    authType: c.auth_type,
    keyName: c.auth_key_name,
    credentialRef: ctx.credentialRef,
    ...(ctx.callbackUrlRef ? { urlRef: ctx.callbackUrlRef } : {}),
  };
}

function base(ctx: ReportDeliveryContext): Omit<DeliveryPayload, 'step'> {
  return {
    reportJobId: ctx.reportJobId,
    reportDir: ctx.reportDir,
    reportCreatedAt: ctx.reportCreatedAt,
    ...(ctx.configuration.storage_presigned_url
      ? { storageUrl: ctx.configuration.storage_presigned_url }
      : {}),
    ...(ctx.storageRef ? { storageRef: ctx.storageRef } : {}),
    ...(callbackRef(ctx) ? { callback: callbackRef(ctx) } : {}),
    priorAttempts: 0,
  };
}

/** The A4 body: success (with the storage location when there is one) or failure. */
export function callbackBody(
  p: Pick<DeliveryPayload, 'reportJobId' | 'reportCreatedAt' | 'storageUrl'>,
  outcome: { ok: true } | ({ ok: false } & DeliveryError),
  now = Date.now(),
): ReportCallback {
  const common = {
    job_id: p.reportJobId,
    processing_time: Math.round(Math.max(0, now - p.reportCreatedAt)) / 1000,
    timestamp: new Date(now).toISOString(),
  };
  if (outcome.ok) {
    return {
      ...common,
      status: 'success',
      ...(p.storageUrl ? { storage_location: redactUrl(p.storageUrl) } : {}),
    };
  }
  return {
    ...common,
    status: 'failed',
    error_type: outcome.error_type,
    error_message: outcome.error_message,
    ...(outcome.error_details !== undefined ? { error_details: outcome.error_details } : {}),
  };
}

/** After the report job: the PDF to storage or to the callback, whose step then posts the status. */
export function deliveriesAfterReport(ctx: ReportDeliveryContext): NewJob[] {
  const payload = base(ctx);
  const opts = { maxAttempts: ctx.maxAttempts };
  if (payload.storageUrl) return [deliveryJob({ ...payload, step: 'storage_put' }, opts)];
  if (payload.callback) return [deliveryJob({ ...payload, step: 'callback_put' }, opts)];
  return [];
}

/** After a report that failed to render: only the failure status, when there is a callback. */
export function deliveriesAfterFailure(ctx: ReportDeliveryContext, error: DeliveryError): NewJob[] {
  const payload = base(ctx);
  if (!payload.callback) return [];
  return [
    deliveryJob(
      {
        ...payload,
        step: 'callback_post',
        pdfDelivered: false,
        body: callbackBody(payload, { ok: false, ...error }),
      },
      { maxAttempts: ctx.maxAttempts },
    ),
  ];
}

/** After a PDF step ends: the status POST, when there is a callback. */
export function statusPostAfter(
  p: DeliveryPayload,
  outcome: { ok: true } | ({ ok: false } & DeliveryError),
  maxAttempts: number,
): NewJob[] {
  if (!p.callback) return [];
  return [
    deliveryJob(
      {
        ...p,
        step: 'callback_post',
        priorAttempts: 0,
        pdfDelivered: outcome.ok,
        body: callbackBody(p, outcome),
      },
      { maxAttempts },
    ),
  ];
}
