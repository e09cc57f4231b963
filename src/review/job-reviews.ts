/**
 * The revisions of a lab job's result, kept as one blob per job (`review/<jobId>.json`) in the engine's
 * BlobStore: the home's files on one box, PostgreSQL bytea for every node of a shared store. No table of
 * its own: the job row keeps the extracted result untouched, the blob the list of changes to it.
 */
import type { BlobStore } from '../blobs/store.js';
import type { Engine } from '../engine/engine.js';
import type { AnyResult, Revision } from './revisions.js';

interface StoredReview {
  version: 1;
  jobId: string;
  revisions: Revision[];
}

// Job ids are v4 UUIDs drawn by the store; anything else cannot name a job, and must not name a blob.
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isJobId = (id: string): boolean => JOB_ID.test(id);

export const reviewKey = (jobId: string): string => {
  if (!isJobId(jobId)) throw new Error('assay: not a job id');
  return `review/${jobId}.json`;
};

/** The job's revisions, oldest first; none when it was never reviewed. */
export async function readJobRevisions(blobs: BlobStore, jobId: string): Promise<Revision[]> {
  if (!isJobId(jobId)) return [];
  const bytes = await blobs.get(reviewKey(jobId));
  if (!bytes) return [];
  return (JSON.parse(bytes.toString('utf8')) as StoredReview).revisions ?? [];
}

// Appends are read-modify-write of one blob: this process runs them one at a time per job, so two quick
// keypresses never drop each other. Two processes reviewing one job at the same instant can still race;
// the page is one person's, so that is accepted rather than paid for with a lock.
const queues = new Map<string, Promise<unknown>>();

/** Add one revision to the job's list; returns the whole list. */
export function appendJobRevision(blobs: BlobStore, jobId: string, revision: Revision): Promise<Revision[]> {
  const key = reviewKey(jobId);
  const run = async () => {
    const revisions = [...(await readJobRevisions(blobs, jobId)), revision];
    const stored: StoredReview = { version: 1, jobId, revisions };
    await blobs.put(key, Buffer.from(`${JSON.stringify(stored, null, 2)}\n`));
    return revisions;
  };
  const next = (queues.get(key) ?? Promise.resolve()).then(run, run);
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

/**
 * What every reader of a lab job's result must show: the result with its revisions applied. Call it on
 * the status body of a lab job (`labStatusBody(job)`); a body that is not a completed result (queued,
 * rejected, failed) comes back as it is, without a read. Used by `lab status`, the results and status
 * routes, `--format fhir|csv` and `report from-labs`.
 */
export async function reviewedResult<T>(blobs: BlobStore, jobId: string, result: T): Promise<T> {
  const body = result as { status?: unknown; panels?: unknown; validationFlags?: unknown };
  if (!Array.isArray(body?.panels) || (body.status !== undefined && body.status !== 'completed'))
    return result;
  const revisions = await readJobRevisions(blobs, jobId);
  if (revisions.length === 0) return result;
  // Applying revisions re-matches edited names and units (LOINC, UCUM): loaded only when a review exists,
  // so `lab status` and the status routes of unreviewed jobs pay nothing for it.
  const { applyRevisions } = await import('./revisions.js');
  const core = { validationFlags: [], ...(result as object) } as unknown as AnyResult;
  return applyRevisions(core, revisions) as T;
}

/** Forget a job's review (with the job itself, when it is pruned or deleted). */
export async function deleteJobReview(blobs: BlobStore, jobId: string): Promise<void> {
  if (isJobId(jobId)) await blobs.delete(reviewKey(jobId));
}

/**
 * For `assay jobs prune`, after the jobs: delete the reviews of jobs no longer in the store. A review
 * belongs to its job and lives exactly as long; returns how many went (or would, with dryRun).
 */
export async function pruneReviews(engine: Engine, opts: { dryRun?: boolean } = {}): Promise<number> {
  let deleted = 0;
  for (const blob of await engine.blobs.list('review/')) {
    const id = /^review\/([^/]+)\.json$/.exec(blob.key)?.[1];
    if (!id || (await engine.store.get(id))) continue;
    if (!opts.dryRun) await engine.blobs.delete(blob.key);
    deleted += 1;
  }
  return deleted;
}
