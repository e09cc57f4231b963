import { eventDateOf } from './event-date.js';
import {
  CATEGORICAL_INPUTS,
  type CategoricalInput,
  defaultInputCodes,
  type InputCodes,
  NUMERIC_INPUTS,
  type NumericInput,
  type NumericInputSpec,
} from './input-codes.js';
import type {
  HealthEventInput,
  InputSource,
  MetadataInputMember,
  PredictorInput,
  ScoringMetadata,
} from './types.js';
import { valueConversion } from './units.js';

/**
 * Why an observation that matched an input's code, or a report_metadata member, could not be used. Exactly
 * one of observation_code and metadata_member is set.
 */
export interface InputProblem {
  input: NumericInput | CategoricalInput;
  observation_code?: string;
  metadata_member?: MetadataInputMember;
  reason:
    | 'doubtful'
    | 'not_numeric'
    | 'censored_value'
    | 'unit_missing'
    | 'unit_unknown'
    | 'unit_not_convertible'
    | 'unknown_value';
}

/**
 * report_metadata members and the categorical input each one supplies, with the category of each value
 * (categories of data/scoring/input-codes.json). A value outside these is not used (and is a problem).
 */
export const METADATA_INPUTS: Record<
  MetadataInputMember,
  { input: CategoricalInput; categories: ReadonlyMap<unknown, string> }
> = {
  sex: {
    input: 'sex',
    categories: new Map([
      ['female', 'female'],
      ['male', 'male'],
    ]),
  },
  smoker: { input: 'smoking', categories: booleanCategories() },
  bp_treated: { input: 'bp_treatment', categories: booleanCategories() },
  diabetes: { input: 'diabetes', categories: booleanCategories() },
  parental_diabetes: { input: 'parental_diabetes', categories: booleanCategories() },
  statin: { input: 'statin', categories: booleanCategories() },
  race: {
    input: 'race',
    categories: new Map([
      ['white', 'white'],
      ['african_american', 'african_american'],
      ['other', 'other'],
    ]),
  },
};

function booleanCategories(): ReadonlyMap<unknown, string> {
  return new Map<unknown, string>([
    [true, 'true'],
    [false, 'false'],
  ]);
}

/** Model inputs read out of one health event; absent inputs are absent, never zero or a default. */
export interface EventInputs {
  ageYears: number;
  /** Numeric inputs in the unit of data/scoring/input-codes.json. */
  numeric: Partial<Record<NumericInput, number>>;
  /** Categorical inputs: the category name of input-codes.json ('female', 'true', 'african_american' ...). */
  categorical: Partial<Record<CategoricalInput, string>>;
  /** Inputs whose value was a '<x' reporting limit read as x. */
  upperBounds: NumericInput[];
  /** Where each input present in numeric or categorical came from. */
  sources: Partial<Record<NumericInput | CategoricalInput, InputSource>>;
  problems: InputProblem[];
}

/** An input a code feeds, and the code's position in that input's list (lower is preferred). */
interface Feed<K> {
  input: K;
  rank: number;
}

interface CodeIndex {
  numeric: Map<string, Feed<NumericInput>[]>;
  categorical: Map<string, Feed<CategoricalInput>[]>;
  /** Per categorical input: lower-cased accepted value -> category. */
  values: Map<CategoricalInput, Map<string, string>>;
}

const indexes = new WeakMap<InputCodes, CodeIndex>();
const NONE: never[] = [];

/**
 * Read every model input of a health event. For each input the first predictor whose code is listed
 * (in the order of input-codes.json) and whose value can be read wins; unreadable ones are recorded as
 * problems and the next candidate is tried. A categorical input no predictor supplied is then taken from
 * the request's report_metadata (METADATA_INPUTS) when that member is present; otherwise it stays absent.
 */
