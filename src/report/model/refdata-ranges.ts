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
 * The NHANES rows of each input, found once per table: a report looks every biomarker up, and filtering the
 * whole table each time was the largest part of building a report's model in a batch.
 */
const rowsByTable = new WeakMap<object, Map<NumericInput, readonly PopulationRow[]>>();

/** The NHANES rows of a model input: matched by LOINC code, as both files list codes. */
function populationRows(input: NumericInput): readonly PopulationRow[] {
  const table = populationTable();
  let byInput = rowsByTable.get(table);
  if (!byInput) {
    byInput = new Map();
    rowsByTable.set(table, byInput);
  }
  let rows = byInput.get(input);
  if (!rows) {
    const codes = new Set(defaultInputCodes().numeric[input].codes);
    rows = table.rows.filter((r) => codes.has(r.loinc));
    byInput.set(input, rows);
  }
  return rows;
}

/** factorTo's answers, per input codes object (the scoring layer's, read once) and unit pair. */
const factorsByCodes = new WeakMap<object, Map<string, number | null>>();

/** Factor from a reference unit to the unit the report shows the input in; null when they do not convert. */
function factorTo(input: NumericInput, fromUcum: string): number | null {
  const codes = defaultInputCodes();
  let known = factorsByCodes.get(codes);
  if (!known) {
    known = new Map();
    factorsByCodes.set(codes, known);
  }
  const key = `${input}\0${fromUcum}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const spec = codes.numeric[input];
  let factor: number | null;
  if (fromUcum === spec.unit) factor = 1;
  else {
    try {
      factor = ucumFactor(fromUcum, spec.unit, spec.analyte);
    } catch {
      factor = null;
    }
  }
  known.set(key, factor);
  return factor;
}

/** An input's predictor definition and the factor from its NHANES unit, found once per data files read. */
const definitionsByCodes = new WeakMap<
  object,
  Map<NumericInput, { def: PredictorDefinition | undefined; factor: number | null }>
>();

function definitionOf(input: NumericInput): { def: PredictorDefinition | undefined; factor: number | null } {
  const inputCodes = defaultInputCodes();
  let known = definitionsByCodes.get(inputCodes);
  if (!known) {
    known = new Map();
    definitionsByCodes.set(inputCodes, known);
  }
  let found = known.get(input);
  if (!found) {
    const codes = new Set(inputCodes.numeric[input].codes);
    const def = definitions().find((d) => d.observation_codes.some((c) => codes.has(c)));
    const unit = def ? populationTable().rows.find((r) => r.biomarker === def.nhanes)?.unit : undefined;
    found = { def, factor: unit ? factorTo(input, unit) : null };
    known.set(input, found);
  }
  return found;
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

/** Percentile (0-100) of a value among people of the same sex and year of age in NHANES; null when unknown. */
export function populationPercentile(
  input: NumericInput,
  value: number,
  sex: Sex | null,
  age: number,
): number | null {
  if (!sex) return null;
  const rows = populationRows(input).filter((r) => r.sex === sex);
  if (rows.length === 0) return null;
  const ages = rows.map((r) => r.age);
  const year = Math.min(Math.max(Math.round(age), Math.min(...ages)), Math.max(...ages));
  const row = rows.find((r) => r.age === year);
  const factor = row ? factorTo(input, row.unit) : null;
  if (!row || factor === null) return null;
  const q = row.quantiles.map((v) => v * factor);
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
