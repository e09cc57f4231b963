/**
 * The term of each predictor in each domain's model, read from the scoring's coefficient files. One model per
 * domain: Pooled Cohort Equations (cardiovascular), Framingham Offspring diabetes model (metabolic), CKD-EPI
 * 2021 creatinine-cystatin C (kidney), PhenoAge (overall). Liver (FIB-4) has no terms: the NHANES compilation
 * has no AST, ALT or platelets. Since scoring 2025.2 the cardiovascular and metabolic domains lead with
 * PREVENT and the San Antonio model (src/scoring/domains.ts); the shipped top-predictor dataset was built
 * from the two models named here and has not been rebuilt from those.
 */
import type { Sex } from '../../schemas/refdata.js';
import type { NumericInput } from '../../scoring/input-codes.js';
import { coefficients } from '../../scoring/models/coefficients.js';
import type { DomainModel } from './top-predictors.js';
import { REFERENCE_AGE } from './top-predictors.js';

interface PceEquation {
  lnTotalCholesterol: number;
  lnAgeXlnTotalCholesterol: number;
  lnHdl: number;
  lnAgeXlnHdl: number;
  lnUntreatedSbp: number;
  lnAgeXlnUntreatedSbp: number;
  smoker: number;
  lnAgeXsmoker: number;
  diabetes: number;
}

interface DiabetesModel {
  coefficients: Record<
    | 'bmi25to29'
    | 'bmi30plus'
    | 'bloodPressureHigh'
    | 'hdlLow'
    | 'triglyceridesHigh'
    | 'fastingGlucose100to126',
    number
  >;
  thresholds: Record<
    | 'fastingGlucoseLow'
    | 'fastingGlucoseHigh'
    | 'bmiOverweight'
    | 'bmiObese'
    | 'systolicBp'
    | 'diastolicBp'
    | 'hdlLowMale'
    | 'hdlLowFemale'
    | 'triglycerides',
    number
  >;
}

interface CkdEpiCystatin {
  kappa: Record<Sex, number>;
  alpha: Record<Sex, number>;
  exponentAboveKappa: number;
  cystatinThreshold: number;
  cystatinExponentBelow: number;
  cystatinExponentAbove: number;
}

export interface Prevalences {
  smoking: number;
  diabetes: number;
}

/** mg/dL of glucose per mmol/L: molar mass 180.156 g/mol (data/ucum/molar-masses.json) / 10. */
const GLUCOSE_MG_DL_PER_MMOL_L = 18.0156;
/** umol/L of creatinine per mg/dL: molar mass 113.12 g/mol (data/ucum/molar-masses.json). */
const CREATININE_UMOL_L_PER_MG_DL = 88.4;

const indicator = (condition: boolean, coefficient: number): number => (condition ? coefficient : 0);

export function cardiovascularModel(prevalence: Prevalences, age = REFERENCE_AGE): DomainModel {
  const { equations } = coefficients<{ equations: Record<string, PceEquation> }>('pce');
  // The white equations: Goff 2013 applies them to every race but African American, and race is not a
  // population statistic we hold.
  const eq = (sex: Sex): PceEquation => equations[`white_${sex}`] as PceEquation;
  const lnAge = Math.log(age);
  return {
    disease: 'cardiovascular',
    model: 'pce_ascvd_10y',
    terms: [
      {
        kind: 'continuous',
        input: 'total_cholesterol',
        nhanes: 'cholesterol_total',
        term: (v, sex) =>
          (eq(sex).lnTotalCholesterol + eq(sex).lnAgeXlnTotalCholesterol * lnAge) * Math.log(v),
      },
      {
        kind: 'continuous',
        input: 'hdl_cholesterol',
        nhanes: 'hdl_cholesterol',
        term: (v, sex) => (eq(sex).lnHdl + eq(sex).lnAgeXlnHdl * lnAge) * Math.log(v),
      },
      {
        kind: 'continuous',
        input: 'systolic_bp',
        nhanes: 'systolic_bp',
        term: (v, sex) => (eq(sex).lnUntreatedSbp + eq(sex).lnAgeXlnUntreatedSbp * lnAge) * Math.log(v),
      },
      {
        kind: 'binary',
        input: 'smoking',
        coefficient: (sex) => eq(sex).smoker + eq(sex).lnAgeXsmoker * lnAge,
        prevalence: prevalence.smoking,
      },
      {
        kind: 'binary',
        input: 'diabetes',
        coefficient: (sex) => eq(sex).diabetes,
        prevalence: prevalence.diabetes,
      },
    ],
  };
}

