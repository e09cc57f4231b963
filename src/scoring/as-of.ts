/**
 * Real histories are sparse: a visit may test only a few things while the one months before tested
 * everything. With a lookback window, each event is scored as of its date: an input it lacks takes the most
 * recent value measured at an earlier event inside the window, and the value keeps where it came from
 * (carried_from). A value older than the window is never used. Without a window (SPEC.md), every event is
 * scored from its own predictors.
 */
import { eventDateOf } from './event-date.js';
import {
  CATEGORICAL_INPUTS,
  type CategoricalInput,
  NUMERIC_INPUTS,
  type NumericInput,
} from './input-codes.js';
import type { EventInputs } from './inputs.js';
import type { HealthEventInput } from './types.js';

/** Ages are written to 0.01 year; a window compared on ages allows for that rounding. */
const AGE_ROUNDING = 0.005;

/** Whether a value measured at `from` may stand in at `at`: not later, and at most `months` before. */
export function withinLookback(from: HealthEventInput, at: HealthEventInput, months: number): boolean {
  if (from.event_age > at.event_age + AGE_ROUNDING) return false;
  const fromDate = eventDateOf(from);
  const atDate = eventDateOf(at);
  if (fromDate && atDate) return fromDate <= atDate && fromDate >= monthsBefore(atDate, months);
  return at.event_age - from.event_age <= months / 12 + AGE_ROUNDING;
}

/**
 * Each event's inputs completed from earlier events inside the window. `read` holds each event's own
 * inputs (readInputs), in the order of `events`; only own values are carried, never a value carried before.
 */
export function asOfInputs(
  events: readonly HealthEventInput[],
  read: readonly EventInputs[],
  months: number,
): EventInputs[] {
  if (!(months > 0)) return [...read];
  return events.map((event, i) => {
    const own = read[i] as EventInputs;
    const earlier = events
      .map((e, j) => ({ e, j }))
      .filter(({ e, j }) => j !== i && withinLookback(e, event, months))
      .sort((a, b) => b.e.event_age - a.e.event_age || b.j - a.j);
    if (earlier.length === 0) return own;
    const inputs = cloneInputs(own);
    for (const input of NUMERIC_INPUTS) {
      if (inputs.numeric[input] !== undefined) continue;
      const donor = earlier.find(({ j }) => read[j]?.numeric[input] !== undefined);
      if (donor) carry(inputs, read[donor.j] as EventInputs, donor.e, input);
    }
    for (const input of CATEGORICAL_INPUTS) {
      if (inputs.categorical[input] !== undefined) continue;
      const donor = earlier.find(({ j }) => read[j]?.sources[input]?.source === 'predictor');
      if (donor) carry(inputs, read[donor.j] as EventInputs, donor.e, input);
    }
    return inputs;
  });
}

function carry(
  into: EventInputs,
  from: EventInputs,
  event: HealthEventInput,
  input: NumericInput | CategoricalInput,
): void {
  const source = from.sources[input];
  if (source?.source !== 'predictor') return;
  if (isNumeric(input)) {
    into.numeric[input] = from.numeric[input];
    if (from.upperBounds.includes(input)) into.upperBounds.push(input);
  } else into.categorical[input] = from.categorical[input];
  into.sources[input] = {
    ...source,
    // A value the earlier event itself carried by its own date keeps that date.
    carried_from: source.carried_from ?? {
      health_event_id: event.health_event_id,
      event_age: event.event_age,
      event_date: eventDateOf(event),
    },
  };
}

function isNumeric(input: NumericInput | CategoricalInput): input is NumericInput {
  return (NUMERIC_INPUTS as readonly string[]).includes(input);
}

function cloneInputs(inputs: EventInputs): EventInputs {
  return {
    ...inputs,
    numeric: { ...inputs.numeric },
    categorical: { ...inputs.categorical },
    upperBounds: [...inputs.upperBounds],
    sources: { ...inputs.sources },
    problems: [...inputs.problems],
  };
}

/** The calendar date `months` before `date` (YYYY-MM-DD), the day clamped to the shorter month's end. */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - Math.floor(months);
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}
