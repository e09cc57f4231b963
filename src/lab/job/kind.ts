/**
 * The `lab.extract` job kind: submitting a PDF (a private copy in the blob store, a job in the store)
 * and the handler that runs the pipeline in the thread pool and maps its outcome onto SPEC.md statuses.
 *
 * The requester's date of birth never reaches the database, a log or a file: the submitter seals it with
 * scrypt under a per-job random salt and a key kept in the keys folder (see pipeline.ts), and the
 * handler, in whatever process claims the job, compares dates printed in the document against the seal.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { basename, isAbsolute } from 'node:path';
import { FileBlobStore } from '../../blobs/file.js';
import { type BlobStore, blobKeys } from '../../blobs/store.js';
import type { Engine } from '../../engine/engine.js';
import { type JobContext, type JobKind, PermanentJobError } from '../../engine/registry.js';
import type { JobOutcome, JobRecord } from '../../engine/types.js';
import { AssayError, StoreError, UsageError } from '../../errors.js';
import { homeKey } from '../../home-secrets.js';
import {
  forgetTarget,
  labWebhookJob,
  storableTarget,
  targetBlobs,
  type WebhookTarget,
} from '../http/webhook.js';
import { eventForFailure, eventForOutcome } from '../http/webhook-events.js';
import type { PipelineOutcome, PipelineStage } from '../pipeline/pipeline.js';
import { type DobSeal, dobDigest } from '../pipeline/screen/dob-seal.js';
import { reportPages } from './progress.js';
import { sharedThreadPool, THREAD_CRASHED, ThreadTaskError } from './thread-pool.js';

export const LAB_EXTRACT = 'lab.extract';

/**
 * A last resort against a job that hangs. Scans are bounded by their own budget of processor time per
 * page (ocr-page.ts), which does not depend on how busy the machine is; a wall-clock limit near a long
 * scan's running time would end the same document differently alone and in a batch.
 */
export const LAB_TIMEOUT_MS = 20 * 60_000;

export interface LabExtractPayload {
  /**
   * The kept copy's blob key, `uploads/<jobId>.pdf`, deleted once the job ends. Jobs stored by earlier
   * versions hold the absolute path `<home>/uploads/<jobId>.pdf` (see uploadKey).
   */
  file: string;
  /** The name the user gave the file, for display only. */
  filename: string;
  rejectIfPHI: boolean;
  anyLab: boolean;
  dob?: DobSeal;
  /**
   * Where to send the SPEC.md B4 event when the job ends (uploads through `assay serve`); a URL with a query
   * string is kept sealed outside the job store (storableTarget).
   */
  webhook?: WebhookTarget;
}

export interface LabSubmission {
  pdf: Uint8Array;
  filename: string;
  /** YYYY-MM-DD, compared with the document and then forgotten. */
  dateOfBirth?: string;
  rejectIfPHI?: boolean;
  anyLab?: boolean;
  /** The webhookUrl as given: sealed on submission when it carries more than its address. */
  webhook?: Omit<WebhookTarget, 'urlRef'>;
  /**
   * The same bytes and options give back the existing job (a re-run batch, a watcher after a restart).
   * The HTTP API turns this off: every upload is a new job unless the caller sends an Idempotency-Key.
   */
  dedupe?: boolean | { key: string };
  /** The API key submitting through `assay serve`; only it may read the job there. */
  owner?: string;
}

export const REJECTED_PHI_MESSAGE =
  'Personal health information was found and rejectIfPHI was set: the document was rejected and its files deleted.';

// --- Submitting ------------------------------------------------------------------------------------------------

/**
 * Store a private copy of the PDF and enqueue its job. The same bytes with the same options give the same
 * idempotency key, so a repeated submission (a re-run batch, a watcher after a restart) returns the job
 * that already exists instead of making a second one.
 */
