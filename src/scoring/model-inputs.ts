import type { CategoricalInput, NumericInput } from './input-codes.js';
import type { EventInputs } from './inputs.js';
import type { EgfrCreatinineCystatinInputs, EgfrCreatinineInputs } from './models/ckd-epi.js';
import type { DiabetesRiskInputs } from './models/diabetes-risk.js';
import type { Fib4Inputs } from './models/fib4.js';
import type { FraminghamInputs } from './models/framingham.js';
import type { HomaIrInputs } from './models/homa-ir.js';
import type { PceInputs } from './models/pce.js';
import type { PhenoAgeInputs } from './models/phenoage.js';
import type { PreventInputs, PreventKidney, PreventOutcome } from './models/prevent.js';
import type { SanAntonioInputs } from './models/san-antonio-diabetes.js';
import type { PceRace, Sex } from './types.js';
import { ucumFactor } from './units.js';

/**
 * Adapters from an event's inputs (units of data/scoring/input-codes.json) to each model's inputs (the
 * model's own units). Each returns the model's inputs and the input names used, or the names missing.
 */
export type Gathered<T> = { ok: true; inputs: T; used: string[] } | { ok: false; missing: string[] };

type InputName = NumericInput | CategoricalInput | 'age';

/** Collects required inputs, remembering which are missing, so every adapter reports all gaps at once. */
class Gather {
  readonly used: InputName[] = [];
  readonly missing: InputName[] = [];
  constructor(private readonly ev: EventInputs) {}

  num(name: NumericInput): number {
    const value = this.ev.numeric[name];
    if (value === undefined) {
      this.missing.push(name);
      return Number.NaN;
    }
    this.used.push(name);
    return value;
  }

  optionalNum(name: NumericInput): number | undefined {
    const value = this.ev.numeric[name];
    if (value !== undefined) this.used.push(name);
    return value;
  }

  category(name: CategoricalInput): string {
    const value = this.ev.categorical[name];
    if (value === undefined) {
      this.missing.push(name);
      return '';
    }
    this.used.push(name);
    return value;
  }

  flag(name: CategoricalInput): boolean {
    return this.category(name) === 'true';
  }

  /** A yes/no input that refines a model when known and is not missing when absent. */
  optionalFlag(name: CategoricalInput): boolean | undefined {
    const value = this.ev.categorical[name];
    if (value === undefined) return undefined;
    this.used.push(name);
    return value === 'true';
  }

  /**
   * Kidney function for PREVENT: creatinine (eGFR by CKD-EPI 2021 inside the model), else the lab's reported
   * CKD-EPI 2021 eGFR; with neither, creatinine is reported missing.
   */
  kidney(): PreventKidney {
    const creatinine = this.ev.numeric.creatinine;
    if (creatinine !== undefined) {
      this.used.push('creatinine');
      return { creatinineMgDl: creatinine };
    }
    const reported = this.ev.numeric.egfr_ckd_epi_2021_reported;
    if (reported !== undefined) {
      this.used.push('egfr_ckd_epi_2021_reported');
      return { egfr: reported };
    }
    this.missing.push('creatinine');
    return { egfr: Number.NaN };
  }

  sex(): Sex {
    return this.category('sex') as Sex;
  }

  age(): number {
    this.used.push('age');
    return this.ev.ageYears;
  }

  done<T>(inputs: T): Gathered<T> {
    return this.missing.length > 0
      ? { ok: false, missing: this.missing }
      : { ok: true, inputs, used: this.used };
  }
}

/** Creatinine mg/dL -> umol/L and glucose mg/dL -> mmol/L through their molar masses; CRP mg/L -> mg/dL. */
const creatinineToUmol = () => ucumFactor('mg/dL', 'umol/L', 'creatinine');
const glucoseToMmol = () => ucumFactor('mg/dL', 'mmol/L', 'glucose');
const crpToMgDl = () => ucumFactor('mg/L', 'mg/dL');

