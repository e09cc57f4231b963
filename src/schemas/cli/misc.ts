/**
 * `--json` output of the top-level commands (`assay doctor`, `score`, `review`), of `db migrate`, and the
 * error body every command prints under --json. Objects are strict, so a member added to the output fails
 * test/cli-output until it is described here.
 */
import { z } from 'zod';

/** Every command under --json, when it fails: `{error: {code, message, suggestions}}` (exit 1, 2 or 3). */
export const cliErrorOutputSchema = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string(), suggestions: z.array(z.string()) }),
});

/** `doctor --json`: ok is false when any check failed (warnings allowed). */
export const doctorOutputSchema = z.strictObject({
  ok: z.boolean(),
  checks: z.array(
    z.strictObject({
      check: z.string(),
      status: z.enum(['ok', 'warn', 'fail', 'skip']),
      /** What was found: a version, a path, a setting. */
      detail: z.string(),
      /** What to do about a warn or fail. */
      fix: z.string().optional(),
    }),
  ),
});

/** `db migrate --json`: one entry per store migrated. */
export const dbMigrateOutputSchema = z.array(
  z.strictObject({
    store: z.enum(['sqlite', 'postgres']),
    /** The file, or host/database (never the connection string). */
    location: z.string(),
    from: z.number().int().min(0),
    to: z.number().int().min(0),
  }),
);

/** `review --json`, printed once the page is up (the command then runs until Ctrl-C). */
export const reviewOutputSchema = z.strictObject({
  url: z.url(),
  documents: z.array(
    z.strictObject({
      id: z.string(),
      label: z.string(),
      /** Where the reviewed result is written (a result file given), else null. */
      reviewed: z.string().nullable(),
      pageImages: z.boolean(),
    }),
  ),
  skipped: z.array(z.strictObject({ file: z.string(), status: z.string() })),
});

// `score --json`: the report model (src/scoring/types.ts ScoreReport).

const SEXES = ['female', 'male'] as const;
const DOMAINS = ['overall', 'cardiovascular', 'metabolic', 'kidney', 'liver'] as const;
const METADATA_INPUTS = [
  'sex',
  'smoker',
  'bp_treated',
  'diabetes',
  'parental_diabetes',
  'race',
  'statin',
] as const;

/** Every model's output carries its value and unit; the rest is the model's own (MODEL_OUTPUT_SCHEMAS). */
const modelOutputSchema = z.looseObject({ value: z.number(), unit: z.string().optional() });
const modelOutput = (details: z.ZodRawShape = {}) =>
  z.strictObject({ value: z.number(), unit: z.string(), ...details });
const preventOutput = modelOutput({
  risk_10y: z.number(),
  /** Null from age 60, where PREVENT gives no 30-year estimate. */
  risk_30y: z.number().nullable(),
  log_odds_10y: z.number(),
  log_odds_30y: z.number(),
  egfr: z.number(),
  egfr_source: z.enum(['ckd_epi_2021_creatinine', 'reported']),
});
const egfrOutput = modelOutput({ category: z.string(), source: z.literal('reported').optional() });

/**
 * The output of each model id in `models`: a model missing here, or a member one does not describe, fails
 * the check (a refinement, so the type stays the open ModelOutput the scoring code writes).
 */
export const MODEL_OUTPUT_SCHEMAS: Record<string, z.ZodType> = {
  phenoage: modelOutput({
    mortality_score: z.number(),
    age_acceleration: z.number(),
    crp_floored: z.boolean(),
  }),
  prevent_total_cvd: preventOutput,
  prevent_ascvd: preventOutput,
  prevent_heart_failure: preventOutput,
  pce_ascvd_10y: modelOutput({ equation: z.string(), individual_sum: z.number() }),
  framingham_cvd_10y: modelOutput({ individual_sum: z.number() }),
  heart_age: modelOutput({ clamped: z.enum(['below', 'above']).nullable(), unclamped: z.number() }),
  san_antonio_diabetes_7_5y: modelOutput({ log_odds: z.number(), age_outside_derivation: z.boolean() }),
  framingham_diabetes_8y: modelOutput({ log_odds: z.number(), indicators: z.array(z.string()) }),
  homa_ir: modelOutput(),
  egfr_ckd_epi_2021: egfrOutput,
  egfr_ckd_epi_2021_cr_cys: egfrOutput,
  fib4: modelOutput({
    band: z.string(),
    low_cutoff: z.number(),
    high_cutoff: z.number(),
  }),
};

