/**
 * A document under review, wherever its result and revisions live: a lab job (revisions in the blob
 * store) or a result file (revisions in a sidecar). The review routes see only this.
 */

import { basename } from 'node:path';
import type { Engine } from '../engine/engine.js';
import { NotFoundError, UsageError } from '../errors.js';
import { LAB_EXTRACT } from '../lab/job/kind.js';
import { labStatusBody } from '../lab/job/status-body.js';
import { appendFileRevision, readFileRevisions, readResultFile, resultFilePaths } from './file-reviews.js';
import { appendJobRevision, isJobId, readJobRevisions } from './job-reviews.js';
import type { PdfSource } from './page-image.js';
import type { AnyResult, Revision } from './revisions.js';

export interface ReviewDoc {
  /** The URL segment of its page: the job id, or `file-<n>` for a result file. */
  id: string;
  /** What the page calls it (the PDF's or file's name). */
  label: string;
  /** The extracted result, as it was. */
  original(): Promise<AnyResult>;
  revisions(): Promise<Revision[]>;
  append(revision: Revision): Promise<Revision[]>;
  /** Where page images come from; null when no PDF is at hand (a job's upload is deleted when it ends). */
  pdf: PdfSource | null;
  /** Where the reviewed result is written, for a file; null for a job (readers ask for it). */
  reviewedPath: string | null;
  /** Under serve, where no PDF is at hand: keep the one the reviewer gives, in memory only. */
  attachPdf?: (bytes: Uint8Array) => void;
}

/** The completed lab job `jobId`, or a not-found error (exit 3) for anything else. */
export async function completedLabJob(engine: Engine, jobId: string, owner?: string | null) {
  const job = isJobId(jobId) ? await engine.store.get(jobId) : null;
  if (!job || job.kind !== LAB_EXTRACT || (owner !== undefined && job.owner !== owner))
    throw new NotFoundError(`No lab extraction job with id ${jobId}.`, [
      'List lab jobs with `assay jobs list --kind lab.extract`.',
    ]);
  const body = labStatusBody(job);
  if (body.status !== 'completed')
    throw new UsageError(`Job ${jobId} is ${body.status}: there are no results to review.`, [
      `See why with \`assay lab status ${jobId}\`.`,
    ]);
  return { job, body };
}

export async function jobReviewDoc(
  engine: Engine,
  jobId: string,
  opts: { label?: string; pdf?: PdfSource | null; owner?: string | null } = {},
): Promise<ReviewDoc> {
  const { job } = await completedLabJob(engine, jobId, opts.owner);
  const filename = (job.payload as { filename?: string }).filename;
  return {
    id: job.id,
    label: opts.label ?? filename ?? job.id,
    // Read again on every load: another process may have re-run or pruned the job meanwhile.
    original: async () => (await completedLabJob(engine, jobId)).body as unknown as AnyResult,
    revisions: () => readJobRevisions(engine.blobs, job.id),
    append: (revision) => appendJobRevision(engine.blobs, job.id, revision),
    pdf: opts.pdf ?? null,
    reviewedPath: null,
  };
}

export function fileReviewDoc(path: string, n: number, pdf: PdfSource | null): ReviewDoc {
  const paths = resultFilePaths(path);
  const original = readResultFile(path);
  return {
    id: `file-${n}`,
    label: basename(path),
    original: async () => original,
    revisions: () => readFileRevisions(paths),
    append: (revision) => appendFileRevision(paths, original, revision),
    pdf,
    reviewedPath: paths.reviewed,
  };
}
