import { coefficients } from './models/coefficients.js';
import type { UnitSpec } from './units.js';

/** data/scoring/input-codes.json: which observation codes feed which model input. */
export interface NumericInputSpec extends UnitSpec {
  label: string;
  codes: string[];
  /** A value printed '<x' is read as x (flagged). */
  acceptUpperBound?: boolean;
}

export interface CategoricalInputSpec {
  label: string;
  codes: string[];
  /** Category -> accepted values (LOINC answer codes or text), matched case-insensitively. */
  values: Record<string, string[]>;
}

export interface InputCodes {
  numeric: Record<NumericInput, NumericInputSpec>;
  categorical: Record<CategoricalInput, CategoricalInputSpec>;
}

export const NUMERIC_INPUTS = [
  'total_cholesterol',
  'hdl_cholesterol',
  'triglycerides',
  'systolic_bp',
  'diastolic_bp',
  'glucose',
  'insulin',
  'creatinine',
  'cystatin_c',
  'egfr_ckd_epi_2021_reported',
  'albumin',
  'crp',
  'lymphocyte_percent',
  'mcv',
  'rdw',
  'alkaline_phosphatase',
  'wbc',
  'alt',
  'ast',
  'platelets',
  'bmi',
  'hba1c',
  'ldl_cholesterol',
  'uacr',
  'urine_albumin',
  'urine_creatinine',
] as const;
export type NumericInput = (typeof NUMERIC_INPUTS)[number];

export const CATEGORICAL_INPUTS = [
  'sex',
  'smoking',
  'race',
  'diabetes',
  'bp_treatment',
  'parental_diabetes',
  'statin',
  'sdi_decile',
] as const;
export type CategoricalInput = (typeof CATEGORICAL_INPUTS)[number];

/** The shipped configuration. Callers (tests, the lead's configuration) may pass their own. */
export function defaultInputCodes(): InputCodes {
  return coefficients<InputCodes>('input-codes');
}
