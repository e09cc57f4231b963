import type { FastifyReply, FastifyRequest } from 'fastify';
import { blobKeys } from '../../blobs/store.js';
import { TERMINAL_STATES } from '../../engine/types.js';
import { isReportKind, type ReportJobResult } from '../../report/job/payload.js';
import { reportStatus } from '../../report/job/status.js';
import { acknowledgement, submitReport } from '../../report/job/submit.js';
import { detailErrorSchema, SchemaValidationError } from '../../schemas/errors.js';
import {
  condensedReportApiSchema,
  configurationSchema,
  fullReportApiSchema,
  healthEventSchema,
  parseReportRequest,
  predictorSchema,
  type ReportVariant,
  reportAckSchema,
  reportMetadataSchema,
  reportStatusRecordSchema,
} from '../../schemas/report.js';
import type { Area, AreaDeps } from '../area.js';
import { HttpError, notFound } from '../error-bodies.js';
import { checkTargetUrl } from '../target-policy.js';
import { UnknownJobs } from '../unknown-jobs.js';

const JOB_ID = '7d3e2a61-0c4b-4f8e-9a52-1b6f3d8c2e90';

/** Examples for /docs (test/server/openapi-docs.test.ts checks each against its schema). */
const predictors = [
  { observation_code: '2093-3', value: '214', unit: 'mg/dL' },
  { observation_code: '2085-9', value: '48', unit: 'mg/dL' },
  { observation_code: '8480-6', value: '128', unit: 'mm[Hg]' },
];
const metadata = {
  event_id: '3f414dcf-ab29-4fa5-af37-93534dff40cd',
  event_asof_dtutc: '2025-03-14T09:30:00Z',
  configuration: {
    callback_url: 'https://receiver.example.com/reports',
    auth_type: 'bearer' as const,
    auth_token: 'receiver-token',
  },
  sex: 'male' as const,
  smoker: false,
  bp_treated: false,
  diabetes: false,
  race: 'white' as const,
  statin: false,
};
const event = (id: string, age: number) => ({ health_event_id: id, event_age: age, predictors });
const REPORT_EXAMPLES = {
  full: {
    report_metadata: metadata,
    uid_ext: 'user-002',
    health_events: [event('2024-03-02', 60), event('2025-03-14', 61)],
  },
  condensed: { report_metadata: metadata, uid_ext: 'user-002', health_event: event('2025-03-14', 61) },
  ack: {
    job_id: JOB_ID,
    status: 'accepted' as const,
    message: `Report job accepted; poll /health-score/report/status/${JOB_ID} or wait for the callback.`,
    estimated_completion_seconds: 5,
  },
  status: {
    job_id: JOB_ID,
    status: 'completed' as const,
    created_at: '2025-03-14T09:30:01Z',
    updated_at: '2025-03-14T09:30:04Z',
    error_type: null,
    error_message: null,
  },
  invalid: {
    detail:
      'The report request is not valid:\nreport_metadata.configuration: expected storage_presigned_url or callback_url: at least one destination is required',
  },
};

const submitResponses = {
  202: {
    description: 'Accepted',
    schema: reportAckSchema,
    example: REPORT_EXAMPLES.ack,
    headers: { Location: 'The status URL of the new job: /health-score/report/status/{job_id}' },
  },
  400: { description: 'Malformed JSON', schema: detailErrorSchema },
  401: { description: 'API key missing or invalid', schema: detailErrorSchema },
  422: {
    description: 'Request failed validation, or names no destination',
    schema: detailErrorSchema,
    example: REPORT_EXAMPLES.invalid,
  },
};

/** SPEC.md A over the engine: accept, acknowledge (A2), and report status (A3). */
export const reportsArea: Area = {
  name: 'reports',
  components: {
    FullReportRequest: fullReportApiSchema,
    CondensedReportRequest: condensedReportApiSchema,
    ReportMetadata: reportMetadataSchema,
    ReportConfiguration: configurationSchema,
    HealthEvent: healthEventSchema,
    Predictor: predictorSchema,
    ReportAck: reportAckSchema,
    ReportStatusRecord: reportStatusRecordSchema,
    DetailError: detailErrorSchema,
  },
  routes: [
    {
      method: 'post',
      path: '/health-score/report',
      operationId: 'submitFullReport',
      summary: 'Generate a full report from a time series of health events (health_events).',
      tag: 'reports',
      body: fullReportApiSchema,
      bodyExample: REPORT_EXAMPLES.full,
      responses: submitResponses,
    },
    {
      method: 'post',
      path: '/health-score/report/condensed',
      operationId: 'submitCondensedReport',
      summary: 'Generate a condensed report for one health event (health_event).',
      tag: 'reports',
      body: condensedReportApiSchema,
      bodyExample: REPORT_EXAMPLES.condensed,
      responses: submitResponses,
    },
    {
      method: 'get',
      path: '/health-score/report/status/{job_id}',
      operationId: 'getReportStatus',
      summary: 'Status of a report job.',
      tag: 'reports',
      responses: {
        200: {
          description: 'Status record',
          schema: reportStatusRecordSchema,
          example: REPORT_EXAMPLES.status,
        },
        404: {
          description: 'Unknown job',
          schema: detailErrorSchema,
          example: { detail: `No report job with id ${JOB_ID}.` },
        },
      },
    },
    {
      method: 'get',
      path: '/health-score/report/{job_id}/pdf',
      operationId: 'getReportPdf',
      summary: 'The rendered PDF of a report job, while the server keeps it.',
      description:
        "From when it is rendered until it has been delivered to the request's storage_presigned_url or " +
        'callback_url (a failed delivery keeps it until `assay jobs prune`).',
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

    // A store whose file cannot keep the job refuses it before the body is read (store-health.ts).
    const onRequest = deps.storeWriteGate;
    app.post('/health-score/report', { bodyLimit: 5 * 1024 * 1024, onRequest }, accept('full'));
    app.post('/health-score/report/condensed', { bodyLimit: 1024 * 1024, onRequest }, accept('condensed'));
    const unknown = new UnknownJobs();
    // Not async: an id already known to be missing is answered at once, without a promise per request.
    app.get('/health-score/report/status/:job_id', (req, reply) => {
      const { job_id } = req.params as { job_id: string };
      const owner = req.apiKey?.id ?? null;
      const missing = () => notFound(req, reply, `No report job with id ${job_id}.`);
      if (unknown.has(owner, job_id)) return missing();
      return reportStatus(deps.engine.store, job_id, { owner }).then((status) => {
        if (status) return status;
        unknown.add(owner, job_id);
        return missing();
      });
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
