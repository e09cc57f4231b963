import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blobKeys } from '../../blobs/store.js';
import type { Engine } from '../../engine/engine.js';
import { type JobRecord, TERMINAL_STATES } from '../../engine/types.js';
import { ConflictError } from '../../errors.js';
import { keysDir } from '../../home-secrets.js';
import { LAB_EXTRACT, type LabExtractPayload, uploadKey } from '../job/kind.js';
import { forgetTarget, labWebhookJob, storableTarget, type WebhookTarget } from './webhook.js';
import { eventForFailure } from './webhook-events.js';

/** SPEC.md Limits: the file must arrive within 5 minutes. */
export const UPLOAD_URL_TTL_MS = 5 * 60_000;

/**
 * The key that signs upload URLs, made on first use; any process sharing the keys folder (the home's, or
 * ASSAY_KEYS_DIR on every node) can verify, so any node may take the PUT of a URL another node issued.
 */
export async function signingKey(home: string): Promise<Buffer> {
  const dir = keysDir(home);
  const file = join(dir, 'upload-url.key');
  try {
    return await readFile(file);
  } catch {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(file, randomBytes(32), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return readFile(file);
  }
}

const sign = (key: Buffer, jobId: string, expires: number) =>
  createHmac('sha256', key).update(`${jobId}.${expires}`).digest('base64url');

/**
 * A held lab job (status pending_upload) and the signed URL its PDF is PUT to. The job becomes claimable
 * only once the file is stored, so no worker ever sees a job without its file.
 */
export async function createPendingUpload(
  engine: Engine,
  home: string,
  opts: {
    baseUrl: string;
    filename?: string;
    rejectIfPHI?: boolean;
    /** The webhookUrl as given: sealed here when it carries more than its address (storableTarget). */
    webhook?: Omit<WebhookTarget, 'urlRef'>;
    owner?: string;
    now?: number;
  },
): Promise<{ job: JobRecord; uploadUrl: string; expiresAt: number }> {
  const id = randomUUID();
  const files = { home, blobs: engine.blobs };
  const webhook = opts.webhook ? await storableTarget(files, opts.webhook) : undefined;
  const payload: LabExtractPayload = {
    file: blobKeys.upload(id),
    filename: opts.filename ?? `${id}.pdf`,
    rejectIfPHI: opts.rejectIfPHI ?? false,
    anyLab: false,
    ...(webhook ? { webhook } : {}),
  };
  const job = await engine
    .enqueue(LAB_EXTRACT, payload, {
      id,
      held: true,
      heldStatus: 'pending_upload',
      ...(opts.owner ? { owner: opts.owner } : {}),
    })
    .catch(async (error: unknown) => {
      await forgetTarget(files, webhook).catch(() => {});
      throw error;
    });
  const expiresAt = (opts.now ?? Date.now()) + UPLOAD_URL_TTL_MS;
  const signature = sign(await signingKey(home), id, expiresAt);
  return {
    job,
    uploadUrl: `${opts.baseUrl}/extraction/lab/upload/${id}?expires=${expiresAt}&signature=${signature}`,
    expiresAt,
  };
}

export type UploadUrlCheck = 'ok' | 'expired' | 'bad_signature';

export async function checkUploadUrl(
  home: string,
  jobId: string,
  expires: string | undefined,
  signature: string | undefined,
  now = Date.now(),
): Promise<UploadUrlCheck> {
  const expiresAt = Number(expires);
  if (!Number.isInteger(expiresAt) || !signature) return 'bad_signature';
  const expected = Buffer.from(sign(await signingKey(home), jobId, expiresAt));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'bad_signature';
  return now > expiresAt ? 'expired' : 'ok';
}

/**
 * Store the arrived PDF where the held job expects it (any node's blob store), then let workers take it.
 * PUTs racing on one URL (a client retrying a PUT that timed out) each write a private copy, and only the
 * one that moves it into the free key releases the job; the others answer 409 and never touch the key, so
 * no losing PUT can delete the file the winning one stored.
 */
export async function completePendingUpload(
  engine: Engine,
  job: JobRecord,
  pdf: Uint8Array,
): Promise<JobRecord> {
  const key = uploadKey(job.payload as LabExtractPayload);
  if (!(await engine.blobs.putNew(key, pdf))) throw new ConflictError(`Job ${job.id} already has its file.`);
  try {
    return await engine.store.releaseHeld(job.id);
  } catch (error) {
    // The file is this PUT's: it goes unless the job was released after all (a commit whose answer was
    // lost), so a later PUT of the same URL can try again and no copy stays behind a job that never runs.
    const now = await engine.store.get(job.id).catch(() => null);
    if (!now || now.state === 'held' || TERMINAL_STATES.includes(now.state))
      await engine.blobs.delete(key).catch(() => {});
    throw error;
  }
}

/** A little past the URL's own expiry, so a PUT that started in time is not cut off mid-body. */
const EXPIRY_GRACE_MS = 60_000;

/**
 * Fail the lab jobs still waiting for a file their URL no longer accepts (SPEC.md: the file must be PUT
 * within 5 minutes), sending job.failed where the upload named a webhook. Returns how many ended.
 */
export async function expireStaleUploads(engine: Engine, now = Date.now()): Promise<number> {
  const held = await engine.store.list({ kind: LAB_EXTRACT, state: 'held', limit: 1000 });
  let expired = 0;
  for (const job of held) {
    if (job.createdAt + UPLOAD_URL_TTL_MS + EXPIRY_GRACE_MS > now) continue;
    const error = {
      type: 'upload_expired',
      message: 'No file was uploaded to the pre-signed URL within 5 minutes.',
    };
    const target = (job.payload as LabExtractPayload).webhook;
    const followUps = target
      ? [labWebhookJob(target, 'job.failed', job.id, eventForFailure(error).data)]
      : [];
    if (await engine.store.failHeld(job.id, error, followUps)) expired += 1;
  }
  return expired;
}
