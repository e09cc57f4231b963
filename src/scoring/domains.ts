import { solveAge } from './health-age.js';
import { healthScore } from './health-score.js';
import { inputLabel, inSentence, parameterLabel } from './input-labels.js';
import type { EventInputs } from './inputs.js';
import {
  diabetesRiskInputs,
  egfrCreatinineCystatinInputs,
  egfrCreatinineInputs,
  fib4Inputs,
  framinghamInputs,
  homaIrInputs,
  pceInputs,
  phenoAgeInputs,
  preventInputs,
  sanAntonioInputs,
} from './model-inputs.js';
import type { ModelRun } from './model-run.js';
import {
  EGFR_CR_CYS_ID,
  EGFR_CR_ID,
  type EgfrResult,
  egfrCreatinine,
  egfrCreatinineCystatin,
  gfrCategory,
} from './models/ckd-epi.js';
import { type DiabetesRiskResult, diabetesRisk, FRAMINGHAM_DIABETES_ID } from './models/diabetes-risk.js';
import { FIB4_ID, type Fib4Result, fib4 } from './models/fib4.js';
import {
  FRAMINGHAM_ID,
  type FraminghamResult,
  framinghamNormalProfile,
  framinghamRisk,
  HEART_AGE_ID,
  type HeartAgeResult,
  heartAge,
} from './models/framingham.js';
import { HOMA_IR_ID, type HomaIrResult, homaIr } from './models/homa-ir.js';
import {
  PCE_ID,
  type PceResult,
  pceOptimalProfile,
  pceRisk,
  pceRiskByAge,
  pceValidAges,
} from './models/pce.js';
import { PHENOAGE_ID, type PhenoAgeResult, phenoAge, referenceMortality } from './models/phenoage.js';
import {
  PREVENT_ASCVD_ID,
  PREVENT_HEART_FAILURE_ID,
  PREVENT_TOTAL_CVD_ID,
  type PreventResult,
  preventOptimalProfile,
  preventRisk,
  preventRiskByAge,
  preventValidAges,
} from './models/prevent.js';
import {
  SAN_ANTONIO_DIABETES_ID,
  type SanAntonioResult,
  sanAntonioDerivationAges,
  sanAntonioDiabetesRisk,
  sanAntonioOptimalRisk,
} from './models/san-antonio-diabetes.js';
import type { DomainName, DomainScore, ModelOutput } from './types.js';

/**
 * The five health domains of one event. Each picks the published model(s) of its area and derives, where
 * the model gives a risk: risk, risk_ratio (risk / risk of the optimal profile at the same age and sex),
 * health_age (age at which the optimal profile has the same risk) and health_score (health-score.ts).
 * Where a model gives a value rather than a risk (eGFR, FIB-4, HOMA-IR) those members are null, with the
 * published category and a note: no optimal profile is published for them, and none is invented. Every
 * domain says in model_reason which model it used and why, or why none applied.
 */
export const DOMAIN_NOTES = {
  phenoAgeRatio:
    'risk_ratio is the PhenoAge 10-year mortality score over the mortality of the reference population (NHANES III) at the same chronological age; Levine 2018 publishes no optimal profile.',
  preventRisk:
    'risk is the PREVENT 10-year risk of total cardiovascular disease (ASCVD and heart failure); the 10-year ASCVD and heart-failure risks, and the 30-year risks up to age 59, are under models.',
  diabetesAge:
    'health_age is null: in the San Antonio model age adds only 0.028 to the log-odds per year (Stern 2002), so the age at which the optimal profile reaches a given risk lies far outside the ages the model was derived at for most people.',
  diabetesEthnicity:
    "The San Antonio model's ethnicity term (Mexican American) is not applied: the race input records no Hispanic ethnicity, so risk is computed as for a non-Hispanic white person (for a Mexican American the odds would be 1.51 times higher).",
  diabetesFamily:
    'Family history is read from parental_diabetes: a sibling with diabetes, which the San Antonio model also counts, is not known here.',
  diabetesAgeRange:
    'The age is outside 25-64, the ages the San Antonio model was derived at; it is applied as published.',
  valueModel:
    'the model gives a value, not a risk: risk, risk_ratio, health_age and health_score are null; category is the published classification.',
  egfrReported: 'eGFR as reported by the lab (CKD-EPI 2021, LOINC 98979-8); creatinine was not available.',
  crpBound: 'CRP was below the assay reporting limit and read at the limit; PhenoAge is an upper bound.',
} as const;

