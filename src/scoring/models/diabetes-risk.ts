import { ModelInputError } from '../errors.js';
import { Gather } from '../gather.js';
import type { ModelSpec } from '../spec.js';
import type { Sex } from '../types.js';
import { positive } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * Framingham Offspring 8-year risk of incident type 2 diabetes, simple clinical model. Wilson PWF et al.
 * Arch Intern Med 2007;167(10):1068-1074, Table 3 (logistic regression). Coefficients and thresholds:
 * data/scoring/framingham-diabetes.json. The model predicts incident diabetes in people without it, so a
 * fasting glucose at or above the diabetic threshold (126 mg/dL) is out of its range.
 */
export const FRAMINGHAM_DIABETES_ID = 'framingham_diabetes_8y';

export interface DiabetesRiskInputs {
  /** Years. */
  ageYears: number;
  sex: Sex;
  /** Fasting plasma glucose, mg/dL. */
  fastingGlucoseMgDl: number;
  /** kg/m2. */
  bmi: number;
  /** mg/dL. */
  hdlMgDl: number;
  /** mg/dL. */
  triglyceridesMgDl: number;
  /** mm Hg. */
  systolicBpMmHg: number;
  /** mm Hg; optional, as BP >= 130/85 is met by the systolic alone. */
  diastolicBpMmHg?: number;
  bpTreated: boolean;
  /** Either parent with diabetes. */
  parentalHistory: boolean;
}

export type DiabetesIndicator =
  | 'age50to64'
  | 'age65plus'
  | 'male'
  | 'parentalHistory'
  | 'bmi25to29'
  | 'bmi30plus'
  | 'bloodPressureHigh'
  | 'hdlLow'
  | 'triglyceridesHigh'
  | 'fastingGlucose100to126';

export interface DiabetesRiskResult {
  /** 8-year risk of type 2 diabetes, fraction 0-1. */
  value: number;
  unit: '1';
  /** Linear predictor (log-odds). */
  logOdds: number;
  /** The model's indicators that are present. */
  indicators: DiabetesIndicator[];
}

interface DiabetesFile {
  intercept: number;
  optimalProfile: { kept: DiabetesIndicator[] };
  coefficients: Record<DiabetesIndicator, number>;
  thresholds: {
    fastingGlucoseLow: number;
    fastingGlucoseHigh: number;
    bmiOverweight: number;
    bmiObese: number;
    systolicBp: number;
    diastolicBp: number;
    hdlLowMale: number;
    hdlLowFemale: number;
    triglycerides: number;
  };
}

const file = (): DiabetesFile => coefficients<DiabetesFile>('framingham-diabetes');

export function diabetesRisk(inputs: DiabetesRiskInputs): DiabetesRiskResult {
  const indicators = diabetesIndicators(inputs);
  return riskFromIndicators(indicators);
}

/** The model's categorical indicators for a person (Wilson 2007 Table 3 definitions). */
export function diabetesIndicators(inputs: DiabetesRiskInputs): DiabetesIndicator[] {
  const t = file().thresholds;
  const id = FRAMINGHAM_DIABETES_ID;
  const age = positive(id, 'age', inputs.ageYears);
  const glucose = positive(id, 'fastingGlucose', inputs.fastingGlucoseMgDl);
  if (glucose >= t.fastingGlucoseHigh) {
    throw new ModelInputError(
      id,
      'fastingGlucose',
      glucose,
      `(0, ${t.fastingGlucoseHigh}) mg/dL (non-diabetic)`,
    );
  }
  const bmi = positive(id, 'bmi', inputs.bmi);
  const hdl = positive(id, 'hdl', inputs.hdlMgDl);
  const tg = positive(id, 'triglycerides', inputs.triglyceridesMgDl);
  const sbp = positive(id, 'systolicBp', inputs.systolicBpMmHg);
  const dbp = inputs.diastolicBpMmHg === undefined ? 0 : positive(id, 'diastolicBp', inputs.diastolicBpMmHg);
  const flags: [DiabetesIndicator, boolean][] = [
    ['age50to64', age >= 50 && age < 65],
    ['age65plus', age >= 65],
    ['male', inputs.sex === 'male'],
    ['parentalHistory', inputs.parentalHistory],
    ['bmi25to29', bmi >= t.bmiOverweight && bmi < t.bmiObese],
    ['bmi30plus', bmi >= t.bmiObese],
    ['bloodPressureHigh', sbp >= t.systolicBp || dbp >= t.diastolicBp || inputs.bpTreated],
    ['hdlLow', hdl < (inputs.sex === 'male' ? t.hdlLowMale : t.hdlLowFemale)],
    ['triglyceridesHigh', tg >= t.triglycerides],
    ['fastingGlucose100to126', glucose >= t.fastingGlucoseLow],
  ];
  return flags.filter(([, present]) => present).map(([name]) => name);
}

/** Logistic model: 1 / (1 + exp(-(intercept + sum of present indicators' coefficients))). */
export function riskFromIndicators(indicators: readonly DiabetesIndicator[]): DiabetesRiskResult {
  const c = file();
  const logOdds = indicators.reduce((sum, name) => sum + c.coefficients[name], c.intercept);
  return { value: 1 / (1 + Math.exp(-logOdds)), unit: '1', logOdds, indicators: [...indicators] };
}

/**
 * The optimal profile of the same person: every modifiable indicator at the model's reference category;
 * age band, sex and parental history kept (data/scoring/framingham-diabetes.json optimalProfile).
 */
export function optimalIndicators(indicators: readonly DiabetesIndicator[]): DiabetesIndicator[] {
  const kept = file().optimalProfile.kept;
  return indicators.filter((name) => kept.includes(name));
}

export const FRAMINGHAM_DIABETES: ModelSpec<DiabetesRiskInputs, DiabetesRiskResult> = {
  id: FRAMINGHAM_DIABETES_ID,
  name: 'Framingham Offspring diabetes',
  citation: 'Wilson PWF et al. Arch Intern Med 2007;167(10):1068-1074, Table 3',
  inputs: [
    { input: 'age', unit: 'a' },
    { input: 'sex', unit: '' },
    { input: 'glucose', unit: 'mg/dL' },
    { input: 'bmi', unit: 'kg/m2' },
    { input: 'hdl_cholesterol', unit: 'mg/dL' },
    { input: 'triglycerides', unit: 'mg/dL' },
    { input: 'systolic_bp', unit: 'mm[Hg]' },
    { input: 'bp_treatment', unit: '' },
    { input: 'parental_diabetes', unit: '' },
    { input: 'diastolic_bp', unit: 'mm[Hg]', use: 'optional' },
  ],
  // The non-diabetic glucose bound is the model's population, checked with its categories (diabetesIndicators).
  ranges: () => [],
  gather: (ev) => {
    const g = new Gather(ev);
    const inputs: DiabetesRiskInputs = {
      ageYears: g.age(),
      sex: g.sex(),
      fastingGlucoseMgDl: g.num('glucose'),
      bmi: g.num('bmi'),
      hdlMgDl: g.num('hdl_cholesterol'),
      triglyceridesMgDl: g.num('triglycerides'),
      systolicBpMmHg: g.num('systolic_bp'),
      bpTreated: g.flag('bp_treatment'),
      parentalHistory: g.flag('parental_diabetes'),
    };
    const diastolic = g.optionalNum('diastolic_bp');
    if (diastolic !== undefined) inputs.diastolicBpMmHg = diastolic;
    return g.done(inputs);
  },
  compute: diabetesRisk,
  output: (r) => ({ value: r.value, unit: r.unit, log_odds: r.logOdds, indicators: r.indicators }),
};