const modelsSchema = z.record(z.string(), modelOutputSchema).superRefine((models, ctx) => {
  for (const [id, output] of Object.entries(models)) {
    const schema = MODEL_OUTPUT_SCHEMAS[id];
    if (!schema) {
      ctx.addIssue({
        code: 'custom',
        path: [id],
        message: `no output schema for model ${id}: add it to MODEL_OUTPUT_SCHEMAS`,
        input: output,
      });
      continue;
    }
    const parsed = schema.safeParse(output);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', path: [id, ...issue.path], message: issue.message, input: output });
  }
});

const carriedFromSchema = z.strictObject({
  health_event_id: z.string().nullable(),
  event_age: z.number().nullable(),
  event_date: z.string().nullable(),
});

/** Where an event's input came from: a predictor of the event, or a report_metadata member. */
const inputSourceSchema = z.discriminatedUnion('source', [
  z.strictObject({
    source: z.literal('predictor'),
    observation_code: z.string(),
    /** Set when the value was measured at another event than the one scored. */
    carried_from: carriedFromSchema.optional(),
    /** The value carries doubts and was used because the request asked for doubted values. */
    doubtful: z.literal(true).optional(),
  }),
  z.strictObject({ source: z.literal('report_metadata'), member: z.enum(METADATA_INPUTS) }),
]);

const domainScoreSchema = z.strictObject({
  domain: z.enum(DOMAINS),
  value: z.number().nullable(),
  unit: z.string().optional(),
  health_score: z.number().nullable(),
  health_age: z.number().nullable(),
  health_age_clamped: z.enum(['below', 'above']).optional(),
  risk: z.number().nullable(),
  risk_ratio: z.number().nullable(),
  model: z.string().nullable(),
  /** The model that applies to the event (age band, sex, diabetes, inputs present); absent when none does. */
  chosen_model: z.string().optional(),
  model_reason: z.string(),
  category: z.string().optional(),
  inputs_used: z.array(z.string()),
  inputs_missing: z.array(z.string()),
  notes: z.array(z.string()),
});

const eventScoreSchema = z.strictObject({
  health_event_id: z.string(),
  event_age: z.number(),
  event_date: z.string().nullable(),
  sex: z.enum(SEXES).nullable(),
  models: modelsSchema,
  models_not_computed: z.record(
    z.string(),
    z.strictObject({
      status: z.enum(['missing_inputs', 'out_of_range']),
      inputs_missing: z.array(z.string()).optional(),
      reason: z.string().optional(),
    }),
  ),
  domains: z.array(domainScoreSchema),
  input_sources: z.record(z.string(), inputSourceSchema),
});

const seriesChangeSchema = z.strictObject({
  domain: z.enum(DOMAINS),
  /** 'series' for first -> last event with a value, 'consecutive' for neighbours. */
  span: z.enum(['consecutive', 'series']),
  from_event_id: z.string(),
  to_event_id: z.string(),
  years: z.number(),
  value_change: z.number().nullable(),
  health_score_change: z.number().nullable(),
  health_age_change: z.number().nullable(),
  risk_change: z.number().nullable(),
  risk_ratio_change: z.number().nullable(),
});

/** `score --json`: each event with its models, domains and where each input came from; the changes. */
export const scoreOutputSchema = z.strictObject({
  uid_ext: z.string(),
  scoring_version: z.string(),
  events: z.array(eventScoreSchema),
  changes: z.array(seriesChangeSchema),
});

export type CliErrorOutput = z.infer<typeof cliErrorOutputSchema>;
export type DoctorOutput = z.infer<typeof doctorOutputSchema>;
export type DbMigrateOutput = z.infer<typeof dbMigrateOutputSchema>;
export type ReviewOutput = z.infer<typeof reviewOutputSchema>;
export type ScoreOutput = z.infer<typeof scoreOutputSchema>;