export function metabolicModel(): DomainModel {
  const { coefficients: b, thresholds: t } = coefficients<DiabetesModel>('framingham-diabetes');
  return {
    disease: 'metabolic',
    model: 'framingham_diabetes_8y',
    terms: [
      {
        kind: 'continuous',
        input: 'glucose',
        nhanes: 'glucose_fasting',
        // People at or above the diabetic threshold are outside the model (it predicts incident diabetes).
        term: (v) =>
          indicator(v >= t.fastingGlucoseLow && v < t.fastingGlucoseHigh, b.fastingGlucose100to126),
      },
      {
        kind: 'continuous',
        input: 'bmi',
        nhanes: 'bmi',
        term: (v) =>
          indicator(v >= t.bmiOverweight && v < t.bmiObese, b.bmi25to29) +
          indicator(v >= t.bmiObese, b.bmi30plus),
      },
      {
        kind: 'continuous',
        input: 'hdl_cholesterol',
        nhanes: 'hdl_cholesterol',
        term: (v, sex) => indicator(v < (sex === 'male' ? t.hdlLowMale : t.hdlLowFemale), b.hdlLow),
      },
      {
        kind: 'continuous',
        input: 'triglycerides',
        nhanes: 'triglycerides',
        term: (v) => indicator(v >= t.triglycerides, b.triglyceridesHigh),
      },
      {
        kind: 'any-threshold',
        inputs: ['systolic_bp', 'diastolic_bp'],
        coefficient: b.bloodPressureHigh,
        thresholds: [
          { nhanes: 'systolic_bp', atLeast: t.systolicBp },
          { nhanes: 'diastolic_bp', atLeast: t.diastolicBp },
        ],
      },
    ],
  };
}

export function kidneyModel(): DomainModel {
  const c = coefficients<{ creatinineCystatin: CkdEpiCystatin }>('ckd-epi').creatinineCystatin;
  return {
    disease: 'kidney',
    model: 'egfr_ckd_epi_2021_cr_cys',
    terms: [
      {
        kind: 'continuous',
        input: 'creatinine',
        nhanes: 'creatinine',
        term: (v, sex) => {
          const r = v / c.kappa[sex];
          return c.alpha[sex] * Math.log(Math.min(r, 1)) + c.exponentAboveKappa * Math.log(Math.max(r, 1));
        },
      },
      {
        kind: 'continuous',
        input: 'cystatin_c',
        nhanes: 'cystatin_c',
        term: (v) => {
          const r = v / c.cystatinThreshold;
          return (
            c.cystatinExponentBelow * Math.log(Math.min(r, 1)) +
            c.cystatinExponentAbove * Math.log(Math.max(r, 1))
          );
        },
      },
    ],
  };
}

export function liverModel(): DomainModel {
  return { disease: 'liver', model: 'fib4', terms: [] };
}

export function overallModel(): DomainModel {
  const { weights: w } = coefficients<{ weights: Record<string, number> }>('phenoage');
  const weight = (name: string): number => w[name] as number;
  const linear = (input: NumericInput, nhanes: string, name: string, toModelUnit: (v: number) => number) => ({
    kind: 'continuous' as const,
    input,
    nhanes,
    term: (v: number) => weight(name) * toModelUnit(v),
  });
  return {
    disease: 'overall',
    model: 'phenoage',
    terms: [
      linear('albumin', 'albumin', 'albumin', (v) => v * 10),
      linear('creatinine', 'creatinine', 'creatinine', (v) => v * CREATININE_UMOL_L_PER_MG_DL),
      linear('glucose', 'glucose_fasting', 'glucose', (v) => v / GLUCOSE_MG_DL_PER_MMOL_L),
      linear('crp', 'c_reactive_protein', 'lnCrp', (v) => Math.log(v / 10)),
      linear('lymphocyte_percent', 'lymphocytes_percent', 'lymphocytePercent', (v) => v),
      linear('mcv', 'mcv', 'mcv', (v) => v),
      linear('rdw', 'rdw', 'rdw', (v) => v),
      linear('alkaline_phosphatase', 'alkaline_phosphatase', 'alkalinePhosphatase', (v) => v),
      linear('wbc', 'white_blood_cells', 'wbc', (v) => v),
    ],
  };
}

/** The five domains in report order. */
export function domainModels(prevalence: Prevalences): DomainModel[] {
  return [cardiovascularModel(prevalence), metabolicModel(), kidneyModel(), liverModel(), overallModel()];
}
