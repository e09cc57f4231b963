import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  checkUploadUrl,
  completePendingUpload,
  createPendingUpload,
  expireStaleUploads,
} from '../../lab/http/presigned-upload.js';
import { storedUploadName } from '../../lab/http/upload-name.js';
import type { WebhookTarget } from '../../lab/http/webhook.js';
import { submitLabFile } from '../../lab/job/kind.js';
import { type ExtractionResults, labStatusBody } from '../../lab/job/status-body.js';
import { limitsFromEnv } from '../../limits/rules.js';
import { reviewedResult } from '../../review/job-reviews.js';
import { formatPath } from '../../schemas/errors.js';
import {
  type LabUploadRequest,
  labErrorSchema,
  labUploadQueuedSchema,
  labUploadRequestSchema,
  labUploadUrlSchema,
} from '../../schemas/lab.js';
import type { Area, AreaDeps } from '../area.js';
import { HttpError, notFound } from '../error-bodies.js';
import { checkTargetUrl } from '../target-policy.js';
import { UnknownJobs } from '../unknown-jobs.js';
import { answerIn, CSV, FHIR_JSON } from './lab-formats.js';

const MAX_PDF_BYTES = 10 * 1024 * 1024;
const MAX_PRESIGNED_BYTES = 50 * 1024 * 1024;
/** Base64 of 10 MB plus room for the other members: Fastify stops reading past this, so 413 costs no more. */
const UPLOAD_BODY_LIMIT = Math.ceil((MAX_PDF_BYTES * 4) / 3) + 64 * 1024;

const err = (status: number, description: string) => ({ [status]: { description, schema: labErrorSchema } });
const statusBody = z.object({ jobId: z.string(), status: z.string() }).loose();

/** Bodies the upload takes as the PDF's bytes, beside JSON (the pre-signed PUT takes the same). */
const RAW_PDF_TYPES = ['application/pdf', 'application/octet-stream'];
const UPLOAD_TYPES = new Set(['application/json', ...RAW_PDF_TYPES]);
const WRONG_TYPE =
  'Send the PDF bytes with Content-Type: application/pdf, or a JSON object with a base64 pdfFile ' +
  '(Content-Type: application/json).';

/** A raw PDF upload's query: the JSON body's members but pdfFile, validated by the same schema. */
const rawUploadQuerySchema = labUploadRequestSchema.omit({ pdfFile: true });
/** The same query as it is written in a URL, for the API description. */
const rawUploadQueryDoc = z.object({
  filename: z.string().max(255).optional(),
  dateOfBirth: z.iso.date().optional(),
  webhookUrl: z.url().max(2048).optional(),
  rejectIfPHI: z.enum(['true', 'false']).optional(),
});