/** Readers' names of the models, for model_reason. */
const MODEL_NAMES: Record<string, string> = {
  [PHENOAGE_ID]: 'PhenoAge',
  [PREVENT_TOTAL_CVD_ID]: 'PREVENT',
  [PCE_ID]: 'Pooled Cohort Equations',
  [FRAMINGHAM_ID]: 'Framingham general CVD',
  [SAN_ANTONIO_DIABETES_ID]: 'San Antonio Diabetes Prediction Model',
  [HOMA_IR_ID]: 'HOMA-IR',
  [EGFR_CR_CYS_ID]: 'CKD-EPI 2021 creatinine-cystatin C',
  [EGFR_CR_ID]: 'CKD-EPI 2021 creatinine',
  [FIB4_ID]: 'FIB-4',
};

/** Why a model was not computed, in words: the inputs it lacked or the value outside its range. */
function whyNot(run: ModelRun, id: string): string {
  const skipped = run.notComputed[id];
  if (!skipped) return 'not computed';
  if (skipped.status === 'missing_inputs')
    return `missing ${(skipped.inputs_missing ?? []).map((n) => inSentence(inputLabel(n))).join(', ')}`;
  // ModelInputError messages read '<model id>: <input> = <value> is outside <range>'.
  const m = /^[a-z0-9_]+: (\w+) = (.*)$/.exec(skipped.reason ?? '');
  return m ? `${inSentence(parameterLabel(m[1] as string))} ${m[2]}` : (skipped.reason ?? 'out of range');
}

/** '<name> not computed (<why>)' for each model passed over, joined for a sentence. */
function passedOver(run: ModelRun, ids: readonly string[]): string {
  return ids.map((id) => `${MODEL_NAMES[id] ?? id} not computed (${whyNot(run, id)})`).join('; ');
}

export function overallDomain(ev: EventInputs, run: ModelRun): DomainScore {
  const pheno = run.attempt(PHENOAGE_ID, phenoAgeInputs(ev), phenoAge, phenoAgeOutput);
  const domain = emptyDomain('overall', run.missing([PHENOAGE_ID]));
  if (!pheno) {
    domain.model_reason = `No model: ${passedOver(run, [PHENOAGE_ID])}.`;
    return domain;
  }
  const { result } = pheno;
  const ratio = result.mortalityScore / referenceMortality(ev.ageYears);
  const notes: string[] = [DOMAIN_NOTES.phenoAgeRatio];
  if (ev.upperBounds.includes('crp')) notes.push(DOMAIN_NOTES.crpBound);
  domain.model_reason = 'PhenoAge (Levine 2018): biological age from nine blood markers and age.';
  return withRisk(domain, PHENOAGE_ID, pheno.used, {
    value: result.value,
    unit: 'a',
    risk: result.mortalityScore,
    ratio,
    healthAge: result.value,
    notes,
  });
}

/**
 * PREVENT (total CVD) for ages 30-79; the Pooled Cohort Equations, then Framingham, when PREVENT cannot be
 * computed (an input missing or outside its range). All of them are computed when they can be and stay in
 * the report model.
 */
