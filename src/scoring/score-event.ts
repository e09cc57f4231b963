import { DOMAINS, scoreDomain } from './domains.js';
import { eventDateOf } from './event-date.js';
import type { InputCodes } from './input-codes.js';
import { type EventInputs, readInputs } from './inputs.js';
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
  return scoreInputs(event, readInputs(event, codes, metadata));
}

/** Every model and domain of one event from inputs already read (and, in a series, completed: as-of.ts). */
export function scoreInputs(event: HealthEventInput, inputs: EventInputs): EventScore {
  const run = new ModelRun(inputs);
  const domains = DOMAINS.map((spec) => scoreDomain(spec, inputs, run));
  const sex = inputs.categorical.sex;
  return {
    health_event_id: event.health_event_id,
    event_age: event.event_age,
    event_date: eventDateOf(event),
    sex: sex === 'female' || sex === 'male' ? (sex as Sex) : null,
    models: run.models,
    models_not_computed: run.notComputed,
    domains,
    input_sources: inputs.sources,
  };
}
