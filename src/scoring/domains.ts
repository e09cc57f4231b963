import { solveAge } from './health-age.js';
import { healthScore } from './health-score.js';
import { inputLabel, inSentence, parameterLabel } from './input-labels.js';
import type { EventInputs } from './inputs.js';
import type { Computed, ModelRun } from './model-run.js';
import { EGFR_CR, EGFR_CR_CYS, EGFR_REPORTED } from './models/ckd-epi.js';
import { FRAMINGHAM_DIABETES } from './models/diabetes-risk.js';
import { FIB4 } from './models/fib4.js';
import {
  FRAMINGHAM,
  framinghamNormalProfile,
  framinghamRisk,
  HEART_AGE,
  heartAge,
} from './models/framingham.js';
import { HOMA_IR } from './models/homa-ir.js';
import { PCE, pceOptimalProfile, pceRiskByAge, pceValidAges } from './models/pce.js';
import { PHENOAGE, referenceMortality } from './models/phenoage.js';
import {
  PREVENT_ASCVD,
  PREVENT_HEART_FAILURE,
  PREVENT_TOTAL_CVD,
  preventOptimalProfile,
  preventRiskByAge,
  preventValidAges,
  preventVariantName,
} from './models/prevent.js';
import {
  SAN_ANTONIO_DIABETES,
  sanAntonioDerivationAges,
  sanAntonioOptimalRisk,
} from './models/san-antonio-diabetes.js';
import type { AnyModelSpec, ModelSpec } from './spec.js';
import type { DomainName, DomainScore } from './types.js';

/**
 * The five health domains of one event, declared as data (DOMAINS below). Each lists the published models
 * of its area (specs, spec.ts) and the candidates that may score it, in order; a candidate says how its
 * result reads in the domain: where the model gives a risk, risk, risk_ratio (risk / risk of the optimal
 * profile at the same age and sex), health_age (age at which the optimal profile has the same risk) and
 * health_score (health-score.ts). Where a model gives a value rather than a risk (eGFR, FIB-4, HOMA-IR) those
 * members are null, with the published category and a note: no optimal profile is published for them, and
 * none is invented. Every domain says in model_reason which model it used and why, or why none applied.
 */
