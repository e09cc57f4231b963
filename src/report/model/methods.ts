import { coefficients } from '../../scoring/models/coefficients.js';

/** One published model the report's numbers come from, with the citation its coefficient file carries. */
export interface MethodEntry {
  model: string;
  name: string;
  what: string;
  citation: string;
}

interface MethodInfo {
  name: string;
  what: string;
  /** data/scoring/<file>.json holds the coefficients and the `source` citation. */
  file: string;
  /** Model ids this entry covers (its key when absent); the entry is listed once if any was computed. */
  ids?: string[];
}

const METHODS: Record<string, MethodInfo> = {
  phenoage: {
    name: 'PhenoAge',
    what: 'Biological (phenotypic) age from nine blood markers and age; the overall domain.',
    file: 'phenoage',
  },
  prevent_total_cvd: {
    name: 'PREVENT equations',
    what: "The American Heart Association's 10- and 30-year risks of total cardiovascular disease, atherosclerotic CVD and heart failure, with kidney function (eGFR) and BMI, adding HbA1c, urine albumin/creatinine and social deprivation where given (the published variant for the inputs present); the cardiovascular domain at ages 30-79 (10-year total CVD).",
    file: 'prevent',
    ids: ['prevent_total_cvd', 'prevent_ascvd', 'prevent_heart_failure'],
  },
  pce_ascvd_10y: {
    name: 'Pooled Cohort Equations',
    what: '10-year risk of atherosclerotic cardiovascular disease; the cardiovascular domain when an input PREVENT needs was not measured (never in place of a value PREVENT cannot take).',
    file: 'pce',
  },
  framingham_cvd_10y: {
    name: 'Framingham general CVD risk',
    what: '10-year cardiovascular risk, used when neither PREVENT nor the Pooled Cohort Equations has the inputs or the age it needs.',
    file: 'framingham',
  },
  heart_age: {
    name: 'Framingham heart age',
    what: 'The age at which a person with normal risk factors has the same cardiovascular risk.',
    file: 'framingham',
  },
  san_antonio_diabetes_7_5y: {
    name: 'San Antonio Diabetes Prediction Model',
    what: '7.5-year risk of type 2 diabetes, continuous in fasting glucose, blood pressure, HDL cholesterol and BMI; the metabolic domain.',
    file: 'san-antonio-diabetes',
  },
  framingham_diabetes_8y: {
    name: 'Framingham Offspring diabetes risk',
    what: '8-year risk of type 2 diabetes from categories (glucose, BMI, HDL, triglycerides, blood pressure); shown for comparison, not scored.',
    file: 'framingham-diabetes',
  },
  homa_ir: {
    name: 'HOMA-IR',
    what: 'Insulin resistance from fasting glucose and insulin.',
    file: 'homa-ir',
  },
  egfr_ckd_epi_2021: {
    name: 'CKD-EPI 2021 (creatinine)',
    what: 'Estimated glomerular filtration rate without race; the kidney domain, with KDIGO G categories, and the eGFR PREVENT uses.',
    file: 'ckd-epi',
  },
  egfr_ckd_epi_2021_cr_cys: {
    name: 'CKD-EPI 2021 (creatinine and cystatin C)',
    what: 'Estimated glomerular filtration rate from both markers, preferred when cystatin C is present.',
    file: 'ckd-epi',
  },
  fib4: {
    name: 'FIB-4 index',
    what: 'Liver fibrosis index from age, AST, ALT and platelets; the liver domain.',
    file: 'fib4',
  },
};

/** The models behind the given ids, in a fixed order, each cited from its coefficient file. */
export function methodsFor(modelIds: Iterable<string>): MethodEntry[] {
  const wanted = new Set(modelIds);
  return Object.entries(METHODS)
    .filter(([id, info]) => (info.ids ?? [id]).some((covered) => wanted.has(covered)))
    .map(([model, info]) => ({
      model,
      name: info.name,
      what: info.what,
      citation: coefficients<{ source?: string }>(info.file).source ?? '',
    }));
}

export const HEALTH_SCORE_METHOD =
  "Health score = 100 / (1 + risk ratio / 4), a mapping chosen by this project (not a published model): a risk ratio of 1 scores 80, 2 scores 66.7, 4 scores 50, 8 scores 33.3. It changes gradually: within each model's input ranges a 2% change in one lab value moves a score by at most 5 points. Risk ratio = your modelled risk / the risk of the optimal profile at the same age and sex. Health age = the age at which the optimal profile has your risk. Models that give a value rather than a risk (eGFR, FIB-4, HOMA-IR) show their published category instead of a score.";
