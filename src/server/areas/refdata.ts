import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { limitsFromEnv } from '../../limits/rules.js';
import { openRefdataStore } from '../../refdata/open-store.js';
import { rangeSex, SEX_WORDS } from '../../refdata/range-filter.js';
import type { Answer, LabRangeFilter } from '../../refdata/store.js';
import { detailErrorSchema, formatZodError } from '../../schemas/errors.js';
import {
  conceptListSchema,
  conceptSchema,
  labRangeListSchema,
  labRangeSchema,
  type PredictorStatisticsResponse,
  predictorStatisticSchema,
  predictorStatisticsRequestSchema,
  predictorStatisticsResponseSchema,
  topDiseasePredictorsSchema,
  topPredictorSchema,
} from '../../schemas/refdata.js';
import type { Area, AreaDeps } from '../area.js';
import { HttpError } from '../error-bodies.js';
import { JSON_TYPE, JsonAnswers } from '../json-answers.js';
import { ParsedQueries } from '../parsed-queries.js';

const labRangesQuery = z.object({
  sex: z.string().max(20).optional().describe(SEX_WORDS),
  vendor_name: z
    .string()
    .max(200)
    .optional()
    .describe('Lab vendor, any case: Quest Diagnostics (or Quest), Labcorp (or LabCorp, Lab Corp)'),
});

/** The GET answers carry an ETag; a request naming it in If-None-Match gets 304 and no body. */
const notModified = { 304: { description: 'Not modified: the ETag in If-None-Match is current' } };
const errors = {
  401: { description: 'API key missing or invalid', schema: detailErrorSchema },
  429: { description: 'Rate limit exceeded', schema: detailErrorSchema },
};