export async function submitLabFile(
  engine: Engine,
  home: string,
  submission: LabSubmission,
): Promise<JobRecord> {
  const dob = submission.dateOfBirth === undefined ? undefined : checkDob(submission.dateOfBirth);
  const key = dob ? await dobKey(home) : undefined;
  const id = randomUUID();
  const file = blobKeys.upload(id);
  const files = { home, blobs: engine.blobs };
  // A token in the webhook URL's query is sealed like a callback_url's: the store keeps its address only.
  const webhook = submission.webhook ? await storableTarget(files, submission.webhook) : undefined;
  const payload: LabExtractPayload = {
    file,
    filename: submission.filename,
    rejectIfPHI: submission.rejectIfPHI ?? false,
    anyLab: submission.anyLab ?? false,
    ...(dob && key ? { dob: await sealDob(dob, key) } : {}),
    ...(webhook ? { webhook } : {}),
  };
  // The copy is written before the job exists, so a worker in another process never claims a job whose
  // file is not there yet.
  const dedupe = submission.dedupe ?? true;
  let job: JobRecord;
  try {
    // A copy whose job was never stored (disk full, store locked) would stay in uploads/ with its PHI.
    job = await keepUnlessFails(engine.blobs, file, submission.pdf, () =>
      engine.enqueue(LAB_EXTRACT, payload, {
        id,
        ...(submission.owner ? { owner: submission.owner } : {}),
        ...(dedupe === false
          ? {}
          : {
              idempotencyKey:
                dedupe === true
                  ? idempotencyKey(submission, dob && key ? dobTag(dob, key) : '')
                  : `caller:${dedupe.key}`,
            }),
      }),
    );
  } catch (error) {
    await forgetTarget(files, webhook).catch(() => {});
    throw error;
  }
  if (job.id !== id) {
    // The existing job keeps its own copy and webhook URL; this one's were never used.
    await engine.blobs.delete(file);
    await forgetTarget(files, webhook);
  }
  return job;
}

/** Write the uploaded copy, then run `next`; when either fails, no part of the copy is left behind. */
export async function keepUnlessFails<T>(
  blobs: BlobStore,
  key: string,
  pdf: Uint8Array,
  next: () => Promise<T>,
): Promise<T> {
  try {
    await blobs.put(key, pdf);
    return await next();
  } catch (error) {
    await blobs.delete(key).catch(() => {});
    throw error;
  }
}

/** The blob key of a job's upload; a payload from before blob stores names the file under <home>/uploads. */
export function uploadKey(p: LabExtractPayload): string {
  return isAbsolute(p.file) ? blobKeys.upload(basename(p.file, '.pdf')) : p.file;
}

export function checkDob(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== value)
    throw new UsageError('The date of birth must be a calendar date written YYYY-MM-DD.', [
      '--dob 1980-04-12',
    ]);
  return value;
}

function idempotencyKey(submission: LabSubmission, dobTagValue: string): string {
  const content = createHash('sha256').update(submission.pdf).digest('hex');
  return createHash('sha256')
    .update([content, submission.rejectIfPHI ? 1 : 0, submission.anyLab ? 1 : 0, dobTagValue].join('|'))
    .digest('hex');
}

/** A stable, keyed tag of the DOB for the idempotency key only: the same request gets the same key. */
function dobTag(dob: string, key: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64')).update(dob).digest('base64');
}

async function sealDob(dob: string, key: string): Promise<DobSeal> {
  const salt = randomBytes(16).toString('base64');
  return { salt, digest: await dobDigest(dob, key, salt) };
}

/** The DOB key (keys folder of the home or ASSAY_KEYS_DIR), made on first use. */
export function dobKey(home: string): Promise<string> {
  return homeKey(home, 'dob');
}

// --- Running ---------------------------------------------------------------------------------------------------

export interface LabKindOptions {
  /** The worker's home: its keys folder (unless ASSAY_KEYS_DIR names a shared one) holds the DOB key. */
  home: string;
  /** Where uploads are kept (default: the home's files). */
  blobs?: BlobStore;
}

/** blobKeys.upload's pattern: the copy belongs to the job named in it, and goes once that job has ended. */
const UPLOAD_KEY = /^uploads\/([^/]+)\.pdf$/;

export function labExtractKind(opts: LabKindOptions): JobKind {
  const blobs = opts.blobs ?? new FileBlobStore(opts.home);
  return {
    kind: LAB_EXTRACT,
    waitingStatus: 'queued',
    runningStatus: 'processing_language',
    timeoutMs: LAB_TIMEOUT_MS,
    // One retry, for a crashed thread or a worker that died; a bad document fails permanently at once.
    maxAttempts: 2,
    backoff: { baseMs: 500, maxMs: 5_000 },
    // The upload goes with the job; a sealed webhook URL is read by the webhook that follows it, so it is
    // named here only to keep `assay jobs prune` from deleting it while the job may still run.
    blobs: {
      prefix: 'uploads/',
      owner: (key) => UPLOAD_KEY.exec(key)?.[1],
      live: (job) => targetBlobs((job.payload as LabExtractPayload).webhook),
    },
    handler: (payload, ctx) => runLabJob(payload as LabExtractPayload, ctx, blobs, opts.home),
    // The copy is deleted once the job's end is committed, never by the handler itself: a handler that
    // deleted it and then lost its lease (or died before the commit) left the next attempt upload_missing.
    afterEnd: (job) => blobs.delete(uploadKey(job.payload as LabExtractPayload)),
    // Nothing is deleted here: this runs before the failure is written, and a write that meets a locked
    // store leaves the job to run again. A job the store's sweep ends gets afterEnd once that commits.
    onFinalFailure(job, error) {
      const p = job.payload as LabExtractPayload;
      if (!p.webhook) return [];
      const { event, data } = eventForFailure(error);
      return [labWebhookJob(p.webhook, event, job.id, data)];
    },
  };
}

