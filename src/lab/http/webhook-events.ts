import type { JobError, JobOutcome } from '../../engine/types.js';
import type { LabEvent } from './webhook.js';

/**
 * The event and `data` of SPEC.md B4 for a lab job's ending. job.completed carries the full
 * ExtractionResults; every other event an `error` object. Our definitions where SPEC.md leaves the shape
 * open: job.quarantined -> error {code, message, rejection_reason}; job.rejected_phi -> error {code,
 * message, kinds} (the kinds of PHI found, never the values).
 */
export function eventForOutcome(jobId: string, outcome: JobOutcome): { event: LabEvent; data: unknown } {
  const result = (outcome.result ?? {}) as Record<string, unknown>;
  switch (outcome.status) {
    case 'quarantined':
      return {
        event: 'job.quarantined',
        data: {
          error: {
            code: 'non_english_document',
            message: 'The document is not predominantly English; it was quarantined.',
            rejection_reason: result.rejection_reason ?? 'non_english_document',
            ...(result.rejection_detail ? { rejection_detail: result.rejection_detail } : {}),
          },
        },
      };
    case 'rejected_phi': {
      const error = (result.error ?? {}) as Record<string, unknown>;
      return { event: 'job.rejected_phi', data: { error: { code: 'phi_detected', ...error } } };
    }
    case 'invalid_document':
      return {
        event: 'job.invalid_document',
        data: {
          error: {
            code: 'invalid_document',
            message: 'The document is not a supported single-visit US lab report.',
            rejection_reason: result.rejection_reason,
            ...('detected_lab' in result ? { detected_lab: result.detected_lab } : {}),
            ...(result.rejection_detail ? { rejection_detail: result.rejection_detail } : {}),
          },
        },
      };
    default:
      return { event: 'job.completed', data: { jobId, status: 'completed', ...result } };
  }
}

export function eventForFailure(error: JobError): { event: LabEvent; data: unknown } {
  return { event: 'job.failed', data: { error: { code: error.type, message: error.message } } };
}
