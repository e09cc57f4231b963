/**
 * SPEC.md part C: reference data entry (C1), predictor statistics request (C2) and response (C3), top disease
 * predictors (C4) and lab range row (C5). One source for validation, types and (later) OpenAPI.
 */
import { z } from 'zod';
import { SchemaValidationError } from './errors.js';

/** C1 start/end times: UTC, `YYYY-MM-DD HH:MM:SS`. */
export const UTC_SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** C1 created time: UTC with milliseconds, `YYYY-MM-DD HH:MM:SS.mmm`. */
export const UTC_MILLIS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;
/** C1 updated time: a UTC timestamp; milliseconds optional. */
const UTC_ANY = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{3})?$/;

const utcSeconds = z.string().regex(UTC_SECONDS, { error: 'expected a UTC time YYYY-MM-DD HH:MM:SS' });
const utcMillis = z.string().regex(UTC_MILLIS, { error: 'expected a UTC time YYYY-MM-DD HH:MM:SS.mmm' });
const finite = z.number().refine(Number.isFinite, { error: 'expected a finite number' });
const id = z.number().int({ error: 'expected an integer id' });

export const conceptSchema = z.object({
  concept_id: id,
  concept_name: z.string().min(1),
  concept_code: z.string().min(1),
  pref_ucum_unit: z.string().nullable(),
  lookup_type_concept_id: id.nullable(),
  vocabulary_id: z.string().min(1),
  vocabulary_concept_id: id,
  concept_class_id: z.string().min(1),
  domain_id: z.string().min(1),
  standard_concept: z.string(),
  start_dtutc: utcSeconds,
  end_dtutc: z.string().regex(UTC_ANY, { error: 'expected a UTC time YYYY-MM-DD HH:MM:SS' }),
  created_dtutc: utcMillis,
  updated_dtutc: z.string().regex(UTC_ANY, { error: 'expected a UTC time' }).nullable(),
});
export const conceptListSchema = z.array(conceptSchema);

export const SEXES = ['female', 'male'] as const;
export type Sex = (typeof SEXES)[number];

export const requestHeaderSchema = z.object({
  event_id: z.string({ error: 'expected event_id as a string' }).min(1, 'expected a non-empty event_id'),
  event_asof_dtutc: z.iso.datetime({ offset: true, error: 'expected an ISO 8601 timestamp' }),
});

export const predictorStatisticsRequestSchema = z.object({
  header: requestHeaderSchema,
  sex: z.enum(SEXES, { error: 'expected sex male or female' }),
  age: z
    .number({ error: 'expected age as a number of years' })
    .min(0, 'expected an age of 0 years or more')
    .max(120, 'expected an age of at most 120 years'),
});

export const PARTNER_RANGE_KINDS = ['range', 'GT', 'GTE', 'LT', 'LTE'] as const;
export type PartnerRangeKind = (typeof PARTNER_RANGE_KINDS)[number];

export const predictorStatisticSchema = z
  .object({
    name: z.string().min(1),
    observation_codes: z.array(z.string()).nullable(),
    mean: finite,
    optimal_min: finite,
    optimal_max: finite,
    absolute_min: finite,
    absolute_max: finite,
    partner_lab_range: z.enum(PARTNER_RANGE_KINDS).nullable(),
    partner_lab_min: finite.nullable(),
    partner_lab_max: finite.nullable(),
  })
  .superRefine((s, ctx) => {
    const problem = partnerRangeProblem(s.partner_lab_range, s.partner_lab_min, s.partner_lab_max);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['partner_lab_range'] });
  });

/**
 * SPEC.md C3: GT and GTE carry only partner_lab_min, LT and LTE only partner_lab_max, range both; no kind
 * carries neither bound. Returns what is wrong, or null.
 */
export function partnerRangeProblem(
  kind: PartnerRangeKind | null,
  min: number | null,
  max: number | null,
): string | null {
  const hasMin = min !== null;
  const hasMax = max !== null;
  if (kind === null) return hasMin || hasMax ? 'partner bounds given without partner_lab_range' : null;
  if (kind === 'range')
    return hasMin && hasMax ? null : 'range needs both partner_lab_min and partner_lab_max';
  if (kind === 'GT' || kind === 'GTE')
    return hasMin && !hasMax ? null : `${kind} carries only partner_lab_min`;
  return hasMax && !hasMin ? null : `${kind} carries only partner_lab_max`;
}

export const predictorStatisticsResponseSchema = z.object({
  header: requestHeaderSchema.extend({ scoring_version: z.string().min(1) }),
  predictor_statistics: z.array(predictorStatisticSchema),
  /** Why predictor_statistics is empty (an age the population statistics do not cover); absent otherwise. */
  notice: z.string().optional(),
});

export const topPredictorSchema = z.object({
  observation_codes: z.array(z.string()),
  rank: z.number().int().min(1),
  strength: finite.min(0),
});

export const topDiseasePredictorsSchema = z.object({
  top_disease_predictors: z.array(
    z.object({ disease: z.string().min(1), predictors: z.array(topPredictorSchema) }),
  ),
});

/** The comparison operators a lab range bound may carry; '' marks a side the vendor prints no bound for. */
export const MIN_OPERATORS = ['>', '>=', ''] as const;
export const MAX_OPERATORS = ['<', '<=', ''] as const;

export const labRangeSchema = z
  .object({
    lab_range_id: id,
    concept_id: id,
    concept_code: z.string().min(1),
    concept_name: z.string().min(1),
    vendor_name: z.string().min(1),
    gender_name: z
      .string()
      .regex(/^[A-Z]+$/, { error: 'expected an uppercase gender such as FEMALE or MALE' }),
    min_value_display: z.string(),
    min_value: finite,
    min_value_operator: z.enum(MIN_OPERATORS, { error: "expected '>', '>=' or '' (no lower bound)" }),
    max_value_display: z.string(),
    max_value: finite,
    max_value_operator: z.enum(MAX_OPERATORS, { error: "expected '<', '<=' or '' (no upper bound)" }),
    bmi_min: finite.nullable(),
    bmi_max: finite.nullable(),
    menstrual_cycle: z.string().nullable(),
  })
  .refine((r) => r.min_value_operator !== '' || r.max_value_operator !== '', {
    error: 'a lab range needs at least one bound',
  });
export const labRangeListSchema = z.array(labRangeSchema);

export type Concept = z.infer<typeof conceptSchema>;
export type PredictorStatisticsRequest = z.infer<typeof predictorStatisticsRequestSchema>;
export type PredictorStatistic = z.infer<typeof predictorStatisticSchema>;
export type PredictorStatisticsResponse = z.infer<typeof predictorStatisticsResponseSchema>;
export type TopPredictor = z.infer<typeof topPredictorSchema>;
export type TopDiseasePredictors = z.infer<typeof topDiseasePredictorsSchema>;
export type LabRange = z.infer<typeof labRangeSchema>;

/** Parse or throw a SchemaValidationError naming the document: the one entry point for untrusted input. */
export function parseRefdata<T extends z.ZodType>(schema: T, what: string, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new SchemaValidationError(what, result.error);
  return result.data;
}
