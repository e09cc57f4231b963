import { Gather } from '../gather.js';
import { checkRanges, type ModelSpec, type ValidRange } from '../spec.js';
import type { ModelOutput, Sex } from '../types.js';
import { positive } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * CKD-EPI 2021 race-free eGFR equations: creatinine, and creatinine-cystatin C. Inker LA et al. N Engl J Med
 * 2021;385(19):1737-1749. Coefficients: data/scoring/ckd-epi.json.
 */
export const EGFR_CR_ID = 'egfr_ckd_epi_2021';
export const EGFR_CR_CYS_ID = 'egfr_ckd_epi_2021_cr_cys';

export interface EgfrCreatinineInputs {
  /** Years; adults (>= 18) only. */
  ageYears: number;
  sex: Sex;
  /** Serum creatinine, mg/dL (IDMS-traceable). */
  creatinineMgDl: number;
}

export interface EgfrCreatinineCystatinInputs extends EgfrCreatinineInputs {
  /** Serum cystatin C, mg/L (standardised to ERM-DA471/IFCC). */
  cystatinCMgL: number;
}

export interface EgfrResult {
  /** eGFR, mL/min/1.73 m2. */
  value: number;
  unit: 'mL/min/{1.73_m2}';
  /** KDIGO GFR category (G1 ... G5). */
  category: string;
}

interface EquationCoefficients {
  multiplier: number;
  kappa: Record<Sex, number>;
  alpha: Record<Sex, number>;
  exponentAboveKappa: number;
  ageBase: number;
  femaleFactor: number;
}

interface CkdEpiFile {
  source: string;
  minAge: number;
  creatinine: EquationCoefficients;
  creatinineCystatin: EquationCoefficients & {
    cystatinThreshold: number;
    cystatinExponentBelow: number;
    cystatinExponentAbove: number;
  };
  gfrCategories: { bands: { category: string; min: number }[] };
}

const file = (): CkdEpiFile => coefficients<CkdEpiFile>('ckd-epi');

export function egfrCreatinine(inputs: EgfrCreatinineInputs): EgfrResult {
  const c = file().creatinine;
  const age = adultAge(EGFR_CR_ID, inputs.ageYears);
  const scr = positive(EGFR_CR_ID, 'creatinine', inputs.creatinineMgDl);
  const value =
    c.multiplier * creatinineTerm(c, inputs.sex, scr) * c.ageBase ** age * sexFactor(c, inputs.sex);
  return { value, unit: 'mL/min/{1.73_m2}', category: gfrCategory(value) };
}

export function egfrCreatinineCystatin(inputs: EgfrCreatinineCystatinInputs): EgfrResult {
  const c = file().creatinineCystatin;
  const age = adultAge(EGFR_CR_CYS_ID, inputs.ageYears);
  const scr = positive(EGFR_CR_CYS_ID, 'creatinine', inputs.creatinineMgDl);
  const cys = positive(EGFR_CR_CYS_ID, 'cystatinC', inputs.cystatinCMgL) / c.cystatinThreshold;
  const cysTerm = Math.min(cys, 1) ** c.cystatinExponentBelow * Math.max(cys, 1) ** c.cystatinExponentAbove;
  const value =
    c.multiplier * creatinineTerm(c, inputs.sex, scr) * cysTerm * c.ageBase ** age * sexFactor(c, inputs.sex);
  return { value, unit: 'mL/min/{1.73_m2}', category: gfrCategory(value) };
}

/** KDIGO 2012 GFR category of an eGFR value. */
export function gfrCategory(egfr: number): string {
  const band = file().gfrCategories.bands.find((b) => egfr >= b.min);
  return band?.category ?? 'G5';
}

/** min(Scr/k, 1)^alpha * max(Scr/k, 1)^exponent: the spline shared by both equations. */
function creatinineTerm(c: EquationCoefficients, sex: Sex, scr: number): number {
  const ratio = scr / c.kappa[sex];
  return Math.min(ratio, 1) ** c.alpha[sex] * Math.max(ratio, 1) ** c.exponentAboveKappa;
}