export function cardiovascularDomain(ev: EventInputs, run: ModelRun): DomainScore {
  const prevent = run.attempt(
    PREVENT_TOTAL_CVD_ID,
    preventInputs(ev, 'totalCvd'),
    preventRisk('totalCvd'),
    preventOutput,
  );
  run.attempt(PREVENT_ASCVD_ID, preventInputs(ev, 'ascvd'), preventRisk('ascvd'), preventOutput);
  run.attempt(
    PREVENT_HEART_FAILURE_ID,
    preventInputs(ev, 'heartFailure'),
    preventRisk('heartFailure'),
    preventOutput,
  );
  const pce = run.attempt(PCE_ID, pceInputs(ev), pceRisk, pceOutput);
  const frsInputs = framinghamInputs(ev);
  const frs = run.attempt(FRAMINGHAM_ID, frsInputs, framinghamRisk, framinghamOutput);
  const heart = run.attempt(HEART_AGE_ID, frsInputs, heartAge, heartAgeOutput);
  const preventIds = [PREVENT_TOTAL_CVD_ID, PREVENT_HEART_FAILURE_ID];
  if (prevent) {
    const domain = emptyDomain('cardiovascular', run.missing(preventIds));
    const { ageYears, sex } = prevent.inputs;
    const optimalAt = preventRiskByAge('totalCvd', preventOptimalProfile(sex));
    const [minAge, maxAge] = preventValidAges();
    const solved = solveAge(optimalAt, prevent.result.value, minAge, maxAge);
    domain.model_reason = `PREVENT (Khan 2024), the AHA's current equations for ages ${minAge}-${maxAge}: 10-year risk of total cardiovascular disease.`;
    return withRisk(domain, PREVENT_TOTAL_CVD_ID, prevent.used, {
      value: prevent.result.value,
      unit: '1',
      risk: prevent.result.value,
      ratio: prevent.result.value / optimalAt(ageYears),
      healthAge: solved.value,
      clamped: solved.clamped,
      notes: [DOMAIN_NOTES.preventRisk],
    });
  }
  if (pce) {
    const domain = emptyDomain('cardiovascular', run.missing([...preventIds, PCE_ID]));
    const { ageYears, sex, race } = pce.inputs;
    const optimalAt = pceRiskByAge(pceOptimalProfile(ageYears, sex, race));
    const [minAge, maxAge] = pceValidAges();
    const solved = solveAge(optimalAt, pce.result.value, minAge, maxAge);
    domain.model_reason = `Pooled Cohort Equations (10-year ASCVD): ${passedOver(run, [PREVENT_TOTAL_CVD_ID])}.`;
    return withRisk(domain, PCE_ID, pce.used, {
      value: pce.result.value,
      unit: '1',
      risk: pce.result.value,
      ratio: pce.result.value / optimalAt(ageYears),
      healthAge: solved.value,
      clamped: solved.clamped,
      notes: [],
    });
  }
  if (frs && heart) {
    const domain = emptyDomain('cardiovascular', run.missing([...preventIds, PCE_ID, FRAMINGHAM_ID]));
    const normal = framinghamRisk(framinghamNormalProfile(frs.inputs.ageYears, frs.inputs.sex)).value;
    domain.model_reason = `Framingham general CVD (10-year): ${passedOver(run, [PREVENT_TOTAL_CVD_ID, PCE_ID])}.`;
    return withRisk(domain, FRAMINGHAM_ID, frs.used, {
      value: frs.result.value,
      unit: '1',
      risk: frs.result.value,
      ratio: frs.result.value / normal,
      healthAge: heart.result.value,
      clamped: heart.result.clamped,
      notes: [],
    });
  }
  const domain = emptyDomain('cardiovascular', run.missing([...preventIds, PCE_ID, FRAMINGHAM_ID]));
  domain.model_reason = `No model: ${passedOver(run, [PREVENT_TOTAL_CVD_ID, PCE_ID, FRAMINGHAM_ID])}.`;
  return domain;
}

/**
 * The San Antonio Diabetes Prediction Model, continuous in its lab inputs, scores the domain. The categorical
 * Framingham Offspring model is computed alongside for the report model but never sets the score; HOMA-IR
 * gives a value when the San Antonio model cannot be computed.
 */
