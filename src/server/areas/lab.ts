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
import {
  labErrorSchema,
  labUploadQueuedSchema,
  labUploadRequestSchema,
  labUploadUrlSchema,
} from '../../schemas/lab.js';
import type { Area, AreaDeps } from '../area.js';
import { HttpError, type LabErrorBody, notFound } from '../error-bodies.js';
import { checkTargetUrl } from '../target-policy.js';
import { UnknownJobs } from '../unknown-jobs.js';
import { answerIn, CSV, FHIR_JSON } from './lab-formats.js';
import {
  checkUploadType,
  FILE_PART,
  MAX_PDF_BYTES,
  notPdfMessage,
  registerFormParser,
  registerRawPdfParser,
  tooLarge,
  uploadBody,
  uploadFieldsDoc,
  uploadFormDoc,
} from './lab-upload-body.js';

const MAX_PRESIGNED_BYTES = 50 * 1024 * 1024;
/** Base64 of 10 MB plus room for the other members: Fastify stops reading past this, so 413 costs no more. */
const UPLOAD_BODY_LIMIT = Math.ceil((MAX_PDF_BYTES * 4) / 3) + 64 * 1024;

const err = (status: number, description: string, example?: LabErrorBody) => ({
  [status]: { description, schema: labErrorSchema, ...(example ? { example } : {}) },
});
const statusBody = z.object({ jobId: z.string(), status: z.string() }).loose();

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

const JOB_ID = '0f8a4c1e-5b7d-4f21-9c3a-6e2d1b9f7a10';
const at = '2025-03-14T09:30:00.000Z';
const labError = (error: string, message: string): LabErrorBody => ({
  error,
  message,
  timestamp: at,
  requestId: '3b2f1c9e-8d4a-4e6b-a1f0-7c5d2e9b8a34',
});

/** Examples for /docs (test/server/openapi-docs.test.ts checks each against its schema). */
const EXAMPLES = {
  upload: { pdfFile: 'JVBERi0xLjcKJeLjz9MK', filename: 'quest-annual.pdf', rejectIfPHI: false },
  queued: {
    jobId: JOB_ID,
    status: 'queued' as const,
    message: 'Upload accepted; poll the status endpoint or wait for the webhook.',
  },
  uploadUrl: {
    jobId: JOB_ID,
    uploadUrl: `https://assay.example.com/extraction/lab/upload/${JOB_ID}?expires=1741944900&signature=5d1c…`,
    expiresAt: '2025-03-14T09:35:00.000Z',
  },
  completed: {
    jobId: JOB_ID,
    status: 'completed',
    labName: 'Quest Diagnostics',
    dateCollected: '2025-03-14',
    verification: { dobFound: true, dobMatches: true },
    panels: [
      {
        panelName: 'COMPREHENSIVE METABOLIC PANEL',
        panelCode: '24323-8',
        dateCollected: '2025-03-14',
        pageNumber: 1,
        panelResults: [
          {
            biomarker: 'GLUCOSE',
            resultValue: '87',
            resultType: 'numeric',
            resultUnit: 'mg/dL',
            loincCode: '2345-7',
            loincMatchType: 'exact',
            ucumCode: 'mg/dL',
            minRefRangeValue: 65,
            maxRefRangeValue: 99,
            referenceRangeText: '65-99',
            pageNumber: 1,
          },
        ],
      },
    ],
    mergeActions: [],
    validationFlags: [],
  },
};

