/**
 * SPEC.md part A: report request (A1, full and condensed), job acknowledgement (A2), job status record (A3)
 * and callback payload (A4). One source for validation and types; the HTTP layer derives OpenAPI from them.
 */
import { z } from 'zod';
import { hasUserinfo, keyNameProblem, tokenProblem, USERINFO_MESSAGE } from './credentials.js';
import { SchemaValidationError } from './errors.js';

const httpUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, error: `expected an http(s) URL for ${what}` })
    .refine((value) => !hasUserinfo(value), { error: USERINFO_MESSAGE });

const isoTimestamp = z.iso.datetime({
  offset: true,
  error: 'expected an ISO 8601 UTC timestamp such as 2025-01-31T09:00:00Z',
});

export const predictorSchema = z.object({
  id: z.string({ error: 'expected the observation id as a string (UUID form)' }).optional(),
  observation_code: z
    .string({ error: 'expected a LOINC-style code string' })
    .regex(/^\d+-\d$/, { error: 'expected a LOINC-style code of the form <digits>-<digit>, such as 2093-3' }),
  value: z.string({ error: 'expected the value as a string (numbers are carried as strings too)' }),
  unit: z.string({ error: "expected the unit as a string ('' when the observation has no unit)" }),
  // Ours, beyond SPEC.md A1 (what `report from-labs` writes; docs/formats.md): the printed name, the
  // doubts extraction raised, the lab's reference range, and the date of a value carried into a snapshot.
  name: z.string({ error: 'expected the printed name as a string' }).optional(),
  doubts: z
    .array(z.object({ code: z.string(), message: z.string() }), {
      error: 'expected doubts as an array of {code, message}',
    })
    .optional(),
  reference_range: z
    .object({ low: z.number().nullable().optional(), high: z.number().nullable().optional() })
    .optional(),
  date: z.iso.date({ error: 'expected the date a value was measured as YYYY-MM-DD' }).optional(),
});

export const healthEventSchema = z.object({
  health_event_id: z.string({ error: 'expected the event id as a string' }).min(1, 'expected a non-empty id'),
  event_age: z
    .number({ error: 'expected the age at the event as a number of years' })
    .min(0, 'expected an age of 0 years or more')
    .max(130, 'expected an age of at most 130 years'),
  predictors: z.array(predictorSchema, { error: 'expected an array of predictors' }),
  // Ours, beyond SPEC.md A1: the calendar date of the event, so a report can label visits by date and
  // say how old a carried value is. from-labs writes it; an event id of the form YYYY-MM-DD counts too.
  event_date: z.iso.date({ error: 'expected event_date as a calendar date, YYYY-MM-DD' }).optional(),
});

export const AUTH_TYPES = ['bearer', 'api_key', 'basic', 'none'] as const;
export const DEFAULT_AUTH_KEY_NAME = 'X-API-Key';

/** An HTTP header name (RFC 9110 token), so an api_key header cannot smuggle a second header in. */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const configurationSchema = z
  .object({
    storage_presigned_url: httpUrl('storage_presigned_url').optional(),
    callback_url: httpUrl('callback_url').optional(),
    auth_type: z.enum(AUTH_TYPES, { error: `expected one of ${AUTH_TYPES.join(', ')}` }).default('none'),
    auth_token: z.string({ error: 'expected the callback credential as a string' }).optional(),
    auth_key_name: z
      .string({ error: 'expected a header name' })
      .regex(headerName, { error: 'expected an HTTP header name such as X-API-Key' })
      .default(DEFAULT_AUTH_KEY_NAME),
  })
  .superRefine((config, ctx) => {
    if (config.auth_type !== 'none' && !config.auth_token) {
      ctx.addIssue({
        code: 'custom',
        path: ['auth_token'],
        message: `expected auth_token: it is required when auth_type is ${config.auth_type}`,
      });
    }
    const token = config.auth_type !== 'none' && config.auth_token;
    const tokenIssue = token ? tokenProblem(config.auth_type, token) : null;
    if (tokenIssue) ctx.addIssue({ code: 'custom', path: ['auth_token'], message: tokenIssue });
    const nameIssue = config.auth_type === 'api_key' ? keyNameProblem(config.auth_key_name) : null;
    if (nameIssue) ctx.addIssue({ code: 'custom', path: ['auth_key_name'], message: nameIssue });
  });

/** A report_metadata flag read by scoring: true, false, or null/absent for unknown (never defaulted). */
const metadataFlag = (what: string) =>
  z
    .boolean({ error: `expected ${what} as true or false (or null when unknown)` })
    .nullable()
    .optional();