export function metabolicDomain(ev: EventInputs, run: ModelRun): DomainScore {
  const diabetes = run.attempt(
    SAN_ANTONIO_DIABETES_ID,
    sanAntonioInputs(ev),
    sanAntonioDiabetesRisk,
    sanAntonioOutput,
  );
  run.attempt(FRAMINGHAM_DIABETES_ID, diabetesRiskInputs(ev), diabetesRisk, framinghamDiabetesOutput);
  const homa = run.attempt(HOMA_IR_ID, homaIrInputs(ev), homaIr, homaIrOutput);
  const domain = emptyDomain('metabolic', run.missing([SAN_ANTONIO_DIABETES_ID, HOMA_IR_ID]));
  const used = [...new Set([...(diabetes?.used ?? []), ...(homa?.used ?? [])])];
  if (diabetes) {
    const { inputs, result } = diabetes;
    const notes: string[] = [DOMAIN_NOTES.diabetesAge, DOMAIN_NOTES.diabetesEthnicity];
    if (!inputs.familyHistory) notes.push(DOMAIN_NOTES.diabetesFamily);
    if (result.ageOutsideDerivation) notes.push(DOMAIN_NOTES.diabetesAgeRange);
    const [minAge, maxAge] = sanAntonioDerivationAges();
    domain.model_reason = `San Antonio Diabetes Prediction Model (Stern 2002), continuous in fasting glucose, blood pressure, HDL-C and BMI: 7.5-year risk of type 2 diabetes${result.ageOutsideDerivation ? ` (derived at ages ${minAge}-${maxAge}; applied at this age as published)` : ''}. The categorical Framingham Offspring model is reported alongside, not scored.`;
    return withRisk(domain, SAN_ANTONIO_DIABETES_ID, used, {
      value: result.value,
      unit: '1',
      risk: result.value,
      ratio: result.value / sanAntonioOptimalRisk(inputs),
      healthAge: null,
      notes,
    });
  }
  if (homa) {
    domain.model_reason = `HOMA-IR, a value without a score: ${passedOver(run, [SAN_ANTONIO_DIABETES_ID])}.`;
    return withValue(domain, HOMA_IR_ID, used, homa.result.value, '1', undefined);
  }
  domain.model_reason = `No model: ${passedOver(run, [SAN_ANTONIO_DIABETES_ID, HOMA_IR_ID])}.`;
  return domain;
}

export function kidneyDomain(ev: EventInputs, run: ModelRun): DomainScore {
  const withCystatin = run.attempt(
    EGFR_CR_CYS_ID,
    egfrCreatinineCystatinInputs(ev),
    egfrCreatinineCystatin,
    egfrOutput,
  );
  const creatinineOnly = run.attempt(EGFR_CR_ID, egfrCreatinineInputs(ev), egfrCreatinine, egfrOutput);
  const domain = emptyDomain('kidney', run.missing([EGFR_CR_CYS_ID, EGFR_CR_ID]));
  // The creatinine-cystatin C equation is the more accurate of the two (Inker 2021), so it leads when present.
  const chosen = withCystatin
    ? { id: EGFR_CR_CYS_ID, computed: withCystatin }
    : creatinineOnly
      ? { id: EGFR_CR_ID, computed: creatinineOnly }
      : null;
  if (chosen) {
    const r = chosen.computed.result;
    domain.model_reason =
      chosen.id === EGFR_CR_CYS_ID
        ? 'CKD-EPI 2021 creatinine-cystatin C, the more accurate equation when cystatin C is measured.'
        : `CKD-EPI 2021 creatinine: ${passedOver(run, [EGFR_CR_CYS_ID])}.`;
    return withValue(domain, chosen.id, chosen.computed.used, r.value, r.unit, r.category);
  }
  const reported = ev.numeric.egfr_ckd_epi_2021_reported;
  if (reported === undefined || !(reported > 0)) {
    domain.model_reason = `No model: ${passedOver(run, [EGFR_CR_CYS_ID, EGFR_CR_ID])}.`;
    return domain;
  }
  const category = gfrCategory(reported);
  run.models[EGFR_CR_ID] = { value: reported, unit: 'mL/min/{1.73_m2}', category, source: 'reported' };
  delete run.notComputed[EGFR_CR_ID];
  const scored = withValue(
    domain,
    EGFR_CR_ID,
    ['egfr_ckd_epi_2021_reported'],
    reported,
    'mL/min/{1.73_m2}',
    category,
  );
  scored.notes.push(DOMAIN_NOTES.egfrReported);
  scored.model_reason = 'CKD-EPI 2021 creatinine eGFR as reported by the lab: creatinine was not available.';
  return scored;
}

