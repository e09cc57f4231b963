import { ModelInputError } from '../errors.js';
import { Gather, type KidneyInput } from '../gather.js';
import type { EventInputs } from '../inputs.js';
import { ageBand, checkRanges, type ModelSpec, type ValidRange } from '../spec.js';
import type { ModelOutput, Sex } from '../types.js';
import { positive } from './checks.js';
import { egfrCreatinine } from './ckd-epi.js';
import { coefficients } from './coefficients.js';

/**
 * AHA PREVENT equations: sex-specific logistic equations for the 10- and 30-year risk of total cardiovascular
 * disease, atherosclerotic CVD and heart failure, ages 30-79, in the published variants: the base model, the
 * models adding HbA1c, UACR or the Social Deprivation Index alone, and the full model adding all three with an
 * indicator for each one missing. Khan SS et al. Circulation 2024;149(6):430-449, Supplemental Table S12.
 * The variant is chosen by which optional inputs are present (preventVariant), never by their values.
 * Coefficients, term definitions, input ranges and their sources: data/scoring/prevent.json. Each outcome is
 * its own model id, so a missing BMI (heart failure only) costs the heart-failure risk and nothing else.
 */
export const PREVENT_TOTAL_CVD_ID = 'prevent_total_cvd';
export const PREVENT_ASCVD_ID = 'prevent_ascvd';
export const PREVENT_HEART_FAILURE_ID = 'prevent_heart_failure';

export type PreventOutcome = 'totalCvd' | 'ascvd' | 'heartFailure';

/** The published model variants (Khan 2024, Supplemental Table S12). */
export type PreventVariant = 'base' | 'hba1c' | 'uacr' | 'sdi' | 'full';

export const PREVENT_IDS: Record<PreventOutcome, string> = {
  totalCvd: PREVENT_TOTAL_CVD_ID,
  ascvd: PREVENT_ASCVD_ID,
  heartFailure: PREVENT_HEART_FAILURE_ID,
};

/** Kidney function: serum creatinine (eGFR by CKD-EPI 2021, as PREVENT was derived) or a reported eGFR. */
export type PreventKidney = KidneyInput;

export interface PreventInputs {
  /** Years; the equations are valid for 30-79. */
  ageYears: number;
  sex: Sex;
  /** mg/dL; total CVD and ASCVD only (the heart-failure equations have no lipid term). */
  totalCholesterolMgDl?: number;
  /** mg/dL; total CVD and ASCVD only. */
  hdlMgDl?: number;
  /** mm Hg. */
  systolicBpMmHg: number;
  /** On blood-pressure-lowering treatment. */
  bpTreated: boolean;
  /** Current smoker. */
  smoker: boolean;
  diabetic: boolean;
  /** On statin therapy; total CVD and ASCVD only (no statin term in the heart-failure equations). */
  statin?: boolean;
  kidney: PreventKidney;
  /** kg/m2; used by the heart-failure equations only, which require it. */
  bmi?: number;
  /** Optional: HbA1c, NGSP %. */
  hba1c?: number;
  /** Optional: urine albumin/creatinine ratio, mg/g. */
  uacr?: number;
  /** Optional: Social Deprivation Index decile of the home address, 1-10. */
  sdiDecile?: number;
}

const VARIANT_NAMES: Record<PreventVariant, string> = {
  base: 'base model',
  hba1c: 'model adding HbA1c',
  uacr: 'model adding UACR',
  sdi: 'model adding the Social Deprivation Index',
  full: 'full model (HbA1c, UACR and the Social Deprivation Index, each missing one by its indicator)',
};

/** The variant's name for readers: 'model adding HbA1c'. */
export function preventVariantName(variant: PreventVariant): string {
  return VARIANT_NAMES[variant];
}

/**
 * The published variant for the optional inputs present (data/scoring/prevent.json `variants`): none -> base;
 * one -> the model adding it; two or three -> full. Presence alone decides, so a value never moves a person
 * from one variant to another.
 */
export function preventVariant(inputs: Pick<PreventInputs, 'hba1c' | 'uacr' | 'sdiDecile'>): PreventVariant {
  const present = (
    [
      ['hba1c', inputs.hba1c],
      ['uacr', inputs.uacr],
      ['sdi', inputs.sdiDecile],
    ] as const
  ).filter(([, value]) => value !== undefined);
  if (present.length === 0) return 'base';
  if (present.length > 1) return 'full';
  return (present[0] as (typeof present)[number])[0];
}

