import { randomUUID } from 'node:crypto';
import { redactUrl } from '../../delivery/http.js';
import { sealUrlSecrets } from '../../delivery/sealed-url.js';
import type { Engine } from '../../engine/engine.js';
import type { JobRecord } from '../../engine/types.js';
import { sealJson } from '../../home-secrets.js';
import type { ParsedReportRequest, ReportAck, ReportRequest } from '../../schemas/report.js';
import { deleteCredential, type ReportFiles, reportDir, requestKey, saveCredential } from './files.js';
import {
  deliverySecretRefs,
  type OutTarget,
  type ReportJobPayload,
  reportKindName,
  withoutToken,
} from './payload.js';

export interface SubmitOptions {
  home: string;
  out?: OutTarget;
  /** Same key, same job: a resubmitted file (watch mode after a restart) is not generated twice. */
  idempotencyKey?: string;
  /** The API key submitting through `assay serve`; only it may read the job there. */
  owner?: string;
}

/**
 * The request as sealed into the job: the external user id and the configuration (kept apart, without its
 * credential) left out. Nothing downstream uses uid_ext (the report never prints who it is about), so the
 * stored health values are not tied to a person even for whoever holds the home's key.
 */
function storableRequest(request: ReportRequest): ReportRequest {
  return {
    ...request,
    uid_ext: '',
    report_metadata: { ...request.report_metadata, configuration: {} },
  } as ReportRequest;
}

/**
 * Enqueue a validated report request as a report.full or report.condensed job (status pending). The callback
 * credential, the pre-signed storage URL and a callback URL with a query string go sealed to the blob store
 * (the home's reports/ folder, or the PostgreSQL database), never into the job store, and are deleted when
 * the job's deliveries end; the health values enter the store sealed.
 */
export async function submitReport(
  engine: Engine,
  parsed: ParsedReportRequest,
  opts: SubmitOptions,
): Promise<{ job: JobRecord; duplicate: boolean }> {
  const files: ReportFiles = { home: opts.home, blobs: engine.blobs };
  const config = parsed.request.report_metadata.configuration;
  const token = config.auth_token;
  const credentialRef = token ? await saveCredential(files, token) : null;
  // A pre-signed URL is a credential in its query string: the store keeps it without, the blob with.
  const storage = config.storage_presigned_url;
  const storageRef = storage ? await saveCredential(files, storage) : null;
  // So may a callback URL be (`?token=...`): when it has more than its address, the same.
  const callback = config.callback_url ? await sealUrlSecrets(files, config.callback_url) : null;
  const callbackUrlRef = callback?.ref ?? null;
  const payload: ReportJobPayload = {
    variant: parsed.variant,
    request: sealJson(storableRequest(parsed.request), await requestKey(opts.home)),
    configuration: {
      ...withoutToken(config),
      ...(storage ? { storage_presigned_url: redactUrl(storage) } : {}),
      ...(callback ? { callback_url: callback.url } : {}),
    },
    reportDir: reportDir(opts.home),
    credentialRef,
    storageRef,
    ...(callbackUrlRef ? { callbackUrlRef } : {}),
    ...(opts.out ? { out: opts.out } : {}),
  };
  const id = randomUUID();
  const job = await engine.enqueue(reportKindName(parsed.variant), payload, {
    id,
    ...(opts.owner ? { owner: opts.owner } : {}),
    ...(opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {}),
  });
  const duplicate = job.id !== id;
  // The existing job keeps its own credential; this one was never used.
  if (duplicate) for (const ref of deliverySecretRefs(payload)) await deleteCredential(files, ref);
  return { job, duplicate };
}

/** Seconds a report usually takes from acceptance to delivery on one box (bench/report.ts: well under 1 s). */
const ESTIMATED_SECONDS = 5;

/** The A2 acknowledgement of an accepted report job. */
export function acknowledgement(job: JobRecord): ReportAck {
  return {
    job_id: job.id,
    status: 'accepted',
    message: `Report job accepted; poll /health-score/report/status/${job.id} or wait for the callback.`,
    estimated_completion_seconds: ESTIMATED_SECONDS,
  };
}
