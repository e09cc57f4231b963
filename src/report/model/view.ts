/**
 * What the renderers read from a report model besides its fields. Apart from model.ts, which builds models
 * (scoring, request schemas, reference data): a render thread imports this and never loads those.
 */
import { inputLabel } from '../../scoring/input-labels.js';
import type { DomainName, DomainScore, EventScore } from '../../scoring/types.js';
import type { ValueNote } from './excluded.js';

/** Inputs of a domain whose value was measured at another date than the event's (as-of.ts), with that date. */
export function carriedInputs(
  event: EventScore,
  names: readonly string[],
): Array<{ input: string; date: string | null; age: number | null }> {
  return names.flatMap((input) => {
    const source = event.input_sources[input];
    const from = source?.source === 'predictor' ? source.carried_from : undefined;
    return from ? [{ input, date: from.event_date, age: from.event_age }] : [];
  });
}

/**
 * A missing input in words, saying when it was measured at the latest event but left out (doubted, in
 * conflict, a unit that does not convert): "Missing: Albumin" would be untrue then.
 */
export function missingLabel(
  model: { excluded: readonly ValueNote[]; latest: Pick<EventScore, 'event_age'> },
  input: string,
): string {
  const leftOut = model.excluded.some((v) => v.input === input && v.event_age === model.latest.event_age);
  return leftOut ? `${inputLabel(input)} (measured, left out: see Methods)` : inputLabel(input);
}

export function domainOf(event: EventScore, domain: DomainName): DomainScore | undefined {
  return event.domains.find((d) => d.domain === domain);
}
