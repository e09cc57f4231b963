import { Gather } from '../gather.js';
import type { ModelSpec } from '../spec.js';
import { ucumFactor } from '../units.js';
import { positive, within } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * PhenoAge (phenotypic age), Levine ME et al. Aging (Albany NY) 2018;10(4):573-591, Table 1: a Gompertz
 * mortality score from nine blood markers and age, mapped onto the age at which the reference population
 * (NHANES III) has that mortality. Coefficients and their source: data/scoring/phenoage.json.
 */
export const PHENOAGE_ID = 'phenoage';

/** Inputs in the model's own units. */
export interface PhenoAgeInputs {
  /** Years. */
  ageYears: number;
  /** g/L. */
  albuminGPerL: number;
  /** umol/L. */
  creatinineUmolPerL: number;
  /** mmol/L (fasting serum glucose in NHANES). */
  glucoseMmolPerL: number;
  /** mg/dL (not mg/L); floored at crpFloorMgPerDl before the logarithm. */
  crpMgPerDl: number;
  /** % of white cells. */
  lymphocytePercent: number;
  /** fL. */
  mcvFl: number;
  /** %. */
  rdwPercent: number;
  /** U/L. */
  alkalinePhosphataseUPerL: number;
  /** 10^3 cells/uL (= 10^9/L). */
  wbc10e3PerUl: number;
}

export interface PhenoAgeResult {
  /** Phenotypic age, years. */
  value: number;
  unit: 'a';
  /** xb: the linear predictor of the mortality model. */
  linearPredictor: number;
  /** Probability of death within 120 months (fraction 0-1). */
  mortalityScore: number;
  /** Phenotypic age minus chronological age, years. */
  ageAcceleration: number;
  /** True when CRP was raised to the floor (data/scoring/phenoage.json crpFloorMgPerDl). */
  crpFloored: boolean;
}

interface PhenoAgeFile {
  intercept: number;
  weights: Record<
    | 'albumin'
    | 'creatinine'
    | 'glucose'
    | 'lnCrp'
    | 'lymphocytePercent'
    | 'mcv'
    | 'rdw'
    | 'alkalinePhosphatase'
    | 'wbc'
    | 'age',
    number
  >;
  gompertz: { gamma: number; horizonMonths: number };
  phenotypicAge: { intercept: number; hazardScale: number; divisor: number };
  crpFloorMgPerDl: number;
}

const file = (): PhenoAgeFile => coefficients<PhenoAgeFile>('phenoage');

export function phenoAge(inputs: PhenoAgeInputs): PhenoAgeResult {
  const c = file();
  const age = positive(PHENOAGE_ID, 'age', inputs.ageYears);
  // Lymphocyte % may legitimately be 0; the others are concentrations, sizes or counts.
  const lymph = within(PHENOAGE_ID, 'lymphocytePercent', inputs.lymphocytePercent, 0, 100);
  const crpRaw = inputs.crpMgPerDl;
  if (!(Number.isFinite(crpRaw) && crpRaw >= 0)) positive(PHENOAGE_ID, 'crp', crpRaw);
  const crpFloored = crpRaw < c.crpFloorMgPerDl;
  const crp = crpFloored ? c.crpFloorMgPerDl : crpRaw;
  const w = c.weights;
  const xb =
    c.intercept +
    w.albumin * positive(PHENOAGE_ID, 'albumin', inputs.albuminGPerL) +
    w.creatinine * positive(PHENOAGE_ID, 'creatinine', inputs.creatinineUmolPerL) +
    w.glucose * positive(PHENOAGE_ID, 'glucose', inputs.glucoseMmolPerL) +
    w.lnCrp * Math.log(crp) +
    w.lymphocytePercent * lymph +
    w.mcv * positive(PHENOAGE_ID, 'mcv', inputs.mcvFl) +
    w.rdw * positive(PHENOAGE_ID, 'rdw', inputs.rdwPercent) +
    w.alkalinePhosphatase * positive(PHENOAGE_ID, 'alkalinePhosphatase', inputs.alkalinePhosphataseUPerL) +
    w.wbc * positive(PHENOAGE_ID, 'wbc', inputs.wbc10e3PerUl) +
    w.age * age;
  const cumulativeHazard = mortalityHazard(xb);
  // PhenoAge = intercept + ln(-scale * ln(1 - M)) / divisor, and -ln(1 - M) is the cumulative hazard itself.
  // Using it directly avoids 1 - M rounding to 0 or 1 for very young or very old profiles.
  const p = c.phenotypicAge;
  const value = p.intercept + Math.log(p.hazardScale * cumulativeHazard) / p.divisor;
  return {
    value,
    unit: 'a',
    linearPredictor: xb,
    mortalityScore: -Math.expm1(-cumulativeHazard),
    ageAcceleration: value - age,
    crpFloored,
  };
}

/** Gompertz cumulative hazard over the horizon: exp(xb) * (exp(gamma * t) - 1) / gamma. */
function mortalityHazard(xb: number): number {
  const { gamma, horizonMonths } = file().gompertz;
  return (Math.exp(xb) * Math.expm1(gamma * horizonMonths)) / gamma;
}

/**
 * The 120-month mortality of the reference population at a given age: the inverse of the phenotypic-age
 * mapping, so that referenceMortality(phenoAge(x).value) === phenoAge(x).mortalityScore. The overall domain
 * divides a person's mortality score by this at their chronological age.
 */
export function referenceMortality(ageYears: number): number {
  const p = file().phenotypicAge;
  const hazard = Math.exp(p.divisor * (ageYears - p.intercept)) / p.hazardScale;
  return -Math.expm1(-hazard);
}

/** Creatinine mg/dL -> umol/L and glucose mg/dL -> mmol/L through their molar masses; CRP mg/L -> mg/dL. */
const creatinineToUmol = () => ucumFactor('mg/dL', 'umol/L', 'creatinine');
const glucoseToMmol = () => ucumFactor('mg/dL', 'mmol/L', 'glucose');
const crpToMgDl = () => ucumFactor('mg/L', 'mg/dL');

export const PHENOAGE: ModelSpec<PhenoAgeInputs, PhenoAgeResult> = {
  id: PHENOAGE_ID,
  name: 'PhenoAge',
  citation: 'Levine ME et al. Aging (Albany NY) 2018;10(4):573-591, Table 1',
  inputs: [
    { input: 'age', unit: 'a' },
    { input: 'albumin', unit: 'g/L' },
    { input: 'creatinine', unit: 'umol/L' },
    { input: 'glucose', unit: 'mmol/L' },
    { input: 'crp', unit: 'mg/dL' },
    { input: 'lymphocyte_percent', unit: '%' },
    { input: 'mcv', unit: 'fL' },
    { input: 'rdw', unit: '%' },
    { input: 'alkaline_phosphatase', unit: 'U/L' },
    { input: 'wbc', unit: '10*3/uL' },
  ],
  // Levine 2018 publish no input ranges; every marker must be a positive number, lymphocytes 0-100 %.
  ranges: () => [],
  gather: (ev) => {
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
  },
  compute: phenoAge,
  output: (r) => ({
    value: r.value,
    unit: r.unit,
    mortality_score: r.mortalityScore,
    age_acceleration: r.ageAcceleration,
    crp_floored: r.crpFloored,
  }),
};
