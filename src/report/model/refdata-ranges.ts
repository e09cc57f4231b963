import { readFileSync } from 'node:fs';
import { refdataPath } from '../../refdata/paths.js';
import { PERCENTILES, type PopulationRow, populationTable } from '../../refdata/population.js';
import { defaultInputCodes, type NumericInput } from '../../scoring/input-codes.js';
import type { Sex } from '../../scoring/types.js';
import { ucumFactor } from '../../scoring/units.js';
import { type OptimalRangeSource, scoringOptimalRanges } from './optimal-ranges.js';

type BySex = number | Record<Sex, number>;

interface PredictorDefinition {
  nhanes: string;
  observation_codes: string[];
  optimal: { min: BySex; max: BySex };
  optimalSource: string;
}

let predictors: PredictorDefinition[] | undefined;

/** data/refdata/predictors.json: guideline optimal ranges, in the unit of the NHANES biomarker. */
function definitions(): PredictorDefinition[] {
  predictors ??= (
    JSON.parse(readFileSync(refdataPath('predictors.json'), 'utf8')) as { predictors: PredictorDefinition[] }
  ).predictors;
  return predictors;
}

const forSex = (value: BySex, sex: Sex): number => (typeof value === 'number' ? value : value[sex]);

/**
 * `compute()` once per owner object and key. The owners are the data files as read (the NHANES table, the
 * scoring layer's input codes): a report looks every biomarker up, and filtering the whole table each time
 * was the largest part of building a report's model in a batch. Answers go with the data they came from.
 */
function memoised<K, V>(cache: WeakMap<object, Map<K, V>>, owner: object, key: K, compute: () => V): V {
  let byKey = cache.get(owner);
  if (!byKey) {
    byKey = new Map();
    cache.set(owner, byKey);
  }
  if (byKey.has(key)) return byKey.get(key) as V;
  const value = compute();
  byKey.set(key, value);
  return value;
}

const rowsByTable = new WeakMap<object, Map<NumericInput, readonly PopulationRow[]>>();

/** The NHANES rows of a model input: matched by LOINC code, as both files list codes. */
function populationRows(input: NumericInput): readonly PopulationRow[] {
  const table = populationTable();
  return memoised(rowsByTable, table, input, () => {
    const codes = new Set(defaultInputCodes().numeric[input].codes);
    return table.rows.filter((r) => codes.has(r.loinc));
  });
}

const factorsByCodes = new WeakMap<object, Map<string, number | null>>();

/** Factor from a reference unit to the unit the report shows the input in; null when they do not convert. */
function factorTo(input: NumericInput, fromUcum: string): number | null {
  const codes = defaultInputCodes();
  return memoised(factorsByCodes, codes, `${input}\0${fromUcum}`, () => {
    const spec = codes.numeric[input];
    if (fromUcum === spec.unit) return 1;
    try {
      return ucumFactor(fromUcum, spec.unit, spec.analyte);
    } catch {
      return null;
    }
  });
}

interface InputDefinition {
  def: PredictorDefinition | undefined;
  /** From the definition's NHANES unit to the report's. */
  factor: number | null;
}

const definitionsByCodes = new WeakMap<object, Map<NumericInput, InputDefinition>>();

/** An input's predictor definition and the factor from its NHANES unit. */
function definitionOf(input: NumericInput): InputDefinition {
  const inputCodes = defaultInputCodes();
  return memoised(definitionsByCodes, inputCodes, input, () => {
    const codes = new Set(inputCodes.numeric[input].codes);
    const def = definitions().find((d) => d.observation_codes.some((c) => codes.has(c)));
    const unit = def ? populationTable().rows.find((r) => r.biomarker === def.nhanes)?.unit : undefined;
    return { def, factor: unit ? factorTo(input, unit) : null };
  });
}

/**
 * Optimal ranges from the reference data's predictor definitions (guideline cut-points, SPEC.md C3
 * optimal_min/optimal_max) for the person's sex, converted to the report's units. Inputs the reference data
 * does not cover fall back to the scoring layer's optimal profile. A lower bound of 0 reads as "up to".
 */
export function refdataOptimalRanges(sex: Sex | null): OptimalRangeSource {
  return (input) => {
    if (!sex) return scoringOptimalRanges(input);
    const { def, factor } = definitionOf(input);
    if (!def || factor === null) return scoringOptimalRanges(input);
    const min = forSex(def.optimal.min, sex) * factor;
    const max = forSex(def.optimal.max, sex) * factor;
    return { low: min > 0 ? min : null, high: max, source: def.optimalSource };
  };
}

/** An input's NHANES rows for one sex, by year of age, with their quantiles in the report's unit. */
interface SexRows {
  minAge: number;
  maxAge: number;
  /** The first row of each year of age, with its quantiles scaled (null where its unit does not convert). */
  byAge: Map<number, readonly number[] | null>;
}

const sexRowsByTable = new WeakMap<object, Map<string, SexRows | null>>();

/**
 * Once per input and sex: a report looks up every biomarker, and filtering the input's rows, finding the
 * age bounds and scaling the quantiles on each lookup was a tenth of building a report's model.
 */
function sexRows(input: NumericInput, sex: Sex): SexRows | null {
  return memoised(sexRowsByTable, populationTable(), `${input}\0${sex}`, () => {
    const rows = populationRows(input).filter((r) => r.sex === sex);
    if (rows.length === 0) return null;
    const ages = rows.map((r) => r.age);
    const byAge = new Map<number, readonly number[] | null>();
    for (const row of rows) {
      if (byAge.has(row.age)) continue;
      const factor = factorTo(input, row.unit);
      byAge.set(row.age, factor === null ? null : row.quantiles.map((v) => v * factor));
    }
    return { minAge: Math.min(...ages), maxAge: Math.max(...ages), byAge };
  });
}

/** Percentile (0-100) of a value among people of the same sex and year of age in NHANES; null when unknown. */
export function populationPercentile(
  input: NumericInput,
  value: number,
  sex: Sex | null,
  age: number,
): number | null {
  if (!sex) return null;
  const found = sexRows(input, sex);
  if (!found) return null;
  const year = Math.min(Math.max(Math.round(age), found.minAge), found.maxAge);
  const q = found.byAge.get(year);
  if (!q) return null;
  const first = q[0] as number;
  const last = q[q.length - 1] as number;
  if (value <= first) return 1;
  if (value >= last) return 99;
  for (let i = 1; i < q.length; i++) {
    const hi = q[i] as number;
    const lo = q[i - 1] as number;
    if (value <= hi) {
      const pLo = PERCENTILES[i - 1] as number;
      const pHi = PERCENTILES[i] as number;
      const t = hi > lo ? (value - lo) / (hi - lo) : 0.5;
      return Math.round((pLo + t * (pHi - pLo)) * 100);
    }
  }
  return null;
}