export const reportMetadataSchema = z.looseObject({
  event_id: z
    .string({ error: 'expected the request event id as a string' })
    .min(1, 'expected a non-empty id'),
  event_asof_dtutc: isoTimestamp,
  mode: z.literal('report', { error: "expected mode 'report'" }).default('report'),
  // The CLI may write to --out instead, so the schema itself lets configuration be absent.
  configuration: configurationSchema.default({ auth_type: 'none', auth_key_name: DEFAULT_AUTH_KEY_NAME }),
  // Scoring inputs for every event (docs/scoring-inputs.md); a predictor of an event wins over them.
  sex: z
    .enum(['female', 'male'], { error: "expected sex as 'female' or 'male' (sex assigned at birth)" })
    .nullable()
    .optional(),
  smoker: metadataFlag('smoker (current smoker)'),
  bp_treated: metadataFlag('bp_treated (on blood-pressure-lowering treatment)'),
  diabetes: metadataFlag('diabetes (diagnosed diabetes)'),
  parental_diabetes: metadataFlag('parental_diabetes (a parent with diabetes)'),
  race: z
    .enum(['white', 'african_american', 'other'], {
      error: "expected race as 'white', 'african_american' or 'other'",
    })
    .nullable()
    .optional(),
  statin: metadataFlag('statin (on statin therapy)'),
  // The Social Deprivation Index decile of the home address, for PREVENT's SDI term; no ZIP lookup.
  sdi_decile: z
    .number({ error: 'expected sdi_decile as a whole number from 1 to 10 (Social Deprivation Index decile)' })
    .int('expected sdi_decile as a whole number from 1 to 10')
    .min(1, 'expected sdi_decile from 1 to 10')
    .max(10, 'expected sdi_decile from 1 to 10')
    .nullable()
    .optional(),
  // Ours: how a sparse series is scored (src/scoring/as-of.ts); absent keeps SPEC.md behaviour.
  lookback_months: z
    .number({ error: 'expected lookback_months as a number of months (0 turns the lookback off)' })
    .int('expected lookback_months as a whole number of months')
    .min(0, 'expected lookback_months of 0 or more')
    .max(240, 'expected lookback_months of at most 240 (20 years)')
    .nullable()
    .optional(),
  use_doubtful: metadataFlag('use_doubtful (score values extraction doubts)'),
});

const measure = (what: string) =>
  z
    .number({ error: `expected ${what} as a number` })
    .positive(`expected ${what} above 0`)
    .optional();

/** Blood pressure and body size, which lab reports do not print (src/report/from-labs/vitals.ts). */
export const vitalsSchema = z.strictObject({
  sbp: measure('sbp (systolic blood pressure, mmHg)'),
  dbp: measure('dbp (diastolic blood pressure, mmHg)'),
  bmi: measure('bmi (body mass index, kg/m²)'),
  height_cm: measure('height_cm (height in cm)'),
  weight_kg: measure('weight_kg (weight in kg)'),
  date: z.iso.date({ error: 'expected the date of the vitals as YYYY-MM-DD' }).optional(),
});

/**
 * The person's facts that a report built from lab results cannot read off the results (`report from-labs
 * --profile`): the scoring members of report_metadata, and where the report goes. Strict, so a misspelt
 * member is an error rather than an input silently missing.
 */
