import { ModelInputError } from './errors.js';
import type { Gathered, InputName } from './gather.js';
import type { EventInputs } from './inputs.js';
import type { ModelOutput } from './types.js';

/**
 * A published model in one place: what it reads (inputs, with the unit the model takes each in), the input
 * ranges it was derived and validated for (each with its source), how it computes, and the report shape of
 * its result. Domains (domains.ts) reference specs; they never reach into a model's internals.
 */
export interface ModelSpec<I = never, R = never> {
  /** The model id of the report model (models, models_not_computed, DomainScore.model). */
  readonly id: string;
  /** Readers' name, for model_reason. */
  readonly name: string;
  /** The paper, as data/SOURCES.md lists it. */
  readonly citation: string;
  /** Every input the model reads, in the unit it takes it in (the event's unit is input-codes.json's). */
  readonly inputs: readonly ModelInputSpec[];
  /**
   * The ranges an input must lie in for the model to be computed, checked in order before computing (the
   * first one outside is the reason). From the model's data file, so read on demand.
   */
  ranges(): readonly ValidRange<I>[];
  /** The model's inputs out of an event's inputs, or the names missing. */
  gather(ev: EventInputs): Gathered<I>;
  /** The model itself; checks ranges() first and throws ModelInputError outside them. */
  compute(inputs: I): R;
  /** The result as the report model carries it (snake_case). */
  output(result: R): ModelOutput;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of specs of different input and result types.
export type AnyModelSpec = ModelSpec<any, any>;

export interface ModelInputSpec {
  /** Event input (data/scoring/input-codes.json) or 'age' (event_age). */
  input: InputName;
  /** UCUM unit the model takes the input in; '' for a category or yes/no input. */
  unit: string;
  /**
   * 'optional': refines the model when present; 'alternative': stands in for the input before it in the
   * list when that one is absent (a reported eGFR for creatinine). Absent: required.
   */
  use?: 'optional' | 'alternative';
}

/** A closed range [min, max] of one model parameter, as published. */
export interface ValidRange<I> {
  /** The model parameter the reason names ('age', 'hdl', 'egfr'; input-labels.ts words them). */
  parameter: string;
  min: number;
  max: number;
  /** UCUM unit of min and max. */
  unit: string;
  /**
   * Ages counted as the papers count them, in completed years: an age is inside [30, 79] while
   * floor(age) is (79.9 is 79 years old). See data/SOURCES.md, "Age bands".
   */
  completedYears?: boolean;
  /** max itself is outside (a diagnostic threshold such as fasting glucose 126 mg/dL). */
  exclusiveMax?: boolean;
  /** How the range reads in a reason, when not '[min, max]'. */
  describe?: string;
  /** Where the range comes from. */
  source: string;
  /** The value checked, or undefined when an optional input is absent. */
  of(inputs: I): number | undefined;
}

/** A model's age band, counted in completed years as the papers count ages (data/SOURCES.md, Age bands). */
export function ageBand<I extends { ageYears: number }>(
  [min, max]: readonly [number, number],
  source: string,
): ValidRange<I> {
  return { parameter: 'age', min, max, unit: 'a', completedYears: true, source, of: (i) => i.ageYears };
}

/** Whether a value lies inside a range (NaN never does). */
export function inRange(range: Omit<ValidRange<unknown>, 'of' | 'source'>, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const v = range.completedYears ? Math.floor(value) : value;
  return v >= range.min && (range.exclusiveMax ? v < range.max : v <= range.max);
}

/** '[20, 100] mg/dL'; ages and unitless ranges without a unit. */
export function describeRange(range: Omit<ValidRange<unknown>, 'of' | 'source'>): string {
  if (range.describe) return range.describe;
  const unit = range.unit === 'a' || range.unit === '1' || range.unit === '' ? '' : ` ${range.unit}`;
  return `[${range.min}, ${range.max}${range.exclusiveMax ? ')' : ']'}${unit}`;
}

/** Throws ModelInputError for the first range the inputs are outside of. */
export function checkRanges<I>(model: string, ranges: readonly ValidRange<I>[], inputs: I): void {
  for (const range of ranges) {
    const value = range.of(inputs);
    if (value === undefined) continue;
    if (!inRange(range, value))
      throw new ModelInputError(model, range.parameter, value, describeRange(range));
  }
}
