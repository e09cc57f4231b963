import { Gather } from '../gather.js';
import type { EventInputs } from '../inputs.js';
import { ageBand, checkRanges, type ModelSpec, type ValidRange } from '../spec.js';
import type { Sex, SolvedAge } from '../types.js';
import { positive } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * Framingham general cardiovascular disease 10-year risk (lab version) and heart (vascular) age.
 * D'Agostino RB Sr et al. Circulation 2008;117(6):743-753, Table 2. Coefficients: data/scoring/framingham.json.
 */
export const FRAMINGHAM_ID = 'framingham_cvd_10y';
export const HEART_AGE_ID = 'heart_age';

export interface FraminghamInputs {
  /** Years; the model was derived for 30-74. */
  ageYears: number;
  sex: Sex;
  /** mg/dL. */
  totalCholesterolMgDl: number;
  /** mg/dL. */
  hdlMgDl: number;
  /** mm Hg. */
  systolicBpMmHg: number;
  bpTreated: boolean;
  smoker: boolean;
  diabetic: boolean;
}

export interface FraminghamResult {
  /** 10-year general CVD risk, fraction 0-1. */
  value: number;
  unit: '1';
  /** Sum of coefficient x value. */
  individualSum: number;
}

export interface HeartAgeResult extends SolvedAge {
  unit: 'a';
  /** The solution before clamping to the valid age range, years. */
  unclamped: number;
}

interface FraminghamCoefficients {
  lnAge: number;
  lnTotalCholesterol: number;
  lnHdl: number;
  lnUntreatedSbp: number;
  lnTreatedSbp: number;
  smoker: number;
  diabetes: number;
  meanSum: number;
  baselineSurvival: number;
}

interface FraminghamFile {
  source: string;
  validAges: [number, number];
  equations: Record<Sex, FraminghamCoefficients>;
  normalProfile: { totalCholesterol: number; hdl: number; systolicBp: number };
}

const file = (): FraminghamFile => coefficients<FraminghamFile>('framingham');

export function framinghamValidAges(): [number, number] {
  return file().validAges;
}

/** The ranges the model was derived for, in the order they are checked (data/scoring/framingham.json). */
export function framinghamRanges(): ValidRange<FraminghamInputs>[] {
  const f = file();
  return [ageBand(f.validAges, f.source)];
}

export function framinghamRisk(inputs: FraminghamInputs): FraminghamResult {
  checkRanges(FRAMINGHAM_ID, framinghamRanges(), inputs);
  const age = inputs.ageYears;
  const c = file().equations[inputs.sex];
  const individualSum = c.lnAge * Math.log(age) + riskFactorSum(inputs);
  return { value: 1 - c.baselineSurvival ** Math.exp(individualSum - c.meanSum), unit: '1', individualSum };
}

/**
 * Heart age: the age at which a person of the same sex with the paper's normal risk factor values has the
 * same risk. Age enters the model only through lnAge, so equal sums give the closed form
 * heartAge = age * exp((sum_person - sum_normal) / b_lnAge); no search is needed. Clamped to the model's
 * valid ages, and flagged, when the solution falls outside them.
 */
export function heartAge(inputs: FraminghamInputs): HeartAgeResult {
  const [minAge, maxAge] = framinghamValidAges();
  checkRanges(HEART_AGE_ID, framinghamRanges(), inputs);
  const age = inputs.ageYears;
  const c = file().equations[inputs.sex];
  const normal = framinghamNormalProfile(age, inputs.sex);
  const unclamped = age * Math.exp((riskFactorSum(inputs) - riskFactorSum(normal)) / c.lnAge);
  const clamped = unclamped < minAge ? 'below' : unclamped > maxAge ? 'above' : null;
  const value = clamped === 'below' ? minAge : clamped === 'above' ? maxAge : unclamped;
  return { value, unit: 'a', clamped, unclamped };
}

/** D'Agostino 2008's normal risk factor values: TC 180, HDL 45, SBP 125 untreated, no smoking, no diabetes. */
export function framinghamNormalProfile(ageYears: number, sex: Sex): FraminghamInputs {
  const n = file().normalProfile;
  return {
    ageYears,
    sex,
    totalCholesterolMgDl: n.totalCholesterol,
    hdlMgDl: n.hdl,
    systolicBpMmHg: n.systolicBp,
    bpTreated: false,
    smoker: false,
    diabetic: false,
  };
}

/** Every term of the sum except age's. */
function riskFactorSum(inputs: FraminghamInputs): number {
  const c = file().equations[inputs.sex];
  const lnSbp = Math.log(positive(FRAMINGHAM_ID, 'systolicBp', inputs.systolicBpMmHg));
  return (
    c.lnTotalCholesterol *
      Math.log(positive(FRAMINGHAM_ID, 'totalCholesterol', inputs.totalCholesterolMgDl)) +
    c.lnHdl * Math.log(positive(FRAMINGHAM_ID, 'hdl', inputs.hdlMgDl)) +
    (inputs.bpTreated ? c.lnTreatedSbp : c.lnUntreatedSbp) * lnSbp +
    (inputs.smoker ? c.smoker : 0) +
    (inputs.diabetic ? c.diabetes : 0)
  );
}

function gatherFramingham(ev: EventInputs) {
  const g = new Gather(ev);
  return g.done({
    ageYears: g.age(),
    sex: g.sex(),
    totalCholesterolMgDl: g.num('total_cholesterol'),
    hdlMgDl: g.num('hdl_cholesterol'),
    systolicBpMmHg: g.num('systolic_bp'),
    bpTreated: g.flag('bp_treatment'),
    smoker: g.flag('smoking'),
    diabetic: g.flag('diabetes'),
  });
}

const FRAMINGHAM_INPUTS = [
  { input: 'age', unit: 'a' },
  { input: 'sex', unit: '' },
  { input: 'total_cholesterol', unit: 'mg/dL' },
  { input: 'hdl_cholesterol', unit: 'mg/dL' },
  { input: 'systolic_bp', unit: 'mm[Hg]' },
  { input: 'bp_treatment', unit: '' },
  { input: 'smoking', unit: '' },
  { input: 'diabetes', unit: '' },
] as const;

const CITATION = "D'Agostino RB Sr et al. Circulation 2008;117(6):743-753, Table 2";

export const FRAMINGHAM: ModelSpec<FraminghamInputs, FraminghamResult> = {
  id: FRAMINGHAM_ID,
  name: 'Framingham general CVD',
  citation: CITATION,
  inputs: FRAMINGHAM_INPUTS,
  ranges: framinghamRanges,
  gather: gatherFramingham,
  compute: framinghamRisk,
  output: (r) => ({ value: r.value, unit: r.unit, individual_sum: r.individualSum }),
};

export const HEART_AGE: ModelSpec<FraminghamInputs, HeartAgeResult> = {
  id: HEART_AGE_ID,
  name: 'Framingham heart age',
  citation: CITATION,
  inputs: FRAMINGHAM_INPUTS,
  ranges: framinghamRanges,
  gather: gatherFramingham,
  compute: heartAge,
  output: (r) => ({ value: r.value, unit: r.unit, clamped: r.clamped, unclamped: r.unclamped }),
};
