import { Gather } from '../gather.js';
import { ageBand, checkRanges, type ModelSpec, type ValidRange } from '../spec.js';
import type { PceRace, Sex } from '../types.js';
import { positive } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * 2013 ACC/AHA Pooled Cohort Equations, 10-year risk of a first hard ASCVD event. Goff DC Jr et al.
 * Circulation 2014;129(25 Suppl 2):S49-S73, Appendix 7 Table A. Coefficients: data/scoring/pce.json.
 * Races other than white and African American use the white equations, as the guideline directs.
 */
export const PCE_ID = 'pce_ascvd_10y';

export type PceEquation = 'white_female' | 'african_american_female' | 'white_male' | 'african_american_male';

export interface PceInputs {
  /** Years; the equations are valid for 40-79. */
  ageYears: number;
  sex: Sex;
  race: PceRace;
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
}

export interface PceResult {
  /** 10-year risk, fraction 0-1. */
  value: number;
  unit: '1';
  equation: PceEquation;
  /** Sum of coefficient x value ("individual sum" of Table A). */
  individualSum: number;
}

interface PceCoefficients {
  lnAge: number;
  lnAgeSquared: number;
  lnTotalCholesterol: number;
  lnAgeXlnTotalCholesterol: number;
  lnHdl: number;
  lnAgeXlnHdl: number;
  lnTreatedSbp: number;
  lnAgeXlnTreatedSbp: number;
  lnUntreatedSbp: number;
  lnAgeXlnUntreatedSbp: number;
  smoker: number;
  lnAgeXsmoker: number;
  diabetes: number;
  meanSum: number;
  baselineSurvival: number;
}

interface PceFile {
  source: string;
  validAges: [number, number];
  inputRanges: {
    source: string;
    totalCholesterol: [number, number];
    hdl: [number, number];
    systolicBp: [number, number];
  };
  equations: Record<PceEquation, PceCoefficients>;
  optimalProfile: { totalCholesterol: number; hdl: number; systolicBp: number };
}

const file = (): PceFile => coefficients<PceFile>('pce');

export function pceValidAges(): [number, number] {
  return file().validAges;
}

export function pceEquation(sex: Sex, race: PceRace): PceEquation {
  const group = race === 'african_american' ? 'african_american' : 'white';
  return `${group}_${sex}`;
}

/** The ranges the equations accept, in the order they are checked (data/scoring/pce.json). */
export function pceRanges(): ValidRange<PceInputs>[] {
  const f = file();
  const r = f.inputRanges;
  return [
    ageBand(f.validAges, f.source),
    {
      parameter: 'totalCholesterol',
      min: r.totalCholesterol[0],
      max: r.totalCholesterol[1],
      unit: 'mg/dL',
      source: r.source,
      of: (i) => i.totalCholesterolMgDl,
    },
    { parameter: 'hdl', min: r.hdl[0], max: r.hdl[1], unit: 'mg/dL', source: r.source, of: (i) => i.hdlMgDl },
    {
      parameter: 'systolicBp',
      min: r.systolicBp[0],
      max: r.systolicBp[1],
      unit: 'mm[Hg]',
      source: r.source,
      of: (i) => i.systolicBpMmHg,
    },
  ];
}

export function pceRisk(inputs: PceInputs): PceResult {
  checkRanges(PCE_ID, pceRanges(), inputs);
  const equation = pceEquation(inputs.sex, inputs.race);
  const individualSum = riskFactorCurve(inputs, equation)(Math.log(inputs.ageYears));
  return { value: pceRiskFromSum(equation, individualSum), unit: '1', equation, individualSum };
}

/**
 * Risk as a function of age for fixed risk factors, with the logarithms taken once: the health age search
 * evaluates it some twenty times per event. Ages outside the valid range are the caller's concern.
 */
export function pceRiskByAge(inputs: Omit<PceInputs, 'ageYears'>): (ageYears: number) => number {
  const equation = pceEquation(inputs.sex, inputs.race);
  const sumAt = riskFactorCurve(inputs, equation);
  return (ageYears) => pceRiskFromSum(equation, sumAt(Math.log(ageYears)));
}

