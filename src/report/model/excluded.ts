/**
 * Values that were measured but did not enter the scores, and values that did despite a doubt: each with
 * its name, date and why, for the methods page and the command's output. A doubted value never changes a
 * score without a word.
 */
import { eventDateOf } from '../../scoring/event-date.js';
import { defaultInputCodes } from '../../scoring/input-codes.js';
import { inputLabel } from '../../scoring/input-labels.js';
import { type InputProblem, readInputs } from '../../scoring/inputs.js';
import type { HealthEventInput, PredictorInput, ScoringMetadata } from '../../scoring/types.js';

export interface ValueNote {
  /** The name as printed, or the model input's label. */
  name: string;
  /** The model input it would have supplied. */
  input: string;
  observation_code: string;
  date: string | null;
  event_age: number;
  value: string;
  unit: string;
  /** Why it is left out, or (for a value used on request) what was doubted. */
  why: string;
}

const WHY: Record<InputProblem['reason'], string> = {
  doubtful: 'doubted by extraction',
  not_numeric: 'text where a number is needed',
  censored_value: 'a bound (>x), not a value',
  unit_missing: 'no unit',
  unit_unknown: 'a unit that is not recognised',
  unit_not_convertible: "a unit that does not convert to the model's unit",
  unknown_value: 'an answer the scoring does not know',
};

/** Values of scoring inputs that the scores left out: every doubted reading, and one entry per code else. */
export function excludedValues(events: readonly HealthEventInput[], metadata?: ScoringMetadata): ValueNote[] {
  const codes = defaultInputCodes();
  return events.flatMap((event) => {
    const problems = readInputs(event, codes, metadata).problems;
    const doubted = new Map(
      problems.filter((p) => p.reason === 'doubtful').map((p) => [p.observation_code?.trim(), p.input]),
    );
    const notes = event.predictors.flatMap((predictor) => {
      const input = doubted.get(predictor.observation_code.trim());
      return input && predictor.doubts?.length ? [note(event, predictor, input, doubtText(predictor))] : [];
    });
    const seen = new Set<string>();
    for (const problem of problems) {
      const code = problem.observation_code;
      const predictor = code ? predictorOf(event, code) : undefined;
      if (!code || !predictor || problem.reason === 'doubtful' || seen.has(code)) continue;
      seen.add(code);
      const why =
        problem.reason === 'unit_not_convertible' || problem.reason === 'unit_unknown'
          ? `${WHY[problem.reason]} (${predictor.unit || 'none'})`
          : WHY[problem.reason];
      notes.push(note(event, predictor, problem.input, why));
    }
    return notes;
  });
}

/** Values scored although doubted, because the request asked for them (use_doubtful). */
export function doubtfulUsed(events: readonly HealthEventInput[], metadata?: ScoringMetadata): ValueNote[] {
  if (metadata?.use_doubtful !== true) return [];
  const codes = defaultInputCodes();
  return events.flatMap((event) => {
    const read = readInputs(event, codes, metadata);
    return Object.entries(read.sources).flatMap(([input, source]) => {
      if (source?.source !== 'predictor' || !source.doubtful) return [];
      const predictor = predictorOf(event, source.observation_code);
      return predictor ? [note(event, predictor, input, doubtText(predictor))] : [];
    });
  });
}

function predictorOf(event: HealthEventInput, code: string): PredictorInput | undefined {
  return event.predictors.find((p) => p.observation_code.trim() === code.trim());
}

function doubtText(predictor: PredictorInput): string {
  const doubts = predictor.doubts ?? [];
  if (doubts.some((d) => d.code === 'conflict')) return 'two different values on one date';
  return doubts.map((d) => doubtWords(d.code)).join('; ');
}

/** A doubt code in a patient's words; an unknown code spelt out. */
export function doubtWords(code: string): string {
  return DOUBT_WORDS[code] ?? code.replaceAll('_', ' ');
}

/** Extraction's doubt codes (src/lab/pipeline/table/doubts.ts) in a patient's words. */
const DOUBT_WORDS: Record<string, string> = {
  ocr_suspect_decimal: 'the scan may have lost a decimal point',
  ocr_low_confidence: 'the scan was hard to read',
  ocr_repaired: 'a misread character was repaired',
  ocr_malformed_value: 'the value is not in a shape labs print',
  ocr_value_like_range: 'the value looks like a reference bound',
  ocr_flag_disagrees: "the value and the lab's high/low flag disagree",
  ocr_far_outside_range: 'the value is far outside its range, with no flag to confirm it',
  ocr_range_missing: 'its reference range was not read',
  ocr_unit_of_another_kind: "its unit is not one this test is reported in; the row's cells may be mixed up",
  ocr_unit_unlike_page: "its unit is spelt unlike the page's other tests of that unit",
  missing_result_value: 'no value was read',
  suspicious_result_value: 'the value mixes digits and letters',
  unparsed_reference_range: 'the reference range could not be read',
  unit_unrecognised: 'the unit is not one labs print',
  range_suspect: 'the reference range looks misread',
  comparator_lost: 'a < or > may have been lost',
  value_truncated: 'the value looks cut short',
  ocr_unit_missing: 'the scan lost the unit',
  ocr_cells_missing: 'the scan lost the unit and range',
  ocr_extra_digit: 'the scan may have added a digit',
  preliminary: 'marked preliminary by its source',
};

function note(event: HealthEventInput, predictor: PredictorInput, input: string, why: string): ValueNote {
  return {
    name: predictor.name ?? inputLabel(input),
    input,
    observation_code: predictor.observation_code,
    date: predictor.date ?? eventDateOf(event),
    event_age: event.event_age,
    value: predictor.value,
    unit: predictor.unit,
    why,
  };
}
