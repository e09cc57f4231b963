import { asOfInputs } from './as-of.js';
import { ScoringRequestError } from './errors.js';
import type { InputCodes } from './input-codes.js';
import { type EventInputs, readInputs } from './inputs.js';
import { scoreInputs } from './score-event.js';
import { domainChanges } from './trends.js';
import type { ScoreReport, ScoreRequestInput } from './types.js';

/**
 * Version of the scoring models and mappings; changes whenever a coefficient, an input code or the
 * health-score mapping changes, so two reports can tell whether their numbers are comparable.
 */
export const SCORING_VERSION = 'assay-scoring-2026.2';

export interface ScoreOptions {
  /** Input code configuration; data/scoring/input-codes.json when absent. */
  inputCodes?: InputCodes;
}

/**
 * The report model of a request: every event scored, plus the domain changes across the series. The
 * request's report_metadata supplies non-lab inputs to every event that has no predictor for them, and
 * with lookback_months each event is scored as of its date from the values measured within the window.
 */
export function scoreRequest(request: ScoreRequestInput, options: ScoreOptions = {}): ScoreReport {
  const events = request.health_events ?? (request.health_event ? [request.health_event] : []);
  if (events.length === 0) throw new ScoringRequestError('the request has no health events to score');
  const metadata = request.report_metadata;
  const own = events.map((event) => readInputs(event, options.inputCodes, metadata));
  const inputs = asOfInputs(events, own, metadata?.lookback_months ?? 0);
  const scored = events.map((event, i) => scoreInputs(event, inputs[i] as EventInputs));
  return {
    uid_ext: request.uid_ext,
    scoring_version: SCORING_VERSION,
    events: scored,
    changes: domainChanges(scored),
  };
}