export function readInputs(
  event: HealthEventInput,
  codes: InputCodes = defaultInputCodes(),
  metadata?: ScoringMetadata,
  opts: ReadOptions = {},
): EventInputs {
  const index = codeIndex(codes);
  const useDoubtful = opts.useDoubtful ?? metadata?.use_doubtful === true;
  const result: EventInputs = {
    ageYears: event.event_age,
    numeric: {},
    categorical: {},
    upperBounds: [],
    sources: {},
    problems: [],
  };
  const ranks = new Map<NumericInput | CategoricalInput, number>();
  for (const predictor of event.predictors) {
    const code = predictor.observation_code.trim();
    const doubt = doubtOf(predictor, useDoubtful);
    for (const { input, rank } of index.numeric.get(code) ?? NONE) {
      if (rank >= (ranks.get(input) ?? Number.POSITIVE_INFINITY)) continue;
      if (doubt === 'excluded') problem(result, input, predictor, 'doubtful');
      else if (readNumeric(result, input, codes.numeric[input], predictor)) {
        ranks.set(input, rank);
        markSource(result, input, predictor, event, doubt === 'used');
      }
    }
    for (const { input, rank } of index.categorical.get(code) ?? NONE) {
      if (rank >= (ranks.get(input) ?? Number.POSITIVE_INFINITY)) continue;
      if (doubt === 'excluded') {
        result.problems.push({ input, observation_code: code, reason: 'doubtful' });
        continue;
      }
      const category = index.values.get(input)?.get(normaliseText(predictor.value));
      if (category === undefined) {
        result.problems.push({ input, observation_code: code, reason: 'unknown_value' });
        continue;
      }
      result.categorical[input] = category;
      result.sources[input] = { source: 'predictor', observation_code: code };
      markSource(result, input, predictor, event, doubt === 'used');
      ranks.set(input, rank);
    }
  }
  if (metadata) readMetadata(result, metadata);
  return result;
}

export interface ReadOptions {
  /** Read doubted values (marked in sources); by default report_metadata.use_doubtful decides. */
  useDoubtful?: boolean;
}

/** Doubt codes that make a value unusable even on request: there is no one value to use. */
const NEVER_USED = new Set(['conflict']);

/** How a predictor's doubts weigh: none, used on request (and marked), or excluded from scoring. */
function doubtOf(predictor: PredictorInput, useDoubtful: boolean): 'none' | 'used' | 'excluded' {
  const doubts = predictor.doubts ?? [];
  if (doubts.length === 0) return 'none';
  if (!useDoubtful || doubts.some((d) => NEVER_USED.has(d.code))) return 'excluded';
  return 'used';
}

/**
 * A predictor that states its own measurement date (a snapshot's carried value) or was used despite doubts
 * says so in its source, so every place that shows the value can show its date and mark.
 */
function markSource(
  result: EventInputs,
  input: NumericInput | CategoricalInput,
  predictor: PredictorInput,
  event: HealthEventInput,
  doubtful: boolean,
): void {
  const source = result.sources[input];
  if (source?.source !== 'predictor') return;
  if (doubtful) source.doubtful = true;
  else delete source.doubtful;
  if (predictor.date && predictor.date !== eventDateOf(event))
    source.carried_from = {
      health_event_id: null,
      event_age: ageOn(event, predictor.date),
      event_date: predictor.date,
    };
  else delete source.carried_from;
}

/** The age at an earlier date, from the event's own date and age; null when the event has no date. */
function ageOn(event: HealthEventInput, date: string): number | null {
  const eventDate = eventDateOf(event);
  if (!eventDate) return null;
  const years = (Date.parse(eventDate) - Date.parse(date)) / (365.2425 * 86_400_000);
  return Math.round((event.event_age - years) * 100) / 100;
}