/** SPEC.md C: four read endpoints over the reference data in the store (or the bundled dataset). */
export const refdataArea: Area = {
  name: 'reference data',
  components: {
    Concept: conceptSchema,
    PredictorStatisticsRequest: predictorStatisticsRequestSchema,
    PredictorStatisticsResponse: predictorStatisticsResponseSchema,
    PredictorStatistic: predictorStatisticSchema,
    TopDiseasePredictors: topDiseasePredictorsSchema,
    TopPredictor: topPredictorSchema,
    LabRange: labRangeSchema,
    DetailError: detailErrorSchema,
  },
  routes: [
    {
      method: 'get',
      path: '/reference-data/',
      operationId: 'getReferenceData',
      summary: 'The biomarker concept catalogue.',
      tag: 'reference data',
      responses: { 200: { description: 'Concepts', schema: conceptListSchema }, ...notModified, ...errors },
    },
    {
      method: 'post',
      path: '/predictor-statistics/',
      operationId: 'getPredictorStatistics',
      summary: 'Population statistics per predictor for a sex and age.',
      tag: 'reference data',
      body: predictorStatisticsRequestSchema,
      bodyExample: {
        header: {
          event_id: '3f414dcf-ab29-4fa5-af37-93534dff40cd',
          event_asof_dtutc: '2025-03-14T09:30:00Z',
        },
        sex: 'female',
        age: 58,
      },
      responses: {
        200: { description: 'Statistics', schema: predictorStatisticsResponseSchema },
        400: { description: 'Invalid input', schema: detailErrorSchema },
        422: { description: 'Body failed validation', schema: detailErrorSchema },
        ...errors,
      },
    },
    {
      method: 'get',
      path: '/top-disease-predictors/',
      operationId: 'getTopDiseasePredictors',
      summary: 'Top-ranked predictors per health domain.',
      tag: 'reference data',
      responses: {
        200: { description: 'Top predictors', schema: topDiseasePredictorsSchema },
        ...notModified,
        ...errors,
      },
    },
    {
      method: 'get',
      path: '/lab-ranges/',
      operationId: 'getLabRanges',
      summary: 'Laboratory reference ranges, filtered by sex and vendor.',
      tag: 'reference data',
      query: labRangesQuery,
      responses: {
        200: { description: 'Lab ranges', schema: labRangeListSchema },
        ...notModified,
        ...errors,
      },
    },
  ],

  async register(app, deps: AreaDeps) {
    // A sync (by `assay refdata sync` in another process, or on another node) is served at most this late;
    // within it the routes answer from memory without asking the store.
    const store = await openRefdataStore({ home: deps.home, store: deps.store, db: deps.db, metaTtlMs: 250 });
    app.addHook('onClose', () => store.close());
    const limits = limitsFromEnv();
    const readLimits = [limits.refdataPerSecond, limits.refdataPerDay];
    const limitReads = (req: FastifyRequest, reply: FastifyReply): void => {
      const refused = deps.limiter.hitAll(readLimits, req.apiKey?.id ?? 'anonymous');
      if (!refused) return;
      const { rule, decision } = refused;
      reply.header('retry-after', String(decision.retryAfterSeconds));
      throw new HttpError(
        429,
        'rate_limit_exceeded',
        `Rate limit exceeded: ${rule.limit} requests per ${rule.windowMs / 1000} s.`,
      );
    };
    /**
     * A read route: count the hit against the key's limits, then answer the shared value's JSON. Plain
     * synchronous handlers (Fastify catches their throws) rather than a preHandler hook and an async
     * handler: on these small reads the hook stage and the promises were a measurable share of the cost.
     * Only when the store has to be asked (the version check after its TTL, a new dataset) is there a
     * promise, returned for Fastify to await.
     */
    const answers = new JsonAnswers();
    const read =
      (answer: (req: FastifyRequest) => Answer<object>) =>
      (req: FastifyRequest, reply: FastifyReply): undefined | Promise<FastifyReply> => {
        limitReads(req, reply);
        const value = answer(req);
        if (!(value instanceof Promise)) {
          answers.send(req, reply, value);
          return undefined;
        }
        return value.then((v) => {
          answers.send(req, reply, v);
          return reply;
        });
      };

    app.get(
      '/reference-data/',
      read(() => store.concepts()),
    );
    app.get(
      '/top-disease-predictors/',
      read(() => store.topDiseasePredictors()),
    );
    const rangeFilters = new ParsedQueries<LabRangeFilter>();
    app.get(
      '/lab-ranges/',
      read((req) => {
        const filter = rangeFilters.get(ParsedQueries.rawOf(req.url), () => {
          const query = labRangesQuery.safeParse(req.query);
          if (!query.success) throw new HttpError(400, 'invalid_request', formatZodError(query.error));
          // A sex the data cannot hold would answer [] as if no range existed: say what is accepted instead.
          if (query.data.sex !== undefined && !rangeSex(query.data.sex))
            throw new HttpError(422, 'validation_error', `sex must be ${SEX_WORDS}.`);
          return { sex: query.data.sex, vendor: query.data.vendor_name };
        });
        return store.labRanges(filter);
      }),
    );
    // Not through read(): the answer echoes the request's header, so only the statistics are shared text
    // (and at 2 KB, compressing per request would cost more than it saves).
    app.post('/predictor-statistics/', (req, reply) => {
      limitReads(req, reply);
      if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
        throw new HttpError(
          400,
          'invalid_request',
          'Expected a JSON object body (Content-Type: application/json).',
        );
      }
      const parsed = predictorStatisticsRequestSchema.safeParse(req.body);
      if (!parsed.success) throw new HttpError(422, 'validation_error', formatZodError(parsed.error));
      const response = store.predictorStatistics(parsed.data);
      if (!(response instanceof Promise)) {
        sendStatistics(reply, response);
        return undefined;
      }
      return response.then((r) => sendStatistics(reply, r));
    });

    /**
     * The same text JSON.stringify would give: the echoed header, then the shared statistics' JSON. A string
     * rather than Buffer.concat of shared bytes: Node writes a string body together with the headers, and a
     * fresh 2.5 KB Buffer per request kept exhausting the buffer pool (measured slower under load).
     */
    const sendStatistics = (
      reply: FastifyReply,
      { header, predictor_statistics, notice }: PredictorStatisticsResponse,
    ): FastifyReply =>
      reply
        .type(JSON_TYPE)
        .send(
          `{"header":${JSON.stringify(header)},"predictor_statistics":${answers.json(predictor_statistics)}${
            notice ? `,"notice":${JSON.stringify(notice)}` : ''
          }}`,
        );
  },
};