export const DOMAIN_NOTES = {
  phenoAgeRatio:
    'risk_ratio is the PhenoAge 10-year mortality score over the mortality of the reference population (NHANES III) at the same chronological age; Levine 2018 publishes no optimal profile.',
  preventRisk:
    'risk is the PREVENT 10-year risk of total cardiovascular disease (ASCVD and heart failure); the 10-year ASCVD and heart-failure risks, and the 30-year risks up to age 59, are under models.',
  preventAddOn:
    "HbA1c, the urine albumin/creatinine ratio and the Social Deprivation Index decile, where known, enter through PREVENT's published variant for the inputs present (Khan 2024); risk_ratio compares with the optimal profile in the same variant (HbA1c 5.3 %, UACR 10 mg/g, the same SDI decile).",
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

/** How a model's result reads in a domain: a risk (scored) or a value with its published category. */
export type Reading =
  | {
      kind: 'risk';
      value: number;
      unit: string;
      risk: number;
      ratio: number;
      healthAge: number | null;
      clamped?: 'below' | 'above' | null;
      notes: string[];
    }
  | { kind: 'value'; value: number; unit: string; category?: string; notes?: string[] };

/** One model that may score a domain. */
export interface Candidate<I = never, R = never> {
  model: ModelSpec<I, R>;
  /** Other models whose missing inputs the domain lists with this one's (PREVENT heart failure). */
  coverage?: readonly AnyModelSpec[];
  /**
   * Stands in for an earlier candidate under the same model id (a lab-reported eGFR for the creatinine
   * equation): attempted only when reached, recording nothing when it cannot be used.
   */
  standIn?: boolean;
  read(computed: Computed<I, R>, ev: EventInputs): Reading;
  /** model_reason when this model scores the domain first in line (or is a stand-in). */
  reason(computed: Computed<I, R>): string;
  /** The lead of model_reason when earlier candidates were passed over ('<after>: <why each was not>.'). */
  after?: string;
  /**
   * The parameters whose range selects the model rather than checks a value (default: age, the model's age
   * band): outside them the next candidate is looked at; outside any other range the domain has no score.
   */
  selectBy?: readonly string[];
}

// biome-ignore lint/suspicious/noExplicitAny: candidates of different model types in one list.
type AnyCandidate = Candidate<any, any>;

export interface DomainSpec {
  domain: DomainName;
  /** Every model of the domain, in the order computed; each is computed when it can be and kept in models. */
  models: readonly AnyModelSpec[];
  /** The models that may score the domain, in order of preference. */
  candidates: readonly AnyCandidate[];
  /** Whose missing inputs inputs_missing lists: the candidates up to the one scoring, or all of them. */
  missingFrom: 'upToChosen' | 'all';
  /** Whose inputs inputs_used lists: the scoring model's, or every computed candidate's. */
  usedFrom: 'chosen' | 'computedCandidates';
}

const candidate = <I, R>(c: Candidate<I, R>): AnyCandidate => c;

/** A value-type model's reading: the value, its unit and its published category. */
const valueReading = (value: number, unit: string, category?: string): Reading =>
  category === undefined ? { kind: 'value', value, unit } : { kind: 'value', value, unit, category };

export const DOMAINS: readonly DomainSpec[] = [
  {
    domain: 'overall',
    models: [PHENOAGE],
    candidates: [
      candidate({
        model: PHENOAGE,
        read: ({ result }, ev) => ({
          kind: 'risk',
          value: result.value,
          unit: 'a',
          risk: result.mortalityScore,
          ratio: result.mortalityScore / referenceMortality(ev.ageYears),
          healthAge: result.value,
          notes: [
            DOMAIN_NOTES.phenoAgeRatio,
            ...(ev.upperBounds.includes('crp') ? [DOMAIN_NOTES.crpBound] : []),
          ],
        }),
        reason: () => 'PhenoAge (Levine 2018): biological age from nine blood markers and age.',
      }),
    ],
    missingFrom: 'all',
    usedFrom: 'chosen',
  },
  {
    domain: 'cardiovascular',
    models: [PREVENT_TOTAL_CVD, PREVENT_ASCVD, PREVENT_HEART_FAILURE, PCE, FRAMINGHAM, HEART_AGE],
    candidates: [
      candidate({
        model: PREVENT_TOTAL_CVD,
        coverage: [PREVENT_HEART_FAILURE],
        read: ({ inputs, result }) => {
          const optimalAt = preventRiskByAge('totalCvd', preventOptimalProfile(inputs.sex, inputs));
          const [minAge, maxAge] = preventValidAges();
          const solved = solveAge(optimalAt, result.value, minAge, maxAge);
          return {
            kind: 'risk',
            value: result.value,
            unit: '1',
            risk: result.value,
            ratio: result.value / optimalAt(inputs.ageYears),
            healthAge: solved.value,
            clamped: solved.clamped,
            notes: [
              DOMAIN_NOTES.preventRisk,
              ...(result.variant === 'base' ? [] : [DOMAIN_NOTES.preventAddOn]),
            ],
          };
        },
        reason: ({ result }) => {
          const [minAge, maxAge] = preventValidAges();
          return `PREVENT (Khan 2024), the AHA's current equations for ages ${minAge}-${maxAge}: 10-year risk of total cardiovascular disease, ${preventVariantName(result.variant)}.`;
        },
      }),
      candidate({
        model: PCE,
        read: ({ inputs, result }) => {
          const { ageYears, sex, race } = inputs;
          const optimalAt = pceRiskByAge(pceOptimalProfile(ageYears, sex, race));
          const [minAge, maxAge] = pceValidAges();
          const solved = solveAge(optimalAt, result.value, minAge, maxAge);
          return {
            kind: 'risk',
            value: result.value,
            unit: '1',
            risk: result.value,
            ratio: result.value / optimalAt(ageYears),
            healthAge: solved.value,
            clamped: solved.clamped,
            notes: [],
          };
        },
        reason: () => 'Pooled Cohort Equations (10-year ASCVD).',
        after: 'Pooled Cohort Equations (10-year ASCVD)',
      }),
      candidate({
        model: FRAMINGHAM,
        read: ({ inputs, result }) => {
          const normal = framinghamRisk(framinghamNormalProfile(inputs.ageYears, inputs.sex)).value;
          const heart = heartAge(inputs);
          return {
            kind: 'risk',
            value: result.value,
            unit: '1',
            risk: result.value,
            ratio: result.value / normal,
            healthAge: heart.value,
            clamped: heart.clamped,
            notes: [],
          };
        },
        reason: () => 'Framingham general CVD (10-year).',
        after: 'Framingham general CVD (10-year)',
      }),
    ],
    missingFrom: 'upToChosen',
    usedFrom: 'chosen',
  },
  {
    domain: 'metabolic',
    models: [SAN_ANTONIO_DIABETES, FRAMINGHAM_DIABETES, HOMA_IR],
    candidates: [
      // Continuous in its lab inputs; the categorical Framingham Offspring model is computed but never scores.
      candidate({
        model: SAN_ANTONIO_DIABETES,
        // Diagnosed diabetes puts a person outside the model's population; fasting glucose >= 126 is a value
        // outside its range (no score), not a reason to use HOMA-IR instead.
        selectBy: ['age', 'diabetes'],
        read: ({ inputs, result }) => {
          const notes: string[] = [DOMAIN_NOTES.diabetesAge, DOMAIN_NOTES.diabetesEthnicity];
          if (!inputs.familyHistory) notes.push(DOMAIN_NOTES.diabetesFamily);
          if (result.ageOutsideDerivation) notes.push(DOMAIN_NOTES.diabetesAgeRange);
          return {
            kind: 'risk',
            value: result.value,
            unit: '1',
            risk: result.value,
            ratio: result.value / sanAntonioOptimalRisk(inputs),
            healthAge: null,
            notes,
          };
        },
        reason: ({ result }) => {
          const [minAge, maxAge] = sanAntonioDerivationAges();
          return `San Antonio Diabetes Prediction Model (Stern 2002), continuous in fasting glucose, blood pressure, HDL-C and BMI: 7.5-year risk of type 2 diabetes${result.ageOutsideDerivation ? ` (derived at ages ${minAge}-${maxAge}; applied at this age as published)` : ''}. The categorical Framingham Offspring model is reported alongside, not scored.`;
        },
      }),
      candidate({
        model: HOMA_IR,
        read: ({ result }) => valueReading(result.value, '1'),
        reason: () => 'HOMA-IR, a value without a score.',
        after: 'HOMA-IR, a value without a score',
      }),
    ],
    missingFrom: 'all',
    usedFrom: 'computedCandidates',
  },
  {
    domain: 'kidney',
    models: [EGFR_CR_CYS, EGFR_CR],
    candidates: [
      // The creatinine-cystatin C equation is the more accurate of the two (Inker 2021), so it leads when present.
      candidate({
        model: EGFR_CR_CYS,
        read: ({ result }) => valueReading(result.value, result.unit, result.category),
        reason: () =>
          'CKD-EPI 2021 creatinine-cystatin C, the more accurate equation when cystatin C is measured.',
      }),
      candidate({
        model: EGFR_CR,
        read: ({ result }) => valueReading(result.value, result.unit, result.category),
        reason: () => 'CKD-EPI 2021 creatinine.',
        after: 'CKD-EPI 2021 creatinine',
      }),
      candidate({
        model: EGFR_REPORTED,
        standIn: true,
        read: ({ result }) => ({
          ...valueReading(result.value, result.unit, result.category),
          notes: [DOMAIN_NOTES.egfrReported],
        }),
        reason: () => 'CKD-EPI 2021 creatinine eGFR as reported by the lab: creatinine was not available.',
      }),
    ],
    missingFrom: 'all',
    usedFrom: 'chosen',
  },
  {
    domain: 'liver',
    models: [FIB4],
    candidates: [
      candidate({
        model: FIB4,
        read: ({ result }) => valueReading(result.value, '1', result.band),
        reason: () => 'FIB-4 (Sterling 2006), with the age-adjusted cut-offs of McPherson 2017.',
      }),
    ],
    missingFrom: 'all',
    usedFrom: 'chosen',
  },
];

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
function passedOver(run: ModelRun, specs: readonly AnyModelSpec[]): string {
  return specs.map((spec) => `${spec.name} not computed (${whyNot(run, spec.id)})`).join('; ');
}

/**
 * One domain of an event. Every model of the domain is computed where it can be. The model that scores the
 * domain is chosen by what does not move with a lab value: the first candidate whose inputs are all present
 * and whose age band (or other selecting range: diagnosed diabetes) holds. If the chosen model is then not
 * computed because an input lies outside its validated range, the domain has no score and says so: no other
 * model is given the value it could not take, so a score never jumps between models as a value moves.
 */
export function scoreDomain(spec: DomainSpec, ev: EventInputs, run: ModelRun): DomainScore {
  const attempted = new Map<string, Computed<unknown, unknown> | null>();
  for (const model of spec.models) attempted.set(model.id, run.attempt(model));
  const missingUpTo = (i: number) =>
    run.missing(spec.missingFrom === 'all' ? allIds(spec.candidates) : ids(spec.candidates.slice(0, i + 1)));
  const passed = (upTo: number) =>
    spec.candidates
      .slice(0, upTo)
      .filter((c) => !c.standIn)
      .map((c) => c.model);
  for (const [i, c] of spec.candidates.entries()) {
    // Recorded before a stand-in replaces the record of the model it stands in for.
    const missing = missingUpTo(i);
    const computed = c.standIn
      ? run.attempt(c.model, { standIn: true })
      : (attempted.get(c.model.id) ?? null);
    if (computed) return scored(spec, ev, run, c, computed, missing, passed(i), attempted);
    const outside = run.outOfRange[c.model.id];
    if (c.standIn || outside === undefined || (c.selectBy ?? ['age']).includes(outside)) continue;
    // The model applies and cannot be computed: the domain says so, and no other model stands in.
    const domain = emptyDomain(spec.domain, missing);
    domain.chosen_model = c.model.id;
    domain.model_reason = `No model: ${passedOver(run, [...passed(i), c.model])}. ${c.model.name} is the model for this person (by age, sex and the inputs present); no other model is given a value outside the range it was validated for.`;
    return domain;
  }
  const domain = emptyDomain(spec.domain, missingUpTo(spec.candidates.length));
  domain.model_reason = `No model: ${passedOver(run, passed(spec.candidates.length))}.`;
  return domain;
}

/** The model ids whose missing inputs a domain reports (stand-ins excluded, covered models included). */
function ids(candidates: readonly AnyCandidate[]): string[] {
  return candidates.flatMap((c) => (c.standIn ? [] : [c.model.id, ...(c.coverage ?? []).map((m) => m.id)]));
}

const idsOfAll = new WeakMap<readonly AnyCandidate[], readonly string[]>();

/** ids() of a domain's whole candidate list, listed once: it is asked for per candidate of every event. */
function allIds(candidates: readonly AnyCandidate[]): readonly string[] {
  let found = idsOfAll.get(candidates);
  if (!found) {
    found = ids(candidates);
    idsOfAll.set(candidates, found);
  }
  return found;
}

function scored(
  spec: DomainSpec,
  ev: EventInputs,
  run: ModelRun,
  pick: AnyCandidate,
  result: Computed<unknown, unknown>,
  missing: string[],
  before: readonly AnyModelSpec[],
  attempted: ReadonlyMap<string, Computed<unknown, unknown> | null>,
): DomainScore {
  const domain = emptyDomain(spec.domain, missing);
  domain.chosen_model = pick.model.id;
  domain.model_reason =
    before.length > 0 && pick.after && !pick.standIn
      ? `${pick.after}: ${passedOver(run, before)}.`
      : pick.reason(result);
  const used =
    spec.usedFrom === 'chosen'
      ? result.used
      : [...new Set(spec.candidates.flatMap((c) => attempted.get(c.model.id)?.used ?? []))];
  const reading = pick.read(result, ev);
  return reading.kind === 'risk'
    ? withRisk(domain, pick.model.id, used, reading)
    : withValue(domain, pick.model.id, used, reading);
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

function withRisk(
  domain: DomainScore,
  model: string,
  used: string[],
  f: Extract<Reading, { kind: 'risk' }>,
): DomainScore {
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
  f: Extract<Reading, { kind: 'value' }>,
): DomainScore {
  domain.model = model;
  domain.value = f.value;
  domain.unit = f.unit;
  domain.inputs_used = used;
  domain.notes.push(DOMAIN_NOTES.valueModel, ...(f.notes ?? []));
  if (f.category !== undefined) domain.category = f.category;
  return domain;
}
