import type { FastifyRequest } from 'fastify';
import { reportStatus } from '../../report/status.js';
import { acknowledgement, submitReport } from '../../report/submit.js';
import { detailErrorSchema, SchemaValidationError } from '../../schemas/errors.js';
import {
  condensedReportApiSchema,
  fullReportApiSchema,
  parseReportRequest,
  type ReportVariant,
  reportAckSchema,
  reportStatusRecordSchema,
} from '../../schemas/report.js';
import type { Area, AreaDeps } from '../app.js';
import { HttpError, notFound } from '../error-bodies.js';
import { checkTargetUrl } from '../target-policy.js';
import { UnknownJobs } from '../unknown-jobs.js';

const submitResponses = {
  202: { description: 'Accepted', schema: reportAckSchema },
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
      summary: 'Generate a full report from a time series of health events (health_events).',
      tag: 'reports',
      body: fullReportApiSchema,
      responses: submitResponses,
    },
    {
      method: 'post',
      path: '/health-score/report/condensed',
      summary: 'Generate a condensed report for one health event (health_event).',
      tag: 'reports',
      body: condensedReportApiSchema,
      responses: submitResponses,
    },
    {
      method: 'get',
      path: '/health-score/report/status/{job_id}',
      summary: 'Status of a report job.',
      tag: 'reports',
      responses: {
        200: { description: 'Status record', schema: reportStatusRecordSchema },
        404: { description: 'Unknown job', schema: detailErrorSchema },
      },
    },
  ],

  async register(app, deps: AreaDeps) {
    const allowPrivate = deps.allowPrivateTargets;
    const accept =
      (variant: ReportVariant) => async (req: FastifyRequest, reply: { status: (n: number) => void }) => {
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
        reply.status(202);
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
  },
};