export interface PreventResult {
  /** 10-year risk, fraction 0-1 (the value the report shows). */
  value: number;
  unit: '1';
  outcome: PreventOutcome;
  variant: PreventVariant;
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
  | 'sdi4to6'
  | 'sdi7to10'
  | 'sdiMissing'
  | 'lnUacr'
  | 'uacrMissing'
  | 'hba1cXdiabetes'
  | 'hba1cXnoDiabetes'
  | 'hba1cMissing'
  | 'constant';

type Range = [number, number];

interface PreventFile {
  validAges: Range;
  risk30yMaxAge: number;
  inputRanges: {
    source: string;
    totalCholesterol: Range;
    hdl: Range;
    systolicBp: Range;
    bmi: Range;
    egfr: Range;
  };
  addOnRanges: { source: string; hba1c: Range; uacr: Range; sdiDecile: Range };
  cholesterolMmolPerMgDl: number;
  /**
   * By variant; ageSquared appears in the 30-year equations only, the add-on terms in their variants only; a
   * term absent from an equation counts 0.
   */
  equations: Record<
    PreventVariant,
    Record<Horizon, Record<Sex, Record<PreventOutcome, Partial<Record<Term, number>>>>>
  >;
  optimalProfile: {
    totalCholesterol: number;
    hdl: number;
    systolicBp: number;
    egfr: number;
    hba1c: number;
    uacr: number;
  };
}

const file = (): PreventFile => coefficients<PreventFile>('prevent');

export function preventValidAges(): Range {
  return file().validAges;
}

/** The input ranges of one outcome's equations, in the order they are checked (data/scoring/prevent.json). */
export function preventRanges(outcome: PreventOutcome): ValidRange<PreventInputs>[] {
  const f = file();
  const r = f.inputRanges;
  const source = r.source;
  const range = (
    parameter: string,
    [min, max]: Range,
    unit: string,
    of: (i: PreventInputs) => number | undefined,
  ): ValidRange<PreventInputs> => ({ parameter, min, max, unit, source, of });
  // Ages in completed years, as the paper counts them: 79.9 is 79 years old.
  const ranges: ValidRange<PreventInputs>[] = [ageBand(f.validAges, source)];
  // The heart-failure equations have no lipid or statin term (Khan 2024, Table S12): they need no lipids.
  if (outcome !== 'heartFailure') {
    ranges.push(
      range('totalCholesterol', r.totalCholesterol, 'mg/dL', (i) => i.totalCholesterolMgDl ?? Number.NaN),
    );
    ranges.push(range('hdl', r.hdl, 'mg/dL', (i) => i.hdlMgDl ?? Number.NaN));
  }
  ranges.push(range('systolicBp', r.systolicBp, 'mm[Hg]', (i) => i.systolicBpMmHg));
  if (outcome === 'heartFailure') ranges.push(range('bmi', r.bmi, 'kg/m2', (i) => i.bmi ?? Number.NaN));
  ranges.push(range('egfr', r.egfr, 'mL/min/{1.73_m2}', (i) => preventEgfr(PREVENT_IDS[outcome], i).egfr));
  // Optional inputs are checked when present (undefined skips the check): a value outside leaves the model
  // uncomputed, never another variant chosen.
  const a = f.addOnRanges;
  const addOn = (
    parameter: string,
    r: Range,
    unit: string,
    of: (i: PreventInputs) => number | undefined,
  ) => ({
    ...range(parameter, r, unit, of),
    source: a.source,
  });
  ranges.push(addOn('hba1c', a.hba1c, '%', (i) => i.hba1c));
  ranges.push(addOn('uacr', a.uacr, 'mg/g', (i) => i.uacr));
  ranges.push({
    ...addOn('sdiDecile', a.sdiDecile, '1', (i) => i.sdiDecile),
    describe: 'a whole decile 1-10',
  });
  return ranges;
}

/** The model of one outcome: validates the inputs, then both horizons of the logistic equation. */
export function preventRisk(outcome: PreventOutcome): (inputs: PreventInputs) => PreventResult {
  return (inputs) => {
    const f = file();
    const id = PREVENT_IDS[outcome];
    checkRanges(id, preventRanges(outcome), inputs);
    if (inputs.sdiDecile !== undefined && !Number.isInteger(inputs.sdiDecile))
      throw new ModelInputError(id, 'sdiDecile', inputs.sdiDecile, 'a whole decile 1-10');
    const { egfr, source } = preventEgfr(id, inputs);
    const logOdds10y = logOdds('10y', outcome, inputs, egfr, inputs.ageYears);
    const logOdds30y = logOdds('30y', outcome, inputs, egfr, inputs.ageYears);
    const risk10y = logistic(logOdds10y);
    return {
      value: risk10y,
      unit: '1',
      outcome,
      variant: preventVariant(inputs),
      risk10y,
      // 30-year risk for ages 30-59 in completed years, as the age band (59.9 is 59 years old).
      risk30y: Math.floor(inputs.ageYears) <= f.risk30yMaxAge ? logistic(logOdds30y) : null,
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

/**
 * The optimal profile at an age and sex (data/scoring/prevent.json optimalProfile), in the variant of `like`
 * (a person's inputs): HbA1c and UACR at their optimal values where the person has them, the person's own SDI
 * decile, and missing what the person lacks, so the ratio compares risks of one equation.
 */
export function preventOptimalProfile(
  sex: Sex,
  like: Pick<PreventInputs, 'hba1c' | 'uacr' | 'sdiDecile'> = {},
): Omit<PreventInputs, 'ageYears' | 'kidney'> & {
  egfr: number;
} {
  const o = file().optimalProfile;
  return {
    ...(like.hba1c === undefined ? {} : { hba1c: o.hba1c }),
    ...(like.uacr === undefined ? {} : { uacr: o.uacr }),
    ...(like.sdiDecile === undefined ? {} : { sdiDecile: like.sdiDecile }),
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
  const c = f.equations[preventVariant(inputs)][horizon][inputs.sex][outcome];
  const mmol = f.cholesterolMmolPerMgDl;
  const age = (ageYears - 55) / 10;
  // Lipids enter the total CVD and ASCVD equations only; the heart-failure ones have zero coefficients.
  const tc = inputs.totalCholesterolMgDl;
  const hdlMgDl = inputs.hdlMgDl;
  const lipids = outcome !== 'heartFailure' || (tc !== undefined && hdlMgDl !== undefined);
  const nonHdl = lipids
    ? (positive(PREVENT_IDS[outcome], 'totalCholesterol', tc ?? Number.NaN) -
        positive(PREVENT_IDS[outcome], 'hdl', hdlMgDl ?? Number.NaN)) *
        mmol -
      3.5
    : 0;
  const hdl = lipids ? ((hdlMgDl ?? Number.NaN) * mmol - 1.3) / 0.3 : 0;
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
  const statin = inputs.statin === true ? 1 : 0;
  // Optional inputs (their terms exist only in the variants that read them; missing ones in the full model
  // enter through their indicators).
  const { hba1c, uacr, sdiDecile } = inputs;
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
    sdi4to6: sdiDecile !== undefined && sdiDecile >= 4 && sdiDecile <= 6 ? 1 : 0,
    sdi7to10: sdiDecile !== undefined && sdiDecile >= 7 ? 1 : 0,
    sdiMissing: sdiDecile === undefined ? 1 : 0,
    lnUacr: uacr === undefined ? 0 : Math.log(uacr),
    uacrMissing: uacr === undefined ? 1 : 0,
    hba1cXdiabetes: hba1c !== undefined && diabetes === 1 ? hba1c - 5.3 : 0,
    hba1cXnoDiabetes: hba1c !== undefined && diabetes === 0 ? hba1c - 5.3 : 0,
    hba1cMissing: hba1c === undefined ? 1 : 0,
    constant: 1,
  };
  let sum = 0;
  for (const [term, coefficient] of termsOf(c)) sum += coefficient * terms[term];
  return sum;
}

const equationTerms = new WeakMap<object, [Term, number][]>();

/**
 * An equation's terms in the file's order, listed once: the health-age search evaluates each equation some
 * fifty times per event, and listing them anew on every call was most of PREVENT's share of a report model.
 */
function termsOf(c: Partial<Record<Term, number>>): [Term, number][] {
  let entries = equationTerms.get(c);
  if (!entries) {
    entries = Object.entries(c) as [Term, number][];
    equationTerms.set(c, entries);
  }
  return entries;
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

const OUTCOME_NAMES: Record<PreventOutcome, string> = {
  totalCvd: 'PREVENT',
  ascvd: 'PREVENT ASCVD',
  heartFailure: 'PREVENT heart failure',
};

/**
 * PREVENT's inputs. Heart failure reads BMI and no lipids or statin (its equations have no such terms), so
 * a missing cholesterol or statin answer never costs the heart-failure risk.
 */
function gatherPrevent(ev: EventInputs, outcome: PreventOutcome) {
  const g = new Gather(ev);
  const hf = outcome === 'heartFailure';
  const inputs: PreventInputs = {
    ageYears: g.age(),
    sex: g.sex(),
    ...(hf ? {} : { totalCholesterolMgDl: g.num('total_cholesterol'), hdlMgDl: g.num('hdl_cholesterol') }),
    systolicBpMmHg: g.num('systolic_bp'),
    bpTreated: g.flag('bp_treatment'),
    smoker: g.flag('smoking'),
    diabetic: g.flag('diabetes'),
    ...(hf ? {} : { statin: g.flag('statin') }),
    kidney: g.kidney(),
  };
  if (hf) inputs.bmi = g.num('bmi');
  // The optional inputs choose the published variant by being present (preventVariant).
  const hba1c = g.optionalNum('hba1c');
  if (hba1c !== undefined) inputs.hba1c = hba1c;
  const uacr = g.optionalUacr();
  if (uacr !== undefined) inputs.uacr = uacr;
  const sdi = g.optionalCategory('sdi_decile');
  if (sdi !== undefined) inputs.sdiDecile = Number(sdi);
  return g.done(inputs);
}

function preventOutput(r: PreventResult): ModelOutput {
  return {
    value: r.value,
    unit: r.unit,
    // The variant is stated in the cardiovascular domain's model_reason; the `score --json` schema
    // (src/schemas/cli/misc.ts) does not yet admit it here.
    risk_10y: r.risk10y,
    risk_30y: r.risk30y,
    log_odds_10y: r.logOdds10y,
    log_odds_30y: r.logOdds30y,
    egfr: r.egfr,
    egfr_source: r.egfrSource,
  };
}

function preventSpec(outcome: PreventOutcome): ModelSpec<PreventInputs, PreventResult> {
  return {
    id: PREVENT_IDS[outcome],
    name: OUTCOME_NAMES[outcome],
    citation: 'Khan SS et al. Circulation 2024;149(6):430-449, Supplemental Table S12',
    inputs: [
      { input: 'age', unit: 'a' },
      { input: 'sex', unit: '' },
      ...(outcome === 'heartFailure'
        ? []
        : ([
            { input: 'total_cholesterol', unit: 'mg/dL' },
            { input: 'hdl_cholesterol', unit: 'mg/dL' },
          ] as const)),
      { input: 'systolic_bp', unit: 'mm[Hg]' },
      { input: 'bp_treatment', unit: '' },
      { input: 'smoking', unit: '' },
      { input: 'diabetes', unit: '' },
      ...(outcome === 'heartFailure' ? [] : ([{ input: 'statin', unit: '' }] as const)),
      { input: 'creatinine', unit: 'mg/dL' },
      { input: 'egfr_ckd_epi_2021_reported', unit: 'mL/min/{1.73_m2}', use: 'alternative' },
      ...(outcome === 'heartFailure' ? [{ input: 'bmi', unit: 'kg/m2' } as const] : []),
      { input: 'hba1c', unit: '%', use: 'optional' },
      { input: 'uacr', unit: 'mg/g', use: 'optional' },
      { input: 'urine_albumin', unit: 'mg/L', use: 'optional' },
      { input: 'urine_creatinine', unit: 'mg/dL', use: 'optional' },
      { input: 'sdi_decile', unit: '', use: 'optional' },
    ],
    ranges: () => preventRanges(outcome),
    gather: (ev) => gatherPrevent(ev, outcome),
    compute: preventRisk(outcome),
    output: preventOutput,
  };
}

export const PREVENT_TOTAL_CVD = preventSpec('totalCvd');
export const PREVENT_ASCVD = preventSpec('ascvd');
export const PREVENT_HEART_FAILURE = preventSpec('heartFailure');