/** SPEC.md B: upload (base64, raw PDF, multipart form or pre-signed PUT), status and results. */
export const labArea: Area = {
  name: 'lab extraction',
  components: {
    LabUploadRequest: labUploadRequestSchema,
    LabUploadForm: uploadFormDoc,
    LabUploadQueued: labUploadQueuedSchema,
    LabUploadUrl: labUploadUrlSchema,
    LabJobStatus: statusBody,
    LabError: labErrorSchema,
  },
  routes: [
    {
      method: 'post',
      path: '/extraction/lab/upload',
      operationId: 'uploadLabPdf',
      summary: 'Upload a lab report PDF: JSON, raw PDF or multipart form.',
      description:
        'The PDF (up to 10 MB) in one of three forms: JSON with a base64 pdfFile; the PDF bytes as the ' +
        'body (Content-Type: application/pdf, the other members as query parameters); or a ' +
        `multipart/form-data form with the PDF as the file part ${FILE_PART} (the other members as text ` +
        'parts). Each is answered 202 with the job and its status URL in Location. JSON without pdfFile ' +
        'gets a pre-signed PUT URL instead (200), for files up to 50 MB.',
      tag: 'lab extraction',
      body: labUploadRequestSchema,
      bodyExample: EXAMPLES.upload,
      rawBody: ['application/pdf'],
      formBody: { schema: uploadFormDoc, files: { [FILE_PART]: 'application/pdf' } },
      query: uploadFieldsDoc,
      responses: {
        202: {
          description: 'Queued',
          schema: labUploadQueuedSchema,
          example: EXAMPLES.queued,
          headers: { Location: 'The status URL of the new job: /extraction/lab/status/{jobId}' },
        },
        200: {
          description: 'Pre-signed upload URL issued',
          schema: labUploadUrlSchema,
          example: EXAMPLES.uploadUrl,
        },
        ...err(
          400,
          'Invalid request: a member, query parameter or form part is wrong, or the file is not a PDF',
          labError('invalid_pdf', `The file part ${FILE_PART} is not a PDF (no %PDF- header).`),
        ),
        ...err(401, 'API key missing or invalid'),
        ...err(
          413,
          'The PDF exceeds 10 MB',
          labError(
            'file_too_large',
            'The PDF exceeds 10 MB; upload it through a pre-signed URL (JSON without pdfFile).',
          ),
        ),
        ...err(415, 'Neither JSON, application/pdf nor multipart/form-data'),
        ...err(429, 'More than 100 uploads per hour'),
      },
    },
    {
      method: 'put',
      path: '/extraction/lab/upload/{jobId}',
      operationId: 'putLabUpload',
      summary: 'The pre-signed upload URL: PUT the PDF within 5 minutes.',
      description: 'The PDF bytes as the body (application/pdf, up to 50 MB); the URL is its own credential.',
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
      responses: {
        200: { description: 'Status', schema: statusBody, example: EXAMPLES.completed },
        ...err(404, 'Unknown job', labError('not_found', `No lab job with id ${JOB_ID}.`)),
      },
    },
    {
      method: 'get',
      path: '/extraction/lab/results/{jobId}',
      operationId: 'getLabResults',
      summary: 'The extraction result of a completed job: JSON, FHIR R4 or CSV.',
      description:
        'JSON by default, a FHIR R4 Bundle for Accept: application/fhir+json, one CSV row per result for ' +
        'Accept: text/csv.',
      tag: 'lab extraction',
      responses: {
        200: {
          description: 'Results',
          schema: statusBody,
          example: EXAMPLES.completed,
          alsoAs: [FHIR_JSON, CSV],
        },
        ...err(404, 'Unknown job'),
        ...err(409, 'The job ended without results (rejected or failed)'),
        ...err(
          425,
          'Processing is not complete',
          labError('too_early', `Job ${JOB_ID} is processing; results are not ready yet.`),
        ),
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

    registerRawPdfParser(app);
    // Only the upload reads forms: @fastify/multipart's hooks stay off the status and results routes.
    await app.register(async (upload) => {
      await registerFormParser(upload);
      upload.post(
        '/extraction/lab/upload',
        { bodyLimit: UPLOAD_BODY_LIMIT, onRequest: [deps.storeWriteGate, checkUploadType] },
        async (req: FastifyRequest, reply: FastifyReply) => {
          const { body, pdf: rawPdf, source } = await uploadBody(req);
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
          if (pdf.length > MAX_PDF_BYTES) throw tooLarge();
          if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
            throw new HttpError(400, 'invalid_pdf', notPdfMessage[source]);
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
    });

    app.put(
      '/extraction/lab/upload/:jobId',
      { bodyLimit: MAX_PRESIGNED_BYTES, onRequest: deps.storeWriteGate },
      async (req, reply) => {
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
      },
    );

    // Not async: an id already known to be missing is answered at once, without a promise per request.
    app.get('/extraction/lab/status/:jobId', (req, reply) => {
      const { jobId } = req.params as { jobId: string };
      const owner = req.apiKey?.id ?? null;
      if (unknown.has(owner, jobId)) return noLabJob(req, reply, jobId);
      return findLabJob(deps, unknown, jobId, owner).then<object>((job) =>
        // A reviewed result is what every reader gets once a person has corrected it (src/review).
        job ? reviewedResult(deps.engine.blobs, job.id, labStatusBody(job)) : noLabJob(req, reply, jobId),
      );
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
