import type { JobStore } from '../../engine/store.js';
import { type JobRecord, TERMINAL_STATES } from '../../engine/types.js';
import { NotFoundError } from '../../errors.js';
import type { ReportStatus, ReportStatusRecord } from '../../schemas/report.js';
import type { DeliveryPayload, DeliveryResult } from '../delivery/payload.js';
import { isReportKind } from './payload.js';

const iso = (ms: number) => new Date(ms).toISOString();
const terminal = (job: JobRecord) => TERMINAL_STATES.includes(job.state);

/** Every job a report job led to (deliveries, their status posts, rescheduled attempts). */
export async function deliveryJobs(store: JobStore, reportJobId: string): Promise<JobRecord[]> {
  const found: JobRecord[] = [];
  let parents = [reportJobId];
  while (parents.length > 0) {
    const children = (
      await Promise.all(parents.map((id) => store.list({ parentId: id, limit: 1000 })))
    ).flat();
    found.push(...children);
    parents = children.map((c) => c.id);
  }
  return found;
}

function errorOf(job: JobRecord): { type: string; message: string } {
  const r = (job.result ?? {}) as Partial<DeliveryResult> & { error_type?: string; error_message?: string };
  return {
    type: job.errorType ?? r.error_type ?? (job.state === 'cancelled' ? 'Cancelled' : 'ReportFailed'),
    message: job.errorMessage ?? r.error_message ?? `The job ended ${job.status}.`,
  };
}

const isPdfStep = (job: JobRecord) => (job.payload as DeliveryPayload | null)?.step !== 'callback_post';
const endedFailed = (job: JobRecord) =>
  job.state === 'failed' || job.state === 'cancelled' || job.status === 'failed';

function record(
  job: JobRecord,
  status: ReportStatus,
  updatedAt: number,
  error?: { type: string; message: string },
) {
  return {
    job_id: job.id,
    status,
    created_at: iso(job.createdAt),
    updated_at: iso(updatedAt),
    error_type: error?.type ?? null,
    error_message: error?.message ?? null,
  } satisfies ReportStatusRecord;
}

/** A report job's A3 record with what it was read from: the job, and its deliveries where they were read. */
interface ReportRead {
  record: ReportStatusRecord;
  job: JobRecord;
  deliveries: JobRecord[] | null;
}

/**
 * SPEC.md A3 for a report job. The report job finishes when its PDF exists; the SPEC's completed means
 * generated and uploaded, so the status also reads the delivery jobs: processing while one is under way,
 * failed when the PDF could not be delivered. A failed status POST alone leaves the report completed: the
 * receiver polls this record precisely when its callback did not arrive. With `owner` (the server's
 * caller), a job of any other owner is not found. Null when not found.
 */
export async function reportStatus(
  store: JobStore,
  jobId: string,
  opts: { owner?: string | null } = {},
): Promise<ReportStatusRecord | null> {
  return (await readReport(store, jobId, opts))?.record ?? null;
}

async function readReport(
  store: JobStore,
  jobId: string,
  opts: { owner?: string | null } = {},
): Promise<ReportRead | null> {
  const job = await store.get(jobId);
  // Another key's job is answered exactly as a job that does not exist: its id tells nothing.
  const hidden = opts.owner !== undefined && job?.owner !== opts.owner;
  if (!job || !isReportKind(job.kind) || hidden) return null;
  const read = (record: ReportStatusRecord, deliveries: JobRecord[] | null = null) => ({
    record,
    job,
    deliveries,
  });
  if (job.state === 'held' || job.state === 'ready') return read(record(job, 'pending', job.updatedAt));
  if (job.state === 'running') return read(record(job, 'processing', job.updatedAt));
  if (endedFailed(job)) return read(record(job, 'failed', job.updatedAt, errorOf(job)));

  const deliveries = await deliveryJobs(store, job.id);
  const updatedAt = Math.max(job.updatedAt, ...deliveries.map((d) => d.updatedAt));
  if (deliveries.some((d) => !terminal(d))) return read(record(job, 'processing', updatedAt), deliveries);
  const pdfSteps = deliveries.filter((d) => isPdfStep(d) && d.status !== 'rescheduled');
  const failedPdf = pdfSteps.find(endedFailed);
  if (failedPdf) return read(record(job, 'failed', updatedAt, errorOf(failedPdf)), deliveries);
  return read(record(job, 'completed', updatedAt), deliveries);
}

function notFound(jobId: string): NotFoundError {
  return new NotFoundError(`No report job with id ${jobId}.`, [
    'List report jobs with `assay jobs list --kind report.full`.',
  ]);
}

/** `reportStatus` for the CLI, where an unknown id is an error. */
export async function requireReportStatus(store: JobStore, jobId: string): Promise<ReportStatusRecord> {
  const status = await reportStatus(store, jobId);
  if (status) return status;
  throw notFound(jobId);
}

/**
 * Resolve once the report job and all its deliveries have ended, then give its A3 record. The end is judged
 * on the read that gave the record: reading the job and its deliveries again cost a batch's last pass (the
 * main thread alone, the render threads done) two more queries per report.
 */
export async function waitForReport(
  store: JobStore,
  jobId: string,
  opts: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<ReportStatusRecord> {
  for (;;) {
    opts.signal?.throwIfAborted();
    const read = await readReport(store, jobId);
    if (!read) throw notFound(jobId);
    const { record: status, job } = read;
    if (status.status === 'completed' || status.status === 'failed') {
      const pending = terminal(job)
        ? (read.deliveries ?? (await deliveryJobs(store, jobId))).some((d) => !terminal(d))
        : true;
      if (!pending) return status;
    }
    await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 50));
  }
}