/** Fill the categorical inputs no predictor supplied from report_metadata; predictors always win. */
function readMetadata(result: EventInputs, metadata: ScoringMetadata): void {
  for (const [member, { input, categories }] of Object.entries(METADATA_INPUTS) as [
    MetadataInputMember,
    (typeof METADATA_INPUTS)[MetadataInputMember],
  ][]) {
    const value: unknown = metadata[member];
    if (value === undefined || value === null || result.categorical[input] !== undefined) continue;
    const category = categories.get(value);
    if (category === undefined) {
      result.problems.push({ input, metadata_member: member, reason: 'unknown_value' });
      continue;
    }
    result.categorical[input] = category;
    result.sources[input] = { source: 'report_metadata', member };
  }
  // The SDI decile is read as given: PREVENT's range check names a value that is no whole decile 1-10.
  const sdi = metadata.sdi_decile;
  if (typeof sdi === 'number' && result.categorical.sdi_decile === undefined)
    result.categorical.sdi_decile = String(sdi);
}

function readNumeric(
  result: EventInputs,
  input: NumericInput,
  spec: NumericInputSpec,
  predictor: PredictorInput,
): boolean {
  const parsed = parseNumber(predictor.value);
  if (parsed === null) return problem(result, input, predictor, 'not_numeric');
  if (parsed.bound === '>' || (parsed.bound === '<' && !spec.acceptUpperBound)) {
    return problem(result, input, predictor, 'censored_value');
  }
  const conversion = valueConversion(predictor.unit, spec);
  if ('error' in conversion) return problem(result, input, predictor, conversion.error);
  result.numeric[input] = parsed.value * conversion.factor + conversion.offset;
  const bounded = result.upperBounds.includes(input);
  if (parsed.bound === '<' && !bounded) result.upperBounds.push(input);
  if (parsed.bound === null && bounded) result.upperBounds.splice(result.upperBounds.indexOf(input), 1);
  result.sources[input] = { source: 'predictor', observation_code: predictor.observation_code.trim() };
  return true;
}

function problem(
  result: EventInputs,
  input: NumericInput,
  predictor: PredictorInput,
  reason: InputProblem['reason'],
): false {
  result.problems.push({ input, observation_code: predictor.observation_code, reason });
  return false;
}

/** Nearly every lab value is a plain decimal; it skips the general pattern below. */
const PLAIN_DECIMAL = /^\s*\d+(?:\.\d+)?\s*$/;

/** '5.4', '1,234', '<0.3', '> 60' -> number and comparator; anything else (text, ranges) -> null. */
export function parseNumber(text: string): { value: number; bound: '<' | '>' | null } | null {
  if (PLAIN_DECIMAL.test(text)) return { value: Number(text), bound: null };
  const match = /^\s*([<>])?=?\s*([+-]?(?:\d{1,3}(?:,\d{3})+|\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*$/.exec(text);
  if (!match?.[2] || !/\d/.test(match[2])) return null;
  const value = Number(match[2].replaceAll(',', ''));
  if (!Number.isFinite(value)) return null;
  const bound = match[1] === '<' || match[1] === '>' ? match[1] : null;
  return { value, bound };
}

function normaliseText(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, ' ');
}

function codeIndex(codes: InputCodes): CodeIndex {
  let index = indexes.get(codes);
  if (index) return index;
  index = { numeric: new Map(), categorical: new Map(), values: new Map() };
  for (const input of NUMERIC_INPUTS) addCodes(index.numeric, input, codes.numeric[input]?.codes ?? NONE);
  for (const input of CATEGORICAL_INPUTS) {
    const spec = codes.categorical[input];
    if (!spec) continue;
    addCodes(index.categorical, input, spec.codes);
    const values = new Map<string, string>();
    for (const [category, accepted] of Object.entries(spec.values)) {
      for (const value of accepted) values.set(normaliseText(value), category);
    }
    index.values.set(input, values);
  }
  indexes.set(codes, index);
  return index;
}

function addCodes<K>(map: Map<string, Feed<K>[]>, input: K, codes: readonly string[]): void {
  codes.forEach((code, rank) => {
    const list = map.get(code);
    if (list) list.push({ input, rank });
    else map.set(code, [{ input, rank }]);
  });
}