async function runLabJob(
  p: LabExtractPayload,
  ctx: JobContext,
  blobs: BlobStore,
  home: string,
): Promise<JobOutcome> {
  try {
    const pdf = await readUpload(blobs, uploadKey(p));
    const request = {
      rejectIfPHI: p.rejectIfPHI,
      anyLab: p.anyLab,
      ...(p.dob ? { dob: p.dob, dobKey: await dobKey(home) } : {}),
    };
    const stages = stageReporter(ctx);
    const outcome = await sharedThreadPool().run(pdf, request, {
      signal: ctx.signal,
      onStage: stages.report,
      onPages: (done, total) => reportPages({ jobId: ctx.job.id, done, total }),
    });
    await stages.settled();
    return withWebhook(ctx.job.id, p.webhook, toJobOutcome(outcome));
  } catch (error) {
    throw asPermanent(error) ?? error;
  }
}

async function readUpload(blobs: BlobStore, key: string): Promise<Uint8Array> {
  // A store that does not answer (PostgreSQL down) throws on: the attempt is retried, the job not ended.
  const bytes = await blobs.get(key);
  if (!bytes)
    throw new PermanentJobError(
      'upload_missing',
      'The stored copy of the uploaded PDF is missing; submit the file again.',
    );
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Status changes arrive as thread messages while the pipeline runs; they are written in order, and the
 * handler waits for the last one before it returns so a finished job never shows a stale stage.
 */
function stageReporter(ctx: JobContext) {
  let chain: Promise<void> = Promise.resolve();
  // Kept, not thrown, until the handler asks: a rejection nobody awaits yet would crash the process.
  let failure: unknown;
  return {
    report(stage: PipelineStage) {
      if (stage === 'processing_language') return; // the engine set it when the job was claimed
      chain = chain
        .then(() => (failure === undefined ? ctx.setStatus(stage) : undefined))
        .catch((error: unknown) => {
          // A stage is progress only: a store locked past its patience skips it, and the job runs on to
          // its end, whose write the worker retries. A lost lease aborts the handler on its own.
          if (error instanceof StoreError) return;
          failure ??= error;
        });
    },
    async settled() {
      await chain;
      if (failure !== undefined) throw failure;
    },
  };
}

/**
 * Document errors (invalid_pdf, no_text_layer) and pipeline bugs end the job: retrying cannot help. A store
 * that did not answer (locked by another process, PostgreSQL down) says nothing of the document: retried.
 */
function asPermanent(error: unknown): PermanentJobError | null {
  if (error instanceof PermanentJobError) return error;
  if (error instanceof StoreError) return null;
  if (error instanceof AssayError) return new PermanentJobError(error.code, error.message);
  // A thread that died (out of memory, say) gets the job's one retry; anything it reported is final.
  if (error instanceof ThreadTaskError && error.code !== THREAD_CRASHED)
    return new PermanentJobError(error.code, error.message);
  return null;
}

/** The B4 event of this ending, queued with the completion itself (outbox) when the upload named a webhook. */
function withWebhook(jobId: string, target: WebhookTarget | undefined, outcome: JobOutcome): JobOutcome {
  if (!target) return outcome;
  const { event, data } = eventForOutcome(jobId, outcome);
  return { ...outcome, followUps: [labWebhookJob(target, event, jobId, data)] };
}

function toJobOutcome(outcome: PipelineOutcome): JobOutcome {
  switch (outcome.status) {
    case 'completed':
      return { status: 'completed', result: outcome.result };
    case 'quarantined':
      return {
        status: 'quarantined',
        result: {
          rejection_reason: outcome.rejection_reason,
          rejection_detail: outcome.rejection_detail,
          rejection_evidence: outcome.rejection_evidence,
        },
      };
    case 'rejected_phi':
      return {
        status: 'rejected_phi',
        result: { error: { message: REJECTED_PHI_MESSAGE, kinds: outcome.kinds } },
      };
    case 'invalid_document': {
      const { status, ...rest } = outcome;
      return { status, result: rest };
    }
  }
}
