import { eventDateOf } from '../../scoring/event-date.js';
import { defaultInputCodes, NUMERIC_INPUTS, type NumericInput } from '../../scoring/input-codes.js';
import { inputLabel } from '../../scoring/input-labels.js';
import { type EventInputs, readInputs } from '../../scoring/inputs.js';
import type { HealthEventInput, PredictorInput } from '../../scoring/types.js';
import { conversionFactor } from '../../scoring/units.js';
import type { OptimalRange, OptimalRangeSource } from './optimal-ranges.js';

export type RangeStatus = 'optimal' | 'above' | 'below';

/** The lab's own reference range of the value shown, in the row's unit. */
export interface LabRange {
  low: number | null;
  high: number | null;
}

/** One biomarker across the series, in the unit the scoring models use (so events are comparable). */
export interface BiomarkerRow {
  input: NumericInput;
  label: string;
  /** UCUM unit of every value in this row. */
  unit: string;
  /** One entry per event (its own measurement), null where the event did not carry the biomarker. */
  values: Array<number | null>;
  /** The most recent value measured, at the latest event or before it. */
  latest: number | null;
  /** When `latest` was measured: its event's date (null when the request has no dates) and age. */
  latest_date: string | null;
  latest_age: number | null;
  /** Whether `latest` was measured at the report's latest event (otherwise it is shown with its date). */
  latest_is_current: boolean;
  /** The value measured before `latest`. */
  previous: number | null;
  /** The latest value was a '<x' reporting limit read as x. */
  latest_upper_bound: boolean;
  /** The latest value carries doubts from extraction (an OCR misreading ...). */
  latest_doubtful: boolean;
  optimal: OptimalRange | null;
  /** The lab's reference range printed with the latest value; drawn where no optimal range is published. */
  lab_range: LabRange | null;
  status: RangeStatus | null;
  /** Population percentile (1-99) of the latest value for the same sex and age; null where unknown. */
  percentile: number | null;
}

function rangeStatus(value: number | null, range: { low: number | null; high: number | null } | null) {
  if (value === null || !range) return null;
  if (range.low !== null && value < range.low) return 'below';
  if (range.high !== null && value > range.high) return 'above';
  return 'optimal';
}

export type PercentileSource = (input: NumericInput, value: number) => number | null;

/**
 * Rows for every numeric model input measured at any event, in the fixed order of input-codes.json. Each
 * row shows the most recent measurement, with its date when it is older than the latest event, and doubted
 * values too (marked): the table shows what was measured, the scores what could be trusted.
 */
export function biomarkerRows(
  events: HealthEventInput[],
  ranges: OptimalRangeSource,
  percentile: PercentileSource = () => null,
): BiomarkerRow[] {
  const codes = defaultInputCodes();
  const inputs = events.map((event) => readInputs(event, codes, undefined, { useDoubtful: true }));
  const rows: BiomarkerRow[] = [];
  for (const input of NUMERIC_INPUTS) {
    const values = inputs.map((read) => read.numeric[input] ?? null);
    const at = lastIndex(values);
    if (at < 0) continue;
    const latest = values[at] as number;
    const read = inputs[at] as EventInputs;
    const event = events[at] as HealthEventInput;
    const source = read.sources[input];
    const carried = source?.source === 'predictor' ? source.carried_from : undefined;
    const optimal = ranges(input);
    const labRange = labRangeOf(event, read, input);
    rows.push({
      input,
      label: inputLabel(input),
      unit: codes.numeric[input].unit,
      values,
      latest,
      latest_date: carried?.event_date ?? eventDateOf(event),
      latest_age: carried?.event_age ?? event.event_age,
      latest_is_current: at === events.length - 1 && !carried,
      previous:
        values
          .slice(0, at)
          .filter((v): v is number => v !== null)
          .at(-1) ?? null,
      latest_upper_bound: read.upperBounds.includes(input),
      latest_doubtful: source?.source === 'predictor' && source.doubtful === true,
      optimal,
      lab_range: labRange,
      status: rangeStatus(latest, optimal ?? labRange),
      percentile: percentile(input, latest),
    });
  }
  return rows;
}

function lastIndex(values: Array<number | null>): number {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null) return i;
  return -1;
}

/** The reference range printed beside the value the row shows, converted to the row's unit. */
function labRangeOf(event: HealthEventInput, read: EventInputs, input: NumericInput): LabRange | null {
  const source = read.sources[input];
  if (source?.source !== 'predictor') return null;
  const predictor = event.predictors.find(
    (p: PredictorInput) => p.observation_code.trim() === source.observation_code,
  );
  const range = predictor?.reference_range;
  if (!predictor || !range || (range.low == null && range.high == null)) return null;
  const conversion = conversionFactor(predictor.unit, defaultInputCodes().numeric[input]);
  if (!('factor' in conversion)) return null;
  const scale = (v: number | null | undefined) => (v == null ? null : v * conversion.factor);
  return { low: scale(range.low), high: scale(range.high) };
}
