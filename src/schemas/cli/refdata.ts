/**
 * `--json` output of `assay refdata concepts|stats|top|ranges|sync` (docs/formats.md: Reference data). The
 * first four print SPEC.md part C shapes (src/schemas/refdata.ts), made strict here with their refinements
 * kept, so a member added to the output fails test/cli-output until it is described.
 */
import { z } from 'zod';
import {
  conceptSchema,
  labRangeSchema,
  predictorStatisticSchema,
  predictorStatisticsResponseSchema,
  topDiseasePredictorsSchema,
  topPredictorSchema,
} from '../refdata.js';

/** `refdata concepts --json`: SPEC.md C1 entries. */
export const refdataConceptsOutputSchema = z.array(conceptSchema.strict());

/** `refdata stats --json`: SPEC.md C3. */
export const refdataStatsOutputSchema = predictorStatisticsResponseSchema
  .extend({
    header: predictorStatisticsResponseSchema.shape.header.strict(),
    predictor_statistics: z.array(predictorStatisticSchema.strict()),
  })
  .strict();

/** `refdata top --json`: SPEC.md C4. */
export const refdataTopOutputSchema = topDiseasePredictorsSchema
  .extend({
    top_disease_predictors: z.array(
      topDiseasePredictorsSchema.shape.top_disease_predictors.element
        .extend({ predictors: z.array(topPredictorSchema.strict()) })
        .strict(),
    ),
  })
  .strict();

/** `refdata ranges --json`: SPEC.md C5 rows. */
export const refdataRangesOutputSchema = z.array(labRangeSchema.strict());

const changeCountsSchema = z.strictObject({
  added: z.number().int().min(0),
  updated: z.number().int().min(0),
  removed: z.number().int().min(0),
});

/** `refdata sync --json`: what changed in each resource. */
export const refdataSyncOutputSchema = z.strictObject({
  dataset_version: z.string(),
  /** bundled, the server URL, or the folder synced from. */
  source: z.string(),
  scoring_version: z.string(),
  synced_at: z.iso.datetime(),
  resources: z.strictObject({
    reference_data: changeCountsSchema,
    predictor_statistics: changeCountsSchema,
    top_disease_predictors: changeCountsSchema,
    lab_ranges: changeCountsSchema,
  }),
});

export type RefdataConceptsOutput = z.infer<typeof refdataConceptsOutputSchema>;
export type RefdataStatsOutput = z.infer<typeof refdataStatsOutputSchema>;
export type RefdataTopOutput = z.infer<typeof refdataTopOutputSchema>;
export type RefdataRangesOutput = z.infer<typeof refdataRangesOutputSchema>;
export type RefdataSyncOutput = z.infer<typeof refdataSyncOutputSchema>;
