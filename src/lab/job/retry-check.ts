import type { Engine } from '../../engine/engine.js';
import { type JobRecord, TERMINAL_STATES } from '../../engine/types.js';
import { AssayError, EXIT } from '../../errors.js';
import { LAB_EXTRACT, type LabExtractPayload, uploadKey } from './kind.js';

/**
 * `jobs retry` of a lab job whose kept PDF is gone (deleted when the job ended, as every ended job's copy
 * is): run again, it could only fail `upload_missing` and replace the error that says what went wrong.
 * Refused instead, with the reason, and the job left as it is.
 */
export async function refuseRetryWithoutUpload(engine: Engine, job: JobRecord): Promise<void> {
  if (job.kind !== LAB_EXTRACT || !TERMINAL_STATES.includes(job.state)) return;
  const payload = job.payload as LabExtractPayload;
  if (await engine.blobs.get(uploadKey(payload))) return;
  const ended = job.errorType ? `${job.status} (${job.errorType})` : job.status;
  throw new AssayError(
    'upload_missing',
    `Job ${job.id} cannot run again: the copy of its PDF was deleted when it ended ${ended}; the job is left as it was.`,
    {
      exitCode: EXIT.usage,
      suggestions: [`Submit the file again: assay lab extract ${payload.filename ?? '<file.pdf>'}`],
    },
  );
}