export function phenoAgeInputs(ev: EventInputs): Gathered<PhenoAgeInputs> {
  const g = new Gather(ev);
  return g.done({
    ageYears: g.age(),
    albuminGPerL: g.num('albumin'),
    creatinineUmolPerL: g.num('creatinine') * creatinineToUmol(),
    glucoseMmolPerL: g.num('glucose') * glucoseToMmol(),
    crpMgPerDl: g.num('crp') * crpToMgDl(),
    lymphocytePercent: g.num('lymphocyte_percent'),
    mcvFl: g.num('mcv'),
    rdwPercent: g.num('rdw'),
    alkalinePhosphataseUPerL: g.num('alkaline_phosphatase'),
    wbc10e3PerUl: g.num('wbc'),
  });
}

export function pceInputs(ev: EventInputs): Gathered<PceInputs> {
  const g = new Gather(ev);
  return g.done({
    ageYears: g.age(),
    sex: g.sex(),
    race: g.category('race') as PceRace,
    ...cardiovascularFactors(g),
  });
}

export function framinghamInputs(ev: EventInputs): Gathered<FraminghamInputs> {
  const g = new Gather(ev);
  return g.done({ ageYears: g.age(), sex: g.sex(), ...cardiovascularFactors(g) });
}

/** PREVENT's inputs; BMI only for heart failure, whose equations need it. */
export function preventInputs(ev: EventInputs, outcome: PreventOutcome): Gathered<PreventInputs> {
  const g = new Gather(ev);
  const inputs: PreventInputs = {
    ageYears: g.age(),
    sex: g.sex(),
    ...cardiovascularFactors(g),
    statin: g.flag('statin'),
    kidney: g.kidney(),
  };
  if (outcome === 'heartFailure') inputs.bmi = g.num('bmi');
  return g.done(inputs);
}

function cardiovascularFactors(g: Gather) {
  return {
    totalCholesterolMgDl: g.num('total_cholesterol'),
    hdlMgDl: g.num('hdl_cholesterol'),
    systolicBpMmHg: g.num('systolic_bp'),
    bpTreated: g.flag('bp_treatment'),
    smoker: g.flag('smoking'),
    diabetic: g.flag('diabetes'),
  };
}

export function diabetesRiskInputs(ev: EventInputs): Gathered<DiabetesRiskInputs> {
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
}

/**
 * San Antonio Diabetes Prediction Model inputs. Family history (a parent or sibling with diabetes) is read from
 * parental_diabetes; diagnosed diabetes, when known, puts the person outside the model.
 */
export function sanAntonioInputs(ev: EventInputs): Gathered<SanAntonioInputs> {
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
}

export function homaIrInputs(ev: EventInputs): Gathered<HomaIrInputs> {
  const g = new Gather(ev);
  return g.done({ glucoseMgDl: g.num('glucose'), insulinMicroUPerMl: g.num('insulin') });
}

export function egfrCreatinineInputs(ev: EventInputs): Gathered<EgfrCreatinineInputs> {
  const g = new Gather(ev);
  return g.done({ ageYears: g.age(), sex: g.sex(), creatinineMgDl: g.num('creatinine') });
}

export function egfrCreatinineCystatinInputs(ev: EventInputs): Gathered<EgfrCreatinineCystatinInputs> {
  const g = new Gather(ev);
  return g.done({
    ageYears: g.age(),
    sex: g.sex(),
    creatinineMgDl: g.num('creatinine'),
    cystatinCMgL: g.num('cystatin_c'),
  });
}

export function fib4Inputs(ev: EventInputs): Gathered<Fib4Inputs> {
  const g = new Gather(ev);
  return g.done({
    ageYears: g.age(),
    astUPerL: g.num('ast'),
    altUPerL: g.num('alt'),
    platelets10e3PerUl: g.num('platelets'),
  });
}
