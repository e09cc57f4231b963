/**
 * The body of a lab job's status, shared by `assay lab status`, `assay lab extract --out` and the HTTP
 * status endpoint: SPEC.md B3 ExtractionResults when completed, otherwise the job id and status plus the
 * rejection reason or error that explains a terminal status.
 */
import type { JobRecord } from '../../engine/types.js';
import type { ExtractionCore, RejectionReason } from '../types.js';

export type ExtractionResults = { jobId: string; status: 'completed' } & ExtractionCore;

export interface LabStatus {
  jobId: string;
  status: string;
  rejection_reason?: RejectionReason;
  detected_lab?: string | null;
  /** Ours: why, in one sentence without PHI (verdict.ts). */
  rejection_detail?: string;
  /** Ours, with `explain`: the evidence the verdict rests on. */
  rejection_evidence?: string[];
  error?: { code: string; message: string; kinds?: string[] };
}

export type LabStatusBody = ExtractionResults | LabStatus;

interface StoredRejection {
  rejection_reason?: RejectionReason;
  detected_lab?: string | null;
  rejection_detail?: string;
  rejection_evidence?: string[];
  error?: { message?: string; kinds?: string[] };
}

export function labStatusBody(job: JobRecord, opts: { explain?: boolean } = {}): LabStatusBody {
  if (job.state === 'done' && job.status === 'completed')
    return { jobId: job.id, status: 'completed', ...(job.result as ExtractionCore) };
  const body: LabStatus = { jobId: job.id, status: job.status };
  const stored = (job.result ?? {}) as StoredRejection;
  if (stored.rejection_reason) body.rejection_reason = stored.rejection_reason;
  if (stored.detected_lab !== undefined) body.detected_lab = stored.detected_lab;
  if (stored.rejection_detail) body.rejection_detail = stored.rejection_detail;
  if (opts.explain && stored.rejection_evidence) body.rejection_evidence = stored.rejection_evidence;
  if (job.status === 'rejected_phi' && stored.error)
    body.error = {
      code: 'phi_detected',
      message: stored.error.message ?? '',
      kinds: stored.error.kinds ?? [],
    };
  if (job.state === 'failed' || job.state === 'cancelled')
    body.error = {
      code: job.errorType ?? (job.state === 'cancelled' ? 'cancelled' : 'failed'),
      message: job.errorMessage ?? (job.state === 'cancelled' ? 'The job was cancelled.' : 'The job failed.'),
    };
  return body;
}

/** Whether the job's status is final (SPEC.md lab states). */
export function isFinalLabStatus(body: LabStatusBody): boolean {
  return ['completed', 'failed', 'quarantined', 'rejected_phi', 'invalid_document', 'cancelled'].includes(
    body.status,
  );
}