function sexFactor(c: EquationCoefficients, sex: Sex): number {
  return sex === 'female' ? c.femaleFactor : 1;
}

/** Adults only: the equations were developed at ages 18 and over (Inker 2021). */
export function egfrRanges(): ValidRange<EgfrCreatinineInputs>[] {
  const f = file();
  return [
    {
      parameter: 'age',
      min: f.minAge,
      max: Number.POSITIVE_INFINITY,
      unit: 'a',
      describe: `[${f.minAge}, inf)`,
      source: f.source,
      of: (i) => i.ageYears,
    },
  ];
}

function adultAge(model: string, age: number): number {
  checkRanges(model, egfrRanges(), { ageYears: age, sex: 'female', creatinineMgDl: 1 });
  return age;
}

function egfrOutput(r: EgfrResult): ModelOutput {
  return { value: r.value, unit: r.unit, category: r.category };
}

const CITATION = 'Inker LA et al. N Engl J Med 2021;385(19):1737-1749';

export const EGFR_CR_CYS: ModelSpec<EgfrCreatinineCystatinInputs, EgfrResult> = {
  id: EGFR_CR_CYS_ID,
  name: 'CKD-EPI 2021 creatinine-cystatin C',
  citation: CITATION,
  inputs: [
    { input: 'age', unit: 'a' },
    { input: 'sex', unit: '' },
    { input: 'creatinine', unit: 'mg/dL' },
    { input: 'cystatin_c', unit: 'mg/L' },
  ],
  ranges: egfrRanges,
  gather: (ev) => {
    const g = new Gather(ev);
    return g.done({
      ageYears: g.age(),
      sex: g.sex(),
      creatinineMgDl: g.num('creatinine'),
      cystatinCMgL: g.num('cystatin_c'),
    });
  },
  compute: egfrCreatinineCystatin,
  output: egfrOutput,
};

export const EGFR_CR: ModelSpec<EgfrCreatinineInputs, EgfrResult> = {
  id: EGFR_CR_ID,
  name: 'CKD-EPI 2021 creatinine',
  citation: CITATION,
  inputs: [
    { input: 'age', unit: 'a' },
    { input: 'sex', unit: '' },
    { input: 'creatinine', unit: 'mg/dL' },
  ],
  ranges: egfrRanges,
  gather: (ev) => {
    const g = new Gather(ev);
    return g.done({ ageYears: g.age(), sex: g.sex(), creatinineMgDl: g.num('creatinine') });
  },
  compute: egfrCreatinine,
  output: egfrOutput,
};

export interface ReportedEgfrResult extends EgfrResult {
  source: 'reported';
}

/**
 * The lab's own CKD-EPI 2021 creatinine eGFR (LOINC 98979-8), standing in for the creatinine equation when
 * creatinine is absent: reported under the creatinine equation's id, with source 'reported'.
 */
export const EGFR_REPORTED: ModelSpec<{ egfr: number }, ReportedEgfrResult> = {
  id: EGFR_CR_ID,
  name: 'CKD-EPI 2021 creatinine eGFR as reported by the lab',
  citation: CITATION,
  inputs: [{ input: 'egfr_ckd_epi_2021_reported', unit: 'mL/min/{1.73_m2}' }],
  ranges: () => [],
  gather: (ev) => {
    const reported = ev.numeric.egfr_ckd_epi_2021_reported;
    // Not a usable stand-in unless positive; what is then missing is creatinine itself.
    if (reported === undefined || !(reported > 0)) return { ok: false, missing: ['creatinine'] };
    return { ok: true, inputs: { egfr: reported }, used: ['egfr_ckd_epi_2021_reported'] };
  },
  compute: ({ egfr }) => ({
    value: egfr,
    unit: 'mL/min/{1.73_m2}',
    category: gfrCategory(egfr),
    source: 'reported',
  }),
  output: (r) => ({ value: r.value, unit: r.unit, category: r.category, source: r.source }),
};
