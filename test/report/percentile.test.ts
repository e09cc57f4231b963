import { describe, expect, it } from 'vitest';
import { PERCENTILES, populationTable } from '../../src/refdata/population.js';
import { populationPercentile } from '../../src/report/model/refdata-ranges.js';
import { defaultInputCodes, NUMERIC_INPUTS, type NumericInput } from '../../src/scoring/input-codes.js';
import type { Sex } from '../../src/scoring/types.js';
import { ucumFactor } from '../../src/scoring/units.js';

/** The lookup as it was before its rows were indexed once per input and sex: the answers must not move. */
function percentileByScan(input: NumericInput, value: number, sex: Sex, age: number): number | null {
  const spec = defaultInputCodes().numeric[input];
  const codes = new Set(spec.codes);
  const rows = populationTable().rows.filter((r) => codes.has(r.loinc) && r.sex === sex);
  if (rows.length === 0) return null;
  const ages = rows.map((r) => r.age);
  const year = Math.min(Math.max(Math.round(age), Math.min(...ages)), Math.max(...ages));
  const row = rows.find((r) => r.age === year);
  if (!row) return null;
  let factor: number | null;
  try {
    factor = row.unit === spec.unit ? 1 : ucumFactor(row.unit, spec.unit, spec.analyte);
  } catch {
    factor = null;
  }
  if (factor === null) return null;
  const q = row.quantiles.map((v) => v * factor);
  if (value <= (q[0] as number)) return 1;
  if (value >= (q[q.length - 1] as number)) return 99;
  for (let i = 1; i < q.length; i++) {
    const hi = q[i] as number;
    const lo = q[i - 1] as number;
    if (value <= hi) {
      const t = hi > lo ? (value - lo) / (hi - lo) : 0.5;
      const pLo = PERCENTILES[i - 1] as number;
      return Math.round((pLo + t * ((PERCENTILES[i] as number) - pLo)) * 100);
    }
  }
  return null;
}

describe('populationPercentile', () => {
  it('answers as a scan of the NHANES rows does, for every input, both sexes, ages in and out of the table', () => {
    let answered = 0;
    for (const input of NUMERIC_INPUTS) {
      for (const sex of ['female', 'male'] as const) {
        for (const age of [5, 18.4, 30, 45.5, 62.49, 79.51, 85, 120]) {
          for (const value of [-1, 0, 0.5, 1, 3.2, 7, 15, 42, 99.9, 140, 250, 1e4]) {
            const expected = percentileByScan(input, value, sex, age);
            expect(populationPercentile(input, value, sex, age), `${input} ${sex} ${age} ${value}`).toBe(
              expected,
            );
            if (expected !== null && expected > 1 && expected < 99) answered++;
          }
        }
      }
    }
    expect(answered).toBeGreaterThan(100);
    expect(populationPercentile(NUMERIC_INPUTS[0], 50, null, 40)).toBeNull();
  });
});
