import type { Sex } from '../types.js';
import { positive, within } from './checks.js';
import { egfrCreatinine } from './ckd-epi.js';
import { coefficients } from './coefficients.js';

/**
 * AHA PREVENT equations, base model: sex-specific logistic equations for the 10- and 30-year risk of total
 * cardiovascular disease, atherosclerotic CVD and heart failure, ages 30-79. Khan SS et al. Circulation
 * 2024;149(6):430-449, Supplemental Table S12. Coefficients, term definitions, input ranges and their
 * sources: data/scoring/prevent.json. Each outcome is its own model id, so a missing BMI (heart failure only)
 * costs the heart-failure risk and nothing else.
 */
export const PREVENT_TOTAL_CVD_ID = 'prevent_total_cvd';
export const PREVENT_ASCVD_ID = 'prevent_ascvd';
export const PREVENT_HEART_FAILURE_ID = 'prevent_heart_failure';

export type PreventOutcome = 'totalCvd' | 'ascvd' | 'heartFailure';

export const PREVENT_IDS: Record<PreventOutcome, string> = {
  totalCvd: PREVENT_TOTAL_CVD_ID,
  ascvd: PREVENT_ASCVD_ID,
  heartFailure: PREVENT_HEART_FAILURE_ID,
};

/** Kidney function: serum creatinine (eGFR by CKD-EPI 2021, as PREVENT was derived) or a reported eGFR. */
export type PreventKidney = { creatinineMgDl: number } | { egfr: number };

export interface PreventInputs {
  /** Years; the equations are valid for 30-79. */
  ageYears: number;
  sex: Sex;
  /** mg/dL. */
  totalCholesterolMgDl: number;
  /** mg/dL. */
  hdlMgDl: number;
  /** mm Hg. */
  systolicBpMmHg: number;
  /** On blood-pressure-lowering treatment. */
  bpTreated: boolean;
  /** Current smoker. */
  smoker: boolean;
  diabetic: boolean;
  /** On statin therapy. */
  statin: boolean;
  kidney: PreventKidney;
  /** kg/m2; used by the heart-failure equations only, which require it. */
  bmi?: number;
}

export interface PreventResult {
  /** 10-year risk, fraction 0-1 (the value the report shows). */
  value: number;
  unit: '1';
  outcome: PreventOutcome;
  risk10y: number;
  /** 30-year risk, fraction 0-1; null from age 60, where Khan 2024 give no 30-year estimate. */
  risk30y: number | null;
  logOdds10y: number;
  logOdds30y: number;
  /** The eGFR the equations used, mL/min/1.73 m2. */
  egfr: number;
  egfrSource: 'ckd_epi_2021_creatinine' | 'reported';
}

type Horizon = '10y' | '30y';
type Term =
  | 'age'
  | 'ageSquared'
  | 'nonHdl'
  | 'hdl'
  | 'sbpBelow110'
  | 'sbpAbove110'
  | 'diabetes'
  | 'smoker'
  | 'bmiBelow30'
  | 'bmiAbove30'
  | 'egfrBelow60'
  | 'egfrAbove60'
  | 'bpTreated'
  | 'statin'
  | 'bpTreatedXsbpAbove110'
  | 'statinXnonHdl'
  | 'ageXnonHdl'
  | 'ageXhdl'
  | 'ageXsbpAbove110'
  | 'ageXdiabetes'
  | 'ageXsmoker'
  | 'ageXbmiAbove30'
  | 'ageXegfrBelow60'
  | 'constant';

type Range = [number, number];

interface PreventFile {
  validAges: Range;
  risk30yMaxAge: number;
  inputRanges: { totalCholesterol: Range; hdl: Range; systolicBp: Range; bmi: Range; egfr: Range };
  cholesterolMmolPerMgDl: number;
  /** ageSquared appears in the 30-year equations only; a term absent from an equation counts 0. */
  equations: Record<Horizon, Record<Sex, Record<PreventOutcome, Partial<Record<Term, number>>>>>;
  optimalProfile: {
    totalCholesterol: number;
    hdl: number;
    systolicBp: number;
    egfr: number;
  };
}

const file = (): PreventFile => coefficients<PreventFile>('prevent');

export function preventValidAges(): Range {
  return file().validAges;
}

/** The model of one outcome: validates the inputs, then both horizons of the logistic equation. */
export function preventRisk(outcome: PreventOutcome): (inputs: PreventInputs) => PreventResult {
  return (inputs) => {
    const f = file();
    const id = PREVENT_IDS[outcome];
    const [minAge, maxAge] = f.validAges;
    within(id, 'age', inputs.ageYears, minAge, maxAge);
    const r = f.inputRanges;
    within(id, 'totalCholesterol', inputs.totalCholesterolMgDl, ...r.totalCholesterol);
    within(id, 'hdl', inputs.hdlMgDl, ...r.hdl);
    within(id, 'systolicBp', inputs.systolicBpMmHg, ...r.systolicBp);
    if (outcome === 'heartFailure') within(id, 'bmi', inputs.bmi ?? Number.NaN, ...r.bmi);
    const { egfr, source } = preventEgfr(id, inputs);
    within(id, 'egfr', egfr, ...r.egfr);
    const logOdds10y = logOdds('10y', outcome, inputs, egfr, inputs.ageYears);
    const logOdds30y = logOdds('30y', outcome, inputs, egfr, inputs.ageYears);
    const risk10y = logistic(logOdds10y);
    return {
      value: risk10y,
      unit: '1',
      outcome,
      risk10y,
      risk30y: inputs.ageYears <= f.risk30yMaxAge ? logistic(logOdds30y) : null,
      logOdds10y,
      logOdds30y,
      egfr,
      egfrSource: source,
    };
  };
}