export const reportProfileSchema = z.strictObject(
  {
    sex: reportMetadataSchema.shape.sex,
    smoker: reportMetadataSchema.shape.smoker,
    bp_treated: reportMetadataSchema.shape.bp_treated,
    diabetes: reportMetadataSchema.shape.diabetes,
    parental_diabetes: reportMetadataSchema.shape.parental_diabetes,
    race: reportMetadataSchema.shape.race,
    statin: reportMetadataSchema.shape.statin,
    lookback_months: reportMetadataSchema.shape.lookback_months,
    use_doubtful: reportMetadataSchema.shape.use_doubtful,
    vitals: vitalsSchema.optional(),
    configuration: configurationSchema.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown member ${issue.keys.join(', ')}: expected sex, smoker, bp_treated, diabetes, parental_diabetes, race, statin, lookback_months, use_doubtful, vitals or configuration`
        : undefined,
  },
);
export type ReportProfile = z.infer<typeof reportProfileSchema>;

const requestBase = {
  report_metadata: reportMetadataSchema,
  uid_ext: z.string({ error: 'expected the external user id as a string' }),
};

/** A1, full report: a time series of events. */
export const fullReportRequestSchema = z.object({
  ...requestBase,
  health_events: z
    .array(healthEventSchema, { error: 'expected health_events as an array of health events' })
    .min(1, 'expected at least one health event'),
});

/** A1, condensed report: one event under health_event. */
export const condensedReportRequestSchema = z.object({
  ...requestBase,
  health_event: healthEventSchema,
});

export type Predictor = z.infer<typeof predictorSchema>;
export type HealthEvent = z.infer<typeof healthEventSchema>;
export type ReportConfiguration = z.infer<typeof configurationSchema>;
export type FullReportRequest = z.infer<typeof fullReportRequestSchema>;
export type CondensedReportRequest = z.infer<typeof condensedReportRequestSchema>;
export type ReportRequest = FullReportRequest | CondensedReportRequest;
export type ReportVariant = 'full' | 'condensed';

export const NO_DESTINATION_MESSAGE =
  'expected storage_presigned_url or callback_url: at least one destination is required';

/** SPEC.md A1 rule 1: the API rejects a request with neither destination. */
export function hasDestination(request: {
  report_metadata: { configuration: ReportConfiguration };
}): boolean {
  const config = request.report_metadata.configuration;
  return Boolean(config.storage_presigned_url || config.callback_url);
}

const destinationRule = {
  path: ['report_metadata', 'configuration'],
  message: NO_DESTINATION_MESSAGE,
};

/** What the HTTP API validates: the A1 shape plus the destination rule. */
export const fullReportApiSchema = fullReportRequestSchema.refine(hasDestination, destinationRule);
export const condensedReportApiSchema = condensedReportRequestSchema.refine(hasDestination, destinationRule);

/** Full or condensed, told apart by shape: health_events (array) or health_event (object). */
export function reportVariantOf(json: unknown): ReportVariant | null {
  if (typeof json !== 'object' || json === null) return null;
  const hasSeries = 'health_events' in json;
  const hasOne = 'health_event' in json;
  if (hasSeries === hasOne) return null;
  return hasSeries ? 'full' : 'condensed';
}

export interface ParsedReportRequest {
  variant: ReportVariant;
  request: ReportRequest;
}

/**
 * Validate a request of either variant. `requireDestination` is the API's rule; the CLI turns it off when
 * --out gives the report somewhere to go. Throws SchemaValidationError naming each path.
 */
export function parseReportRequest(
  json: unknown,
  opts: { requireDestination: boolean; what?: string },
): ParsedReportRequest {
  const what = opts.what ?? 'The report request';
  const variant = reportVariantOf(json);
  if (!variant) {
    const shapeError = new z.ZodError([
      {
        code: 'custom',
        path: ['health_events'],
        message:
          'expected either health_events (an array, full report) or health_event (an object, condensed report), not both or neither',
        input: json,
      },
    ]);
    throw new SchemaValidationError(what, shapeError);
  }
  const schema =
    variant === 'full'
      ? opts.requireDestination
        ? fullReportApiSchema
        : fullReportRequestSchema
      : opts.requireDestination
        ? condensedReportApiSchema
        : condensedReportRequestSchema;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new SchemaValidationError(what, parsed.error);
  return { variant, request: parsed.data };
}

/** The events of a request in series order (one for a condensed report). */
export function requestEvents(request: ReportRequest): HealthEvent[] {
  return 'health_events' in request ? request.health_events : [request.health_event];
}

/** A2: the acknowledgement of an accepted (or refused) report job. */
export const reportAckSchema = z.object({
  job_id: z.uuid(),
  status: z.enum(['accepted', 'failed']),
  message: z.string(),
  estimated_completion_seconds: z.number().nonnegative(),
});
export type ReportAck = z.infer<typeof reportAckSchema>;

export const REPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A3: the status record of a report job. error_* carry a value only when status is failed. */
export const reportStatusRecordSchema = z
  .object({
    job_id: z.string(),
    status: z.enum(REPORT_STATUSES),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    error_type: z.string().nullable(),
    error_message: z.string().nullable(),
  })
  .refine((r) => (r.status === 'failed') === (r.error_type !== null), {
    path: ['error_type'],
    message: 'expected error_type exactly when status is failed',
  });
export type ReportStatusRecord = z.infer<typeof reportStatusRecordSchema>;

/**
 * A4: the job-status payload POSTed to callback_url. processing_time is seconds as a number (SPEC.md leaves
 * the format open; seconds are what A2's estimated_completion_seconds uses too).
 */
const callbackBase = {
  job_id: z.string(),
  processing_time: z.number().nonnegative(),
  timestamp: isoTimestamp,
};
export const reportCallbackSchema = z.discriminatedUnion('status', [
  z.object({
    ...callbackBase,
    status: z.literal('success'),
    storage_location: z.string().optional(),
  }),
  z.object({
    ...callbackBase,
    status: z.literal('failed'),
    error_type: z.string(),
    error_message: z.string(),
    error_details: z.unknown().optional(),
  }),
]);
export type ReportCallback = z.infer<typeof reportCallbackSchema>;