export function liverDomain(ev: EventInputs, run: ModelRun): DomainScore {
  const computed = run.attempt(FIB4_ID, fib4Inputs(ev), fib4, fib4Output);
  const domain = emptyDomain('liver', run.missing([FIB4_ID]));
  if (!computed) {
    domain.model_reason = `No model: ${passedOver(run, [FIB4_ID])}.`;
    return domain;
  }
  domain.model_reason = 'FIB-4 (Sterling 2006), with the age-adjusted cut-offs of McPherson 2017.';
  return withValue(domain, FIB4_ID, computed.used, computed.result.value, '1', computed.result.band);
}

function emptyDomain(domain: DomainName, missing: string[]): DomainScore {
  return {
    domain,
    value: null,
    health_score: null,
    health_age: null,
    risk: null,
    risk_ratio: null,
    model: null,
    model_reason: '',
    inputs_used: [],
    inputs_missing: missing,
    notes: [],
  };
}

interface RiskFigures {
  value: number;
  unit: string;
  risk: number;
  ratio: number;
  healthAge: number | null;
  clamped?: 'below' | 'above' | null;
  notes: string[];
}

function withRisk(domain: DomainScore, model: string, used: string[], f: RiskFigures): DomainScore {
  // The domain object is built here and owned by the caller alone, so it is filled in place.
  domain.model = model;
  domain.value = f.value;
  domain.unit = f.unit;
  domain.risk = f.risk;
  domain.risk_ratio = f.ratio;
  domain.health_age = f.healthAge;
  domain.health_score = healthScore(f.ratio);
  domain.inputs_used = used;
  domain.notes.push(...f.notes);
  if (f.clamped) domain.health_age_clamped = f.clamped;
  return domain;
}

function withValue(
  domain: DomainScore,
  model: string,
  used: string[],
  value: number,
  unit: string,
  category: string | undefined,
): DomainScore {
  domain.model = model;
  domain.value = value;
  domain.unit = unit;
  domain.inputs_used = used;
  domain.notes.push(DOMAIN_NOTES.valueModel);
  if (category !== undefined) domain.category = category;
  return domain;
}

// Report shapes of each model's result (snake_case, as the report model is JSON).
function phenoAgeOutput(r: PhenoAgeResult): ModelOutput {
  return {
    value: r.value,
    unit: r.unit,
    mortality_score: r.mortalityScore,
    age_acceleration: r.ageAcceleration,
    crp_floored: r.crpFloored,
  };
}

function pceOutput(r: PceResult): ModelOutput {
  return { value: r.value, unit: r.unit, equation: r.equation, individual_sum: r.individualSum };
}

function framinghamOutput(r: FraminghamResult): ModelOutput {
  return { value: r.value, unit: r.unit, individual_sum: r.individualSum };
}

function heartAgeOutput(r: HeartAgeResult): ModelOutput {
  return { value: r.value, unit: r.unit, clamped: r.clamped, unclamped: r.unclamped };
}

function preventOutput(r: PreventResult): ModelOutput {
  return {
    value: r.value,
    unit: r.unit,
    risk_10y: r.risk10y,
    risk_30y: r.risk30y,
    log_odds_10y: r.logOdds10y,
    log_odds_30y: r.logOdds30y,
    egfr: r.egfr,
    egfr_source: r.egfrSource,
  };
}

function sanAntonioOutput(r: SanAntonioResult): ModelOutput {
  return {
    value: r.value,
    unit: r.unit,
    log_odds: r.logOdds,
    age_outside_derivation: r.ageOutsideDerivation,
  };
}

function framinghamDiabetesOutput(r: DiabetesRiskResult): ModelOutput {
  return { value: r.value, unit: r.unit, log_odds: r.logOdds, indicators: r.indicators };
}

function homaIrOutput(r: HomaIrResult): ModelOutput {
  return { value: r.value, unit: r.unit };
}

function egfrOutput(r: EgfrResult): ModelOutput {
  return { value: r.value, unit: r.unit, category: r.category };
}

function fib4Output(r: Fib4Result): ModelOutput {
  return { value: r.value, unit: r.unit, band: r.band, low_cutoff: r.lowCutoff, high_cutoff: r.highCutoff };
}