const mediaType = (req: FastifyRequest) =>
  (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A short account of what is wrong with an upload request: at most three problems, unknown members named
 * (clipped) rather than listed by the thousand, and never the submitted values. A PDF sent as JSON-less bytes
 * once came back as a 72 KB list of its byte offsets.
 */
function invalidUpload(error: z.ZodError, where: 'member' | 'query parameter'): HttpError {
  const allowed =
    where === 'member' ? Object.keys(labUploadRequestSchema.shape) : Object.keys(rawUploadQueryDoc.shape);
  const lines = error.issues.slice(0, 3).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const named = issue.keys.slice(0, 3).map((k) => JSON.stringify(clip(k, 40)));
      const more = issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : '';
      return `unknown ${where}${issue.keys.length > 1 ? 's' : ''} ${named.join(', ')}${more}; expected ${allowed.join(', ')}`;
    }
    return clip(`${formatPath(issue.path)}: ${issue.message}`, 160);
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more problems)` : '';
  return new HttpError(400, 'invalid_request', `${lines.join('; ')}${more}`);
}

/**
 * The upload as the JSON body gives it, or as a raw PDF body and its query parameters give it; `pdf` is
 * the raw body's bytes.
 */
function uploadRequest(req: FastifyRequest): { body: LabUploadRequest; pdf?: Buffer } {
  if (RAW_PDF_TYPES.includes(mediaType(req))) {
    const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
    if (query.rejectIfPHI === 'true' || query.rejectIfPHI === 'false') {
      query.rejectIfPHI = query.rejectIfPHI === 'true';
    }
    const parsed = rawUploadQuerySchema.safeParse(query);
    if (!parsed.success) throw invalidUpload(parsed.error, 'query parameter');
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
      throw new HttpError(400, 'invalid_request', 'The body is empty: expected the PDF bytes.');
    }
    return { body: parsed.data, pdf: req.body };
  }
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
    throw new HttpError(400, 'invalid_request', `Expected a JSON object body. ${WRONG_TYPE}`);
  }
  const parsed = labUploadRequestSchema.safeParse(req.body);
  if (!parsed.success) throw invalidUpload(parsed.error, 'member');
  return { body: parsed.data };
}

/** Refuse a body the upload does not take before it is read (text/plain, forms): 415, in one sentence. */
function checkUploadType(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const type = mediaType(req);
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (type === '' ? hasBody : !UPLOAD_TYPES.has(type)) {
    done(
      new HttpError(
        415,
        'unsupported_media_type',
        `${type ? `Content-Type ${clip(type, 60)} is not accepted here` : 'The body has no Content-Type'}. ${WRONG_TYPE}`,
      ),
    );
    return;
  }
  done();
}

const statusLocation = (jobId: string) => `/extraction/lab/status/${encodeURIComponent(jobId)}`;

/**
 * The lab job with this id, or null. Given an owner (the caller's key), another key's job is not found, so
 * a job id tells nothing to anyone but its owner; the pre-signed PUT passes none, its signature names the
 * job. Ids found missing for an owner are remembered (see UnknownJobs).
 */
async function findLabJob(deps: AreaDeps, unknown: UnknownJobs, jobId: string, owner?: string | null) {
  if (owner !== undefined && unknown.has(owner, jobId)) return null;
  const job = await deps.engine.store.get(jobId);
  if (job?.kind === 'lab.extract' && (owner === undefined || job.owner === owner)) return job;
  if (owner !== undefined) unknown.add(owner, jobId);
  return null;
}

const noLabJob = (req: FastifyRequest, reply: FastifyReply, jobId: string) =>
  notFound(req, reply, `No lab job with id ${jobId}.`);

/** SPEC.md B: upload (base64 or pre-signed PUT), status and results, over the lab.extract jobs. */
export const labArea: Area = {
  name: 'lab extraction',
  routes: [
    {
      method: 'post',
      path: '/extraction/lab/upload',
      operationId: 'uploadLabPdf',
      summary:
        'Upload a lab report PDF: JSON with a base64 pdfFile, or the PDF bytes as the body (Content-Type: ' +
        'application/pdf, the other members as query parameters); or, JSON without pdfFile, get a ' +
        'pre-signed PUT URL.',
      tag: 'lab extraction',
      body: labUploadRequestSchema,
      rawBody: ['application/pdf'],
      query: rawUploadQueryDoc,
      responses: {
        202: {
          description: 'Queued',
          schema: labUploadQueuedSchema,
          headers: { Location: 'The status URL of the new job: /extraction/lab/status/{jobId}' },
        },
        200: { description: 'Pre-signed upload URL issued', schema: labUploadUrlSchema },
        ...err(400, 'Invalid request'),
        ...err(401, 'API key missing or invalid'),
        ...err(413, 'The PDF exceeds 10 MB'),
        ...err(415, 'Neither JSON nor application/pdf'),
        ...err(429, 'More than 100 uploads per hour'),
      },
    },
    {
      method: 'put',
      path: '/extraction/lab/upload/{jobId}',
      operationId: 'putLabUpload',
      summary: 'The pre-signed upload URL: PUT the PDF (application/pdf, up to 50 MB) within 5 minutes.',
      tag: 'lab extraction',
      public: true,
      responses: {
        200: { description: 'Stored; processing starts', schema: statusBody },
        ...err(403, 'Signature invalid or expired'),
        ...err(409, 'The file was already uploaded'),
        ...err(413, 'Over 50 MB'),
      },
    },
    {
      method: 'get',
      path: '/extraction/lab/status/{jobId}',
      operationId: 'getLabStatus',
      summary: 'Job status; the full extraction result when completed.',
      tag: 'lab extraction',
      responses: { 200: { description: 'Status', schema: statusBody }, ...err(404, 'Unknown job') },
    },
    {
      method: 'get',
      path: '/extraction/lab/results/{jobId}',
      operationId: 'getLabResults',
      summary:
        'The extraction result of a completed job: JSON by default, a FHIR R4 Bundle for Accept: ' +
        'application/fhir+json, one CSV row per result for Accept: text/csv.',
      tag: 'lab extraction',
      responses: {
        200: { description: 'Results', schema: statusBody, alsoAs: [FHIR_JSON, CSV] },
        ...err(404, 'Unknown job'),
        ...err(409, 'The job ended without results (rejected or failed)'),
        ...err(425, 'Processing is not complete'),
      },
    },
  ],

  async register(app, deps) {
    const limits = limitsFromEnv();
    const unknown = new UnknownJobs();
    // Jobs whose upload URL expired unused end failed (upload_expired) instead of waiting forever.
    const sweep = setInterval(() => {
      expireStaleUploads(deps.engine).catch((error: Error) =>
        app.log.error({ err: { type: error.name } }, 'upload sweep failed'),
      );
    }, 30_000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
    const publicBase = process.env.ASSAY_PUBLIC_URL?.replace(/\/$/, '');

    app.addContentTypeParser(
      ['application/pdf', 'application/octet-stream'],
      { parseAs: 'buffer' },
      (_req, body, done) => done(null, body),
    );

    app.post(
      '/extraction/lab/upload',
      { bodyLimit: UPLOAD_BODY_LIMIT, onRequest: checkUploadType },
      async (req: FastifyRequest, reply: FastifyReply) => {
        const { body, pdf: rawPdf } = uploadRequest(req);
        const subject = req.apiKey?.id ?? 'anonymous';
        const decision = await deps.limiter.reserve(limits.uploadsPerHour, subject);
        if (!decision.allowed) {
          throw new HttpError(
            429,
            'rate_limit_exceeded',
            `More than ${decision.limit} uploads in an hour.`,
            { retryAfterSeconds: decision.retryAfterSeconds },
            { 'retry-after': String(decision.retryAfterSeconds) },
          );
        }
        let webhook: WebhookTarget | undefined;
        if (body.webhookUrl) {
          checkTargetUrl(body.webhookUrl, 'webhookUrl', deps.allowPrivateTargets);
          webhook = { url: body.webhookUrl, keyId: subject };
        }

        if (!body.pdfFile && !rawPdf) {
          if (body.dateOfBirth) {
            throw new HttpError(
              400,
              'invalid_request',
              'dateOfBirth can only be checked with an inline pdfFile upload.',
            );
          }
          const base = publicBase ?? `${req.protocol}://${req.host}`;
          const pending = await createPendingUpload(deps.engine, deps.home, {
            baseUrl: base,
            filename: storedUploadName(body.filename),
            rejectIfPHI: body.rejectIfPHI,
            webhook,
            ...(req.apiKey ? { owner: req.apiKey.id } : {}),
          });
          reply.status(200);
          return {
            jobId: pending.job.id,
            uploadUrl: pending.uploadUrl,
            expiresAt: new Date(pending.expiresAt).toISOString(),
          };
        }

        const pdf = rawPdf ?? Buffer.from(body.pdfFile ?? '', 'base64');
        if (pdf.length > MAX_PDF_BYTES)
          throw new HttpError(
            413,
            'file_too_large',
            'The PDF exceeds 10 MB; upload it through a pre-signed URL (JSON without pdfFile).',
          );
        if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
          throw new HttpError(
            400,
            'invalid_pdf',
            rawPdf
              ? 'The body is not a PDF (no %PDF- header).'
              : 'pdfFile does not decode to a PDF (no %PDF- header).',
          );
        }
        const idempotency = req.headers['idempotency-key'];
        const job = await submitLabFile(deps.engine, deps.home, {
          pdf,
          filename: storedUploadName(body.filename),
          dateOfBirth: body.dateOfBirth,
          rejectIfPHI: body.rejectIfPHI,
          webhook,
          ...(req.apiKey ? { owner: req.apiKey.id } : {}),
          dedupe:
            typeof idempotency === 'string' && idempotency ? { key: `${subject}:${idempotency}` } : false,
        });
        reply.status(202).header('location', statusLocation(job.id));
        return {
          jobId: job.id,
          status: 'queued',
          message: 'Upload accepted; poll the status endpoint or wait for the webhook.',
        };
      },
    );

    app.put('/extraction/lab/upload/:jobId', { bodyLimit: MAX_PRESIGNED_BYTES }, async (req, reply) => {
      const { jobId } = req.params as { jobId: string };
      const { expires, signature } = req.query as { expires?: string; signature?: string };
      const check = await checkUploadUrl(deps.home, jobId, expires, signature);
      if (check !== 'ok') {
        throw new HttpError(
          403,
          'forbidden',
          check === 'expired'
            ? 'The upload URL has expired (5 minutes).'
            : 'The upload URL signature is not valid.',
        );
      }
      const job = await findLabJob(deps, unknown, jobId);
      if (!job) return noLabJob(req, reply, jobId);
      if (job.state !== 'held') throw new HttpError(409, 'conflict', `Job ${jobId} already has its file.`);
      if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
        throw new HttpError(
          400,
          'invalid_request',
          'Expected the PDF bytes as the body (Content-Type: application/pdf).',
        );
      }
      if (req.body.subarray(0, 5).toString('latin1') !== '%PDF-')
        throw new HttpError(400, 'invalid_pdf', 'The body is not a PDF.');
      const released = await completePendingUpload(deps.engine, job, req.body);
      return { jobId: released.id, status: released.status };
    });

    app.get('/extraction/lab/status/:jobId', async (req, reply) => {
      const { jobId } = req.params as { jobId: string };
      const job = await findLabJob(deps, unknown, jobId, req.apiKey?.id ?? null);
      // A reviewed result is what every reader gets once a person has corrected it (src/review).
      return job
        ? reviewedResult(deps.engine.blobs, job.id, labStatusBody(job))
        : noLabJob(req, reply, jobId);
    });

    app.get('/extraction/lab/results/:jobId', async (req, reply) => {
      const { jobId } = req.params as { jobId: string };
      const job = await findLabJob(deps, unknown, jobId, req.apiKey?.id ?? null);
      if (!job) return noLabJob(req, reply, jobId);
      const body = await reviewedResult(deps.engine.blobs, job.id, labStatusBody(job));
      if (body.status === 'completed') return answerIn(body as ExtractionResults, req, reply);
      if (job.state === 'done' || job.state === 'failed' || job.state === 'cancelled') {
        throw new HttpError(409, 'no_results', `Job ${job.id} ended ${job.status}; it has no results.`);
      }
      throw new HttpError(425, 'too_early', `Job ${job.id} is ${job.status}; results are not ready yet.`);
    });
  },
};