/** The individual sum of Table A as a function of ln(age). */
function riskFactorCurve(
  inputs: Omit<PceInputs, 'ageYears'>,
  equation: PceEquation,
): (lnAge: number) => number {
  const c = file().equations[equation];
  const lnTc = Math.log(positive(PCE_ID, 'totalCholesterol', inputs.totalCholesterolMgDl));
  const lnHdl = Math.log(positive(PCE_ID, 'hdl', inputs.hdlMgDl));
  const lnSbp = Math.log(positive(PCE_ID, 'systolicBp', inputs.systolicBpMmHg));
  const smoker = inputs.smoker ? 1 : 0;
  const sbp = inputs.bpTreated ? c.lnTreatedSbp : c.lnUntreatedSbp;
  const ageXsbp = inputs.bpTreated ? c.lnAgeXlnTreatedSbp : c.lnAgeXlnUntreatedSbp;
  // Terms without age, and the coefficient of ln(age) collected from every interaction.
  const constant =
    c.lnTotalCholesterol * lnTc +
    c.lnHdl * lnHdl +
    sbp * lnSbp +
    c.smoker * smoker +
    (inputs.diabetic ? c.diabetes : 0);
  const slope =
    c.lnAge +
    c.lnAgeXlnTotalCholesterol * lnTc +
    c.lnAgeXlnHdl * lnHdl +
    ageXsbp * lnSbp +
    c.lnAgeXsmoker * smoker;
  return (lnAge) => constant + slope * lnAge + c.lnAgeSquared * lnAge * lnAge;
}

/** Table A's last step: 1 - S10 ^ exp(individual sum - mean sum). */
export function pceRiskFromSum(equation: PceEquation, individualSum: number): number {
  const c = file().equations[equation];
  return 1 - c.baselineSurvival ** Math.exp(individualSum - c.meanSum);
}

/** The guideline's optimal risk factors (TC 170, HDL 50, SBP 110 untreated, no smoking, no diabetes). */
export function pceOptimalProfile(ageYears: number, sex: Sex, race: PceRace): PceInputs {
  const o = file().optimalProfile;
  return {
    ageYears,
    sex,
    race,
    totalCholesterolMgDl: o.totalCholesterol,
    hdlMgDl: o.hdl,
    systolicBpMmHg: o.systolicBp,
    bpTreated: false,
    smoker: false,
    diabetic: false,
  };
}

export const PCE: ModelSpec<PceInputs, PceResult> = {
  id: PCE_ID,
  name: 'Pooled Cohort Equations',
  citation: 'Goff DC Jr et al. Circulation 2014;129(25 Suppl 2):S49-S73, Appendix 7 Table A',
  inputs: [
    { input: 'age', unit: 'a' },
    { input: 'sex', unit: '' },
    { input: 'race', unit: '' },
    { input: 'total_cholesterol', unit: 'mg/dL' },
    { input: 'hdl_cholesterol', unit: 'mg/dL' },
    { input: 'systolic_bp', unit: 'mm[Hg]' },
    { input: 'bp_treatment', unit: '' },
    { input: 'smoking', unit: '' },
    { input: 'diabetes', unit: '' },
  ],
  ranges: pceRanges,
  gather: (ev) => {
    const g = new Gather(ev);
    return g.done({
      ageYears: g.age(),
      sex: g.sex(),
      race: g.category('race') as PceRace,
      totalCholesterolMgDl: g.num('total_cholesterol'),
      hdlMgDl: g.num('hdl_cholesterol'),
      systolicBpMmHg: g.num('systolic_bp'),
      bpTreated: g.flag('bp_treatment'),
      smoker: g.flag('smoking'),
      diabetic: g.flag('diabetes'),
    });
  },
  compute: pceRisk,
  output: (r) => ({ value: r.value, unit: r.unit, equation: r.equation, individual_sum: r.individualSum }),
};
