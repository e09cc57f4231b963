/**
 * Values no living person can have: a glucose of -5 or 1e308 mg/dL is a typo, a wrong unit or a hostile
 * file, never a result, and it must not reach a report or a score. The limits are those of physiology and of
 * the most extreme cases published, far outside every reference range: an abnormal value, however far out,
 * is kept and scored; only an impossible one is refused (listed as unusable, left out of the request).
 */
import { defaultInputCodes, NUMERIC_INPUTS, type NumericInput } from '../../scoring/input-codes.js';
import { parseNumber } from '../../scoring/inputs.js';
import { conversionFactor } from '../../scoring/units.js';
import type { LabResult } from './lab-results.js';

/**
 * Inclusive bounds in each scoring input's own unit (data/scoring/input-codes.json). An input without a
 * line here is still refused below zero.
 */
const LIMITS: Partial<Record<NumericInput, readonly [number, number]>> = {
  total_cholesterol: [10, 3_000], // mg/dL
  hdl_cholesterol: [1, 300], // mg/dL
  triglycerides: [5, 30_000], // mg/dL; chylomicronaemia reaches the tens of thousands
  systolic_bp: [40, 320], // mm[Hg]
  diastolic_bp: [10, 220], // mm[Hg]
  glucose: [5, 4_000], // mg/dL; hyperosmolar states reach about 3,000
  insulin: [0, 5_000], // u[IU]/mL
  creatinine: [0.05, 50], // mg/dL
  cystatin_c: [0.1, 30], // mg/L
  egfr_ckd_epi_2021_reported: [1, 300], // mL/min/{1.73_m2}
  albumin: [3, 90], // g/L
  crp: [0, 1_000], // mg/L
  lymphocyte_percent: [0, 100], // %
  mcv: [30, 200], // fL
  rdw: [5, 60], // %
  alkaline_phosphatase: [1, 20_000], // U/L
  wbc: [0, 2_000], // 10*3/uL
  alt: [1, 50_000], // U/L
  ast: [1, 50_000], // U/L
  platelets: [0, 10_000], // 10*3/uL
  bmi: [5, 200], // kg/m2
  hba1c: [2, 25], // %
  ldl_cholesterol: [1, 2_500], // mg/dL
  uacr: [0, 100_000], // mg/g
  urine_albumin: [0, 50_000], // mg/L
  urine_creatinine: [1, 1_000], // mg/dL
};

/** Any quantity beyond this (in whatever unit) is not a measurement. */
const MAX_MAGNITUDE = 1e12;

let byCode: Map<string, NumericInput> | undefined;

function inputOf(code: string): NumericInput | undefined {
  if (!byCode) {
    const codes = defaultInputCodes();
    byCode = new Map(
      NUMERIC_INPUTS.flatMap((input) => (codes.numeric[input]?.codes ?? []).map((c) => [c, input])),
    );
  }
  return byCode.get(code);
}

/**
 * Whether a result's value is impossible: a number beyond any measurement, or, for a code the scoring
 * reads, below zero or outside its limits once converted to the scoring's unit. Text, and the size of a
 * value whose unit does not convert, are left to the scoring's own reasons.
 */
export function isImplausible(r: Pick<LabResult, 'code' | 'value' | 'unit' | 'doubts'>): boolean {
  if (r.value === null) return false;
  const parsed = parseNumber(r.value);
  if (!parsed) return false;
  if (Math.abs(parsed.value) > MAX_MAGNITUDE) return true;
  const input = r.code === null ? undefined : inputOf(r.code);
  if (!input) return false;
  // Every unit the scoring reads is a positive multiple of its own: below zero is impossible in any of them.
  if (parsed.value < 0 && parsed.bound !== '>') return true;
  // A value extraction already doubts (a scan that lost a decimal point) is kept out of the scores and
  // shown with why; only --use-doubtful scores it. The limits refuse what nothing can explain.
  const limits = LIMITS[input];
  if (r.doubts?.length || !limits) return false;
  const [min, max] = limits;
  const conversion = conversionFactor(r.unit, defaultInputCodes().numeric[input]);
  if (!('factor' in conversion)) return false;
  const value = parsed.value * conversion.factor;
  // A bound ('<0.2') says the value is below it: only an impossible bound is refused.
  if (parsed.bound === '<') return value < min;
  if (parsed.bound === '>') return value > max;
  return value < min || value > max;
}