/**
 * 10-year risk of an outcome as a function of age for fixed risk factors (and a fixed eGFR), for the health
 * age search. Ages outside the valid range are the caller's concern.
 */
export function preventRiskByAge(
  outcome: PreventOutcome,
  inputs: Omit<PreventInputs, 'ageYears' | 'kidney'> & { egfr: number },
): (ageYears: number) => number {
  const full: PreventInputs = { ...inputs, ageYears: 0, kidney: { egfr: inputs.egfr } };
  return (ageYears) => logistic(logOdds('10y', outcome, full, inputs.egfr, ageYears));
}

/** The optimal profile at an age and sex (data/scoring/prevent.json optimalProfile). */
export function preventOptimalProfile(sex: Sex): Omit<PreventInputs, 'ageYears' | 'kidney'> & {
  egfr: number;
} {
  const o = file().optimalProfile;
  return {
    sex,
    totalCholesterolMgDl: o.totalCholesterol,
    hdlMgDl: o.hdl,
    systolicBpMmHg: o.systolicBp,
    bpTreated: false,
    smoker: false,
    diabetic: false,
    statin: false,
    egfr: o.egfr,
  };
}

function preventEgfr(
  id: string,
  inputs: PreventInputs,
): { egfr: number; source: PreventResult['egfrSource'] } {
  if ('egfr' in inputs.kidney) return { egfr: positive(id, 'egfr', inputs.kidney.egfr), source: 'reported' };
  const { value } = egfrCreatinine({
    ageYears: inputs.ageYears,
    sex: inputs.sex,
    creatinineMgDl: inputs.kidney.creatinineMgDl,
  });
  return { egfr: value, source: 'ckd_epi_2021_creatinine' };
}

/** The sum of coefficient x term of one equation (terms as in data/scoring/prevent.json `terms`). */
function logOdds(
  horizon: Horizon,
  outcome: PreventOutcome,
  inputs: PreventInputs,
  egfr: number,
  ageYears: number,
): number {
  const f = file();
  const c = f.equations[horizon][inputs.sex][outcome];
  const mmol = f.cholesterolMmolPerMgDl;
  const age = (ageYears - 55) / 10;
  const nonHdl =
    (positive(PREVENT_IDS[outcome], 'totalCholesterol', inputs.totalCholesterolMgDl) -
      positive(PREVENT_IDS[outcome], 'hdl', inputs.hdlMgDl)) *
      mmol -
    3.5;
  const hdl = (inputs.hdlMgDl * mmol - 1.3) / 0.3;
  const sbp = inputs.systolicBpMmHg;
  const sbpBelow110 = (Math.min(sbp, 110) - 110) / 20;
  const sbpAbove110 = (Math.max(sbp, 110) - 130) / 20;
  // BMI enters the heart-failure equations only; the others have zero coefficients for it.
  const bmi = inputs.bmi;
  const bmiBelow30 = bmi === undefined ? 0 : (Math.min(bmi, 30) - 25) / 5;
  const bmiAbove30 = bmi === undefined ? 0 : (Math.max(bmi, 30) - 30) / 5;
  const egfrBelow60 = (Math.min(egfr, 60) - 60) / -15;
  const egfrAbove60 = (Math.max(egfr, 60) - 90) / -15;
  const diabetes = inputs.diabetic ? 1 : 0;
  const smoker = inputs.smoker ? 1 : 0;
  const bpTreated = inputs.bpTreated ? 1 : 0;
  const statin = inputs.statin ? 1 : 0;
  const terms: Record<Term, number> = {
    age,
    ageSquared: age * age,
    nonHdl,
    hdl,
    sbpBelow110,
    sbpAbove110,
    diabetes,
    smoker,
    bmiBelow30,
    bmiAbove30,
    egfrBelow60,
    egfrAbove60,
    bpTreated,
    statin,
    bpTreatedXsbpAbove110: bpTreated * sbpAbove110,
    statinXnonHdl: statin * nonHdl,
    ageXnonHdl: age * nonHdl,
    ageXhdl: age * hdl,
    ageXsbpAbove110: age * sbpAbove110,
    ageXdiabetes: age * diabetes,
    ageXsmoker: age * smoker,
    ageXbmiAbove30: age * bmiAbove30,
    ageXegfrBelow60: age * egfrBelow60,
    constant: 1,
  };
  let sum = 0;
  for (const [term, coefficient] of Object.entries(c) as [Term, number][]) sum += coefficient * terms[term];
  return sum;
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
