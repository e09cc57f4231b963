/**
 * `--json` output of `assay report generate`, `report status` and `report from-labs` (docs/formats.md:
 * Report output and status, Report from lab results). A report's status is SPEC.md A3
 * (reportStatusRecordSchema), extended with what the CLI adds. Objects are strict, so a member added to the
 * output fails test/cli-output until it is described here.
 */
import { z } from 'zod';
import { reportStatusRecordSchema } from '../report.js';

const VARIANTS = ['full', 'condensed'] as const;

/** What a report job stores when it completed (src/report/job/payload.ts ReportJobResult). */
export const reportJobResultSchema = z.strictObject({
  variant: z.enum(VARIANTS),
  events: z.number().int().min(1),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The blob key of the PDF kept until its deliveries end; null when there is nothing to deliver. */
  pdf_path: z.string().nullable(),
  out_pdf: z.string().nullable(),
  out_json: z.string().nullable(),
  render_seconds: z.number().min(0),
});

/** What a report job stores when it failed for good. */
export const reportJobFailureSchema = z.strictObject({
  error_type: z.string(),
  error_message: z.string(),
  error_details: z.strictObject({ stage: z.string(), attempts: z.number().int() }),
});

/** `report status --json`: SPEC.md A3, nothing more. */
export const reportStatusOutputSchema = reportStatusRecordSchema.strict();

/** A health event of the request built from lab results. */
export const eventSummarySchema = z.strictObject({
  health_event_id: z.string(),
  date: z.iso.date(),
  predictors: z.number().int().min(0),
  sources: z.array(z.string()),
});

/** One LOINC code with different values on one date: both listed, neither used. */
export const conflictSchema = z.strictObject({
  date: z.iso.date(),
  code: z.string(),
  name: z.string(),
  readings: z.array(z.strictObject({ value: z.string(), unit: z.string(), source: z.string() })),
});

export const UNUSABLE_REASONS = [
  'no_date',
  'no_loinc',
  'no_value',
  'conflict',
  'doubtful',
  'not_a_scoring_input',
  'not_numeric',
  'censored_value',
  'unit_missing',
  'unit_unknown',
  'unit_not_convertible',
  'unknown_value',
  'implausible_value',
] as const;

/** A lab result the scoring cannot use, and why. */
export const unusableSchema = z.strictObject({
  source: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  date: z.string().nullable(),
  value: z.string().nullable(),
  unit: z.string(),
  reason: z.enum(UNUSABLE_REASONS),
  /** Whether the result is still carried in the request. */
  in_request: z.boolean(),
});

/** `report generate --json`: one entry per request file. */
export const generatedReportSchema = reportStatusRecordSchema
  .extend({
    file: z.string(),
    variant: z.enum(VARIANTS),
    out_pdf: z.string().nullable(),
    out_json: z.string().nullable(),
    /** For a FHIR Bundle input: the request built from it (written with --out), its events, conflicts and unusable results. */
    from_labs: z
      .strictObject({
        events: z.array(eventSummarySchema),
        conflicts: z.array(conflictSchema),
        unusable: z.array(unusableSchema),
        request: z.string().nullable(),
      })
      .optional(),
  })
  .strict();

export const reportGenerateOutputSchema = z.strictObject({ reports: z.array(generatedReportSchema) });

/** A file `report from-labs` read, and what came of it. */
export const fileOutcomeSchema = z.strictObject({
  file: z.string(),
  kind: z.enum(['pdf', 'extraction', 'fhir', 'other']),
  /** completed, or the lab job's final status (invalid_document, failed ...), or skipped. */
  status: z.string(),
  /** Why a file gave no results (a rejection reason, an error code, not lab results). */
  reason: z.string().nullable(),
  results: z.number().int().min(0),
  /** The date of birth printed in the document differs from --dob. */
  dob_mismatch: z.boolean(),
});

/** A value of a scoring input left out of the scores (doubted, conflicting, unconvertible), with why. */
export const valueNoteSchema = z.strictObject({
  name: z.string(),
  input: z.string(),
  observation_code: z.string(),
  date: z.string().nullable(),
  event_age: z.number(),
  value: z.string(),
  unit: z.string(),
  why: z.string(),
});

/** The report `report from-labs` ran: SPEC.md A3 with its variant and files. */
export const fromLabsReportSchema = reportStatusRecordSchema
  .extend({
    variant: z.enum(VARIANTS),
    out_pdf: z.string().nullable(),
    out_json: z.string().nullable(),
  })
  .strict();

/** `report from-labs --json`: what was read, the events built, what was left out, and the report. */
export const reportFromLabsOutputSchema = z.strictObject({
  files: z.array(fileOutcomeSchema),
  events: z.array(eventSummarySchema),
  conflicts: z.array(conflictSchema),
  unusable: z.array(unusableSchema),
  /** Values of scoring inputs left out of the scores, with why. */
  left_out: z.array(valueNoteSchema),
  /** The request file written. */
  request: z.string(),
  /** Why nothing could be scored (what to add); empty when something was. */
  empty_reasons: z.array(z.string()),
  /** Null when nothing could be scored and --allow-empty was not given. */
  report: fromLabsReportSchema.nullable(),
});

export type ReportStatusOutput = z.infer<typeof reportStatusOutputSchema>;
export type GeneratedReportOutput = z.infer<typeof generatedReportSchema>;
export type ReportGenerateOutput = z.infer<typeof reportGenerateOutputSchema>;
export type FromLabsReportOutput = z.infer<typeof fromLabsReportSchema>;
export type ReportFromLabsOutput = z.infer<typeof reportFromLabsOutputSchema>;
