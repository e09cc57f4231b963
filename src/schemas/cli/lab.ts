/**
 * `--json` output of `assay lab extract`, `lab status` and `lab map` (docs/formats.md: Lab extraction, Lab
 * status bodies, Lab map). The extraction result is SPEC.md B3 ExtractionResults plus this project's members;
 * objects are strict, so a member added to the output fails test/cli-output until it is described here.
 * Commands import these as types only: nothing here runs when a command does.
 */
import { z } from 'zod';

export const LOINC_MATCH_TYPES = ['exact', 'biomarker_only', 'llm_fuzzy', 'not_found'] as const;
export const UCUM_MATCH_METHODS = ['static_map', 'pattern_rule', 'prefix_map', 'llm', 'not_found'] as const;
/** SPEC.md B5. */
export const REJECTION_REASONS = [
  'non_supported_lab',
  'non_english_document',
  'multiple_collection_dates',
  'non_us_document',
  'non_lab_document',
] as const;

/** One doubt about one result row: a validation flag's code and message. */
export const rowDoubtSchema = z.strictObject({ code: z.string(), message: z.string() });

/** A row's box on its page: PDF points, origin at the page's top-left corner. */
export const rowBoxSchema = z.strictObject({
  page: z.number().int().min(1),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});

/** Ours: what a reviewed row carries, the last revision that touched it (src/review/revisions.ts). */
export const rowReviewSchema = z.strictObject({
  at: z.iso.datetime(),
  by: z.string(),
  action: z.enum(['accept', 'edit', 'not_a_result']),
  revision: z.string(),
});

/** SPEC.md B3 PanelResult; flag, id, doubts, bbox and reviewed are ours. */
export const panelResultSchema = z.strictObject({
  biomarker: z.string(),
  resultValue: z.string().nullable(),
  resultType: z.enum(['numeric', 'string', 'range']),
  resultUnit: z.string().nullable(),
  loincCode: z.string().nullable(),
  loincMatchType: z.enum(LOINC_MATCH_TYPES).nullable(),
  ucumCode: z.string().nullable(),
  ucumMatchMethod: z.enum(UCUM_MATCH_METHODS).nullable(),
  minRefRangeValue: z.number().nullable(),
  maxRefRangeValue: z.number().nullable(),
  referenceRangeText: z.string().nullable(),
  pageNumber: z.number().int().nullable(),
  flag: z.string().nullable().optional(),
  id: z.string().optional(),
  doubts: z.array(rowDoubtSchema).optional(),
  bbox: rowBoxSchema.nullable().optional(),
  reviewed: rowReviewSchema.optional(),
});

/** SPEC.md B3 LabPanel. */
export const labPanelSchema = z.strictObject({
  panelName: z.string(),
  panelCode: z.string(),
  dateCollected: z.string(),
  pageNumber: z.number().int(),
  panelResults: z.array(panelResultSchema),
});

export const mergeActionSchema = z.strictObject({
  action: z.literal('merge_continued_panel'),
  panelName: z.string(),
  panelCode: z.string(),
  fromPage: z.number().int(),
  intoPage: z.number().int(),
  resultCount: z.number().int(),
});

/** docs/formats.md: Validation flags. */
export const validationFlagSchema = z.strictObject({
  code: z.string(),
  severity: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  pageNumber: z.number().int().optional(),
  resultId: z.string().optional(),
});

/** Ours: rows read out of the rows that looked like results. */
export const coverageSchema = z.strictObject({
  resultsRead: z.number().int().min(0),
  resultLikeRows: z.number().int().min(0),
  ratio: z.number().min(0).max(1),
});

/** Ours: on a reviewed result, how many revisions and rows (src/review/revisions.ts). */
export const reviewSummarySchema = z.strictObject({
  revisions: z.number().int(),
  lastAt: z.iso.datetime(),
  rowsReviewed: z.number().int(),
  rowsRemoved: z.number().int(),
});

const extractionCoreShape = {
  labName: z.string().nullable(),
  dateCollected: z.string().nullable(),
  verification: z.strictObject({ dobFound: z.boolean(), dobMatches: z.boolean().nullable() }),
  panels: z.array(labPanelSchema),
  mergeActions: z.array(mergeActionSchema),
  validationFlags: z.array(validationFlagSchema),
  coverage: coverageSchema,
  review: reviewSummarySchema.optional(),
};

/** What a completed lab.extract job stores as its result (`jobs show`): B3 without jobId and status. */
export const extractionCoreSchema = z.strictObject(extractionCoreShape);

/** SPEC.md B3 ExtractionResults: the status body of a completed job. */
export const extractionResultsSchema = z.strictObject({
  jobId: z.string(),
  status: z.literal('completed'),
  ...extractionCoreShape,
});

/** The status body of a job that has not completed: its status and what explains it. */
export const labStatusSchema = z
  .strictObject({
    jobId: z.string(),
    status: z.string(),
    rejection_reason: z.enum(REJECTION_REASONS).optional(),
    detected_lab: z.string().nullable().optional(),
    rejection_detail: z.string().optional(),
    rejection_evidence: z.array(z.string()).optional(),
    error: z
      .strictObject({ code: z.string(), message: z.string(), kinds: z.array(z.string()).optional() })
      .optional(),
  })
  .refine((body) => body.status !== 'completed', {
    error: 'expected the full extraction result for a completed job',
  });

/** `assay lab status --json`, and the `result` of each file of `lab extract`. */
export const labStatusBodySchema = z.union([extractionResultsSchema, labStatusSchema]);

/** `assay lab extract --json` (not --watch, which prints one `{file, output, result}` per line). */
export const labExtractOutputSchema = z.strictObject({
  files: z.array(
    z.strictObject({
      file: z.string(),
      /** Where the status body was written, with --out. */
      output: z.string().nullable(),
      result: labStatusBodySchema,
    }),
  ),
  /** Only when interrupted (SIGINT, SIGTERM): how many PDFs ended and how many are left. */
  interrupted: z
    .strictObject({ signal: z.string(), ended: z.number().int(), left: z.number().int() })
    .optional(),
});

/** One printed test name mapped to LOINC (and its unit to UCUM). */
export const mappedNameSchema = z.strictObject({
  name: z.string(),
  unit: z.string().nullable(),
  panel: z.string().nullable(),
  loinc: z.strictObject({
    loincCode: z.string().nullable(),
    loincMatchType: z.enum(LOINC_MATCH_TYPES),
    loincMatcher: z.enum(['lexical', 'llm']).optional(),
    score: z.number().min(0).max(1).optional(),
    longName: z.string().optional(),
  }),
  /** Present when a unit was given. */
  ucum: z
    .strictObject({ ucumCode: z.string().nullable(), ucumMatchMethod: z.enum(UCUM_MATCH_METHODS) })
    .optional(),
});

/** `assay lab map NAME --json`: one mapped name; with --file, an array of them. */
export const labMapOutputSchema = z.union([mappedNameSchema, z.array(mappedNameSchema)]);

export type LabStatusOutput = z.infer<typeof labStatusBodySchema>;
export type LabExtractOutput = z.infer<typeof labExtractOutputSchema>;
export type MappedNameOutput = z.infer<typeof mappedNameSchema>;
export type LabMapOutput = z.infer<typeof labMapOutputSchema>;
