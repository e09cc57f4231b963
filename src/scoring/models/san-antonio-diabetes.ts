import { ModelInputError } from '../errors.js';
import { Gather } from '../gather.js';
import { checkRanges, type ModelSpec, type ValidRange } from '../spec.js';
import type { Sex } from '../types.js';
import { positive } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * San Antonio Diabetes Prediction Model: 7.5-year risk of type 2 diabetes, a logistic equation continuous in
 * fasting glucose, systolic blood pressure, HDL cholesterol, BMI and age. Stern MP, Williams K, Haffner SM.
 * Ann Intern Med 2002;136(8):575-581. Coefficients, codings and their sources:
 * data/scoring/san-antonio-diabetes.json. The model predicts incident diabetes, so a diabetic fasting
 * glucose (>= 126 mg/dL) or diagnosed diabetes is out of its range.
 */
export const SAN_ANTONIO_DIABETES_ID = 'san_antonio_diabetes_7_5y';

export interface SanAntonioInputs {
  /** Years; the model was derived at 25-64 (applied at other adult ages with a note). */
  ageYears: number;
  sex: Sex;
  /** Fasting plasma glucose, mg/dL. */
  fastingGlucoseMgDl: number;
  /** mm Hg. */
  systolicBpMmHg: number;
  /** mg/dL. */
  hdlMgDl: number;
  /** kg/m2. */
  bmi: number;
  /** A first-degree relative with diabetes; read from parental_diabetes (docs/scoring-inputs.md). */
  familyHistory: boolean;
  /** Diagnosed diabetes, when known: the model does not apply to it. */
  diagnosedDiabetes?: boolean;
}

export interface SanAntonioResult {
  /** 7.5-year risk of type 2 diabetes, fraction 0-1. */
  value: number;
  unit: '1';
  /** Linear predictor (log-odds). */
  logOdds: number;
  /** True when the age is outside the ages the model was derived at (25-64). */
  ageOutsideDerivation: boolean;
}

interface SanAntonioFile {
  source: string;
  intercept: number;
  coefficients: Record<
    'age' | 'female' | 'mexicanAmerican' | 'fastingGlucose' | 'systolicBp' | 'hdl' | 'bmi' | 'familyHistory',
    number
  >;
  derivationAges: [number, number];
  fastingGlucoseHigh: number;
  optimalProfile: { fastingGlucose: number; systolicBp: number; hdl: number; bmi: number };
}

const file = (): SanAntonioFile => coefficients<SanAntonioFile>('san-antonio-diabetes');

export function sanAntonioDiabetesRisk(inputs: SanAntonioInputs): SanAntonioResult {
  const f = file();
  const id = SAN_ANTONIO_DIABETES_ID;
  if (inputs.diagnosedDiabetes === true) {
    throw new ModelInputError(id, 'diabetes', true, "the model's population (people without diabetes)");
  }
  positive(id, 'fastingGlucose', inputs.fastingGlucoseMgDl);
  checkRanges(id, sanAntonioRanges(), inputs);
  const age = positive(id, 'age', inputs.ageYears);
  const logOdds = sanAntonioLogOdds(inputs);
  const [minAge, maxAge] = f.derivationAges;
  return {
    value: 1 / (1 + Math.exp(-logOdds)),
    unit: '1',
    logOdds,
    ageOutsideDerivation: age < minAge || age > maxAge,
  };
}

/** The model predicts incident diabetes: a diabetic fasting glucose is outside it (data file). */
export function sanAntonioRanges(): ValidRange<SanAntonioInputs>[] {
  const f = file();
  return [
    {
      parameter: 'fastingGlucose',
      min: 0,
      max: f.fastingGlucoseHigh,
      exclusiveMax: true,
      unit: 'mg/dL',
      describe: `(0, ${f.fastingGlucoseHigh}) mg/dL (non-diabetic)`,
      source: f.source,
      of: (i) => i.fastingGlucoseMgDl,
    },
  ];
}

/**
 * The log-odds. The ethnicity term (Mexican American = 1) is always 0: the request's race input records no
 * Hispanic ethnicity (data/scoring/san-antonio-diabetes.json codings).
 */
function sanAntonioLogOdds(inputs: SanAntonioInputs): number {
  const { intercept, coefficients: b } = file();
  const id = SAN_ANTONIO_DIABETES_ID;
  return (
    intercept +
    b.age * positive(id, 'age', inputs.ageYears) +
    (inputs.sex === 'female' ? b.female : 0) +
    b.fastingGlucose * positive(id, 'fastingGlucose', inputs.fastingGlucoseMgDl) +
    b.systolicBp * positive(id, 'systolicBp', inputs.systolicBpMmHg) +
    b.hdl * positive(id, 'hdl', inputs.hdlMgDl) +
    b.bmi * positive(id, 'bmi', inputs.bmi) +
    (inputs.familyHistory ? b.familyHistory : 0)
  );
}

/**
 * The same person with the project's optimal glucose, SBP, HDL-C and BMI (age, sex and family history kept):
 * the denominator of the metabolic domain's risk ratio.
 */
export function sanAntonioOptimalRisk(inputs: SanAntonioInputs): number {
  const o = file().optimalProfile;
  const logOdds = sanAntonioLogOdds({
    ...inputs,
    fastingGlucoseMgDl: o.fastingGlucose,
    systolicBpMmHg: o.systolicBp,
    hdlMgDl: o.hdl,
    bmi: o.bmi,
  });
  return 1 / (1 + Math.exp(-logOdds));
}

export function sanAntonioDerivationAges(): [number, number] {
  return file().derivationAges;
}

/**
 * Family history (a parent or sibling with diabetes) is read from parental_diabetes; diagnosed diabetes,
 * when known, puts the person outside the model.
 */
export const SAN_ANTONIO_DIABETES: ModelSpec<SanAntonioInputs, SanAntonioResult> = {
  id: SAN_ANTONIO_DIABETES_ID,
  name: 'San Antonio Diabetes Prediction Model',
  citation: 'Stern MP, Williams K, Haffner SM. Ann Intern Med 2002;136(8):575-581',
  inputs: [
    { input: 'age', unit: 'a' },
    { input: 'sex', unit: '' },
    { input: 'glucose', unit: 'mg/dL' },
    { input: 'systolic_bp', unit: 'mm[Hg]' },
    { input: 'hdl_cholesterol', unit: 'mg/dL' },
    { input: 'bmi', unit: 'kg/m2' },
    { input: 'parental_diabetes', unit: '' },
    { input: 'diabetes', unit: '', use: 'optional' },
  ],
  ranges: sanAntonioRanges,
  gather: (ev) => {
    const g = new Gather(ev);
    const inputs: SanAntonioInputs = {
      ageYears: g.age(),
      sex: g.sex(),
      fastingGlucoseMgDl: g.num('glucose'),
      systolicBpMmHg: g.num('systolic_bp'),
      hdlMgDl: g.num('hdl_cholesterol'),
      bmi: g.num('bmi'),
      familyHistory: g.flag('parental_diabetes'),
    };
    const diagnosed = g.optionalFlag('diabetes');
    if (diagnosed !== undefined) inputs.diagnosedDiabetes = diagnosed;
    return g.done(inputs);
  },
  compute: sanAntonioDiabetesRisk,
  output: (r) => ({
    value: r.value,
    unit: r.unit,
    log_odds: r.logOdds,
    age_outside_derivation: r.ageOutsideDerivation,
  }),
};
