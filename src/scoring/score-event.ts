import {
  cardiovascularDomain,
  kidneyDomain,
  liverDomain,
  metabolicDomain,
  overallDomain,
} from './domains.js';
import type { InputCodes } from './input-codes.js';
import { readInputs } from './inputs.js';
import { ModelRun } from './model-run.js';
import type { EventScore, HealthEventInput, ScoringMetadata, Sex } from './types.js';

/**
 * Every model and domain of one health event. Pure: the same event always gives the same score. `metadata`
 * is the request's report_metadata: it supplies the non-lab inputs (sex, smoking, BP treatment, diabetes,
 * parental diabetes, race, statin) that no predictor of the event supplies.
 */
export function scoreEvent(
  event: HealthEventInput,
  codes?: InputCodes,
  metadata?: ScoringMetadata,
): EventScore {
  const inputs = readInputs(event, codes, metadata);
  const run = new ModelRun();
  const domains = [
    overallDomain(inputs, run),
    cardiovascularDomain(inputs, run),
    metabolicDomain(inputs, run),
    kidneyDomain(inputs, run),
    liverDomain(inputs, run),
  ];
  const sex = inputs.categorical.sex;
  return {
    health_event_id: event.health_event_id,
    event_age: event.event_age,
    sex: sex === 'female' || sex === 'male' ? (sex as Sex) : null,
    models: run.models,
    models_not_computed: run.notComputed,
    domains,
    input_sources: inputs.sources,
  };
}
