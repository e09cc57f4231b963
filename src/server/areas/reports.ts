import type { FastifyReply, FastifyRequest } from 'fastify';
import { blobKeys } from '../../blobs/store.js';
import { TERMINAL_STATES } from '../../engine/types.js';
import { isReportKind, type ReportJobResult } from '../../report/job/payload.js';
import { reportStatus } from '../../report/job/status.js';
import { acknowledgement, submitReport } from '../../report/job/submit.js';
import { detailErrorSchema, SchemaValidationError } from '../../schemas/errors.js';
import {
  condensedReportApiSchema,
  fullReportApiSchema,
  parseReportRequest,
  type ReportVariant,
  reportAckSchema,
  reportStatusRecordSchema,
} from '../../schemas/report.js';
import type { Area, AreaDeps } from '../area.js';
import { HttpError, notFound } from '../error-bodies.js';
import { checkTargetUrl } from '../target-policy.js';
import { UnknownJobs } from '../unknown-jobs.js';

const submitResponses = {
  202: {
    description: 'Accepted',
    schema: reportAckSchema,
    headers: { Location: 'The status URL of the new job: /health-score/report/status/{job_id}' },
  },
  400: { description: 'Malformed JSON', schema: detailErrorSchema },
  401: { description: 'API key missing or invalid', schema: detailErrorSchema },
  422: { description: 'Request failed validation, or names no destination', schema: detailErrorSchema },
};

/** SPEC.md A over the engine: accept, acknowledge (A2), and report status (A3). */
export const reportsArea: Area = {
  name: 'reports',
  routes: [
    {
      method: 'post',
      path: '/health-score/report',
      operationId: 'submitFullReport',
      summary: 'Generate a full report from a time series of health events (health_events).',
      tag: 'reports',
      body: fullReportApiSchema,
      responses: submitResponses,
    },
    {
      method: 'post',
      path: '/health-score/report/condensed',
      operationId: 'submitCondensedReport',
      summary: 'Generate a condensed report for one health event (health_event).',
      tag: 'reports',
      body: condensedReportApiSchema,
      responses: submitResponses,
    },
    {
      method: 'get',
      path: '/health-score/report/status/{job_id}',
      operationId: 'getReportStatus',
      summary: 'Status of a report job.',
      tag: 'reports',
      responses: {
        200: { description: 'Status record', schema: reportStatusRecordSchema },
        404: { description: 'Unknown job', schema: detailErrorSchema },
      },
    },
    {
      method: 'get',
      path: '/health-score/report/{job_id}/pdf',
      operationId: 'getReportPdf',
      summary:
        'The rendered PDF of a report job, while the server keeps it: from when it is rendered until it ' +
        "has been delivered to the request's storage_presigned_url or callback_url.",
      tag: 'reports',
      responses: {
        200: { description: 'The PDF', binary: 'application/pdf' },
        404: { description: 'Unknown job', schema: detailErrorSchema },
        409: {
          description: 'The job failed, or its PDF was delivered and is no longer kept',
          schema: detailErrorSchema,
        },
        425: { description: 'The report is not rendered yet', schema: detailErrorSchema },
      },
    },
  ],

  async register(app, deps: AreaDeps) {
    const allowPrivate = deps.allowPrivateTargets;
    const accept = (variant: ReportVariant) => async (req: FastifyRequest, reply: FastifyReply) => {
      if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
        throw new HttpError(
          400,
          'invalid_request',
          'Expected a JSON object body (Content-Type: application/json).',
        );
      }
      let parsed: ReturnType<typeof parseReportRequest>;
      try {
        parsed = parseReportRequest(req.body, { requireDestination: true, what: 'The report request' });
      } catch (err) {
        if (err instanceof SchemaValidationError) throw new HttpError(422, 'validation_error', err.message);
        throw err;
      }
      if (parsed.variant !== variant) {
        throw new HttpError(
          422,
          'validation_error',
          variant === 'full'
            ? 'health_events: expected a full report request; send a single health_event to /health-score/report/condensed'
            : 'health_event: expected a condensed report request; send health_events to /health-score/report',
        );
      }
      const { storage_presigned_url: storage, callback_url: callback } =
        parsed.request.report_metadata.configuration;
      if (storage)
        checkTargetUrl(storage, 'report_metadata.configuration.storage_presigned_url', allowPrivate);
      if (callback) checkTargetUrl(callback, 'report_metadata.configuration.callback_url', allowPrivate);
      const { job } = await submitReport(deps.engine, parsed, {
        home: deps.home,
        ...(req.apiKey ? { owner: req.apiKey.id } : {}),
      });
      reply.status(202).header('location', `/health-score/report/status/${encodeURIComponent(job.id)}`);
      return acknowledgement(job);
    };

    app.post('/health-score/report', { bodyLimit: 5 * 1024 * 1024 }, accept('full'));
    app.post('/health-score/report/condensed', { bodyLimit: 1024 * 1024 }, accept('condensed'));
    const unknown = new UnknownJobs();
    app.get('/health-score/report/status/:job_id', async (req, reply) => {
      const { job_id } = req.params as { job_id: string };
      const owner = req.apiKey?.id ?? null;
      const status = unknown.has(owner, job_id)
        ? null
        : await reportStatus(deps.engine.store, job_id, { owner });
      if (status) return status;
      unknown.add(owner, job_id);
      return notFound(req, reply, `No report job with id ${job_id}.`);
    });

    // The PDF the report job rendered, read from the blob store where the job keeps it for its deliveries
    // (src/report/job/files.ts). The lookup is the status route's: another key's job is not found.
    app.get('/health-score/report/:job_id/pdf', async (req, reply) => {
      const { job_id } = req.params as { job_id: string };
      const owner = req.apiKey?.id ?? null;
      const job = unknown.has(owner, job_id) ? null : await deps.engine.store.get(job_id);
      if (!job || !isReportKind(job.kind) || job.owner !== owner) {
        unknown.add(owner, job_id);
        return notFound(req, reply, `No report job with id ${job_id}.`);
      }
      if (!TERMINAL_STATES.includes(job.state)) {
        throw new HttpError(
          425,
          'too_early',
          `Report job ${job.id} is ${job.status}; its PDF is not ready yet.`,
        );
      }
      if (job.state !== 'done' || job.status === 'failed') {
        throw new HttpError(409, 'conflict', `Report job ${job.id} ended ${job.status}; it has no PDF.`);
      }
      const kept = (job.result as Partial<ReportJobResult> | null)?.pdf_path;
      const pdf = kept ? await deps.engine.blobs.get(blobKeys.reportPdf(job.id)) : null;
      if (!pdf) {
        throw new HttpError(
          409,
          'conflict',
          `The PDF of report job ${job.id} is no longer kept: the server deletes it once it has been ` +
            "delivered to the request's storage_presigned_url or callback_url.",
        );
      }
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="report-${job.id}.pdf"`)
        .send(pdf);
    });
  },
};
