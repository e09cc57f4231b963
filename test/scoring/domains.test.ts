import { describe, expect, it } from 'vitest';
import { DOMAIN_NOTES } from '../../src/scoring/domains.js';
import { solveAge } from '../../src/scoring/health-age.js';
import { healthScore } from '../../src/scoring/health-score.js';
import { pceOptimalProfile, pceRisk } from '../../src/scoring/models/pce.js';
import { phenoAge } from '../../src/scoring/models/phenoage.js';
import { preventOptimalProfile, preventRisk, preventRiskByAge } from '../../src/scoring/models/prevent.js';
import {
  sanAntonioDiabetesRisk,
  sanAntonioOptimalRisk,
} from '../../src/scoring/models/san-antonio-diabetes.js';
import { scoreEvent } from '../../src/scoring/score-event.js';
import type { DomainName, EventScore, HealthEventInput } from '../../src/scoring/types.js';
import { fullEvent, predictor, TEST_STATIN_CODE, testInputCodes } from './fixtures.js';

const domain = (score: EventScore, name: DomainName) => {
  const found = score.domains.find((d) => d.domain === name);
  if (!found) throw new Error(`no ${name} domain`);
  return found;
};

describe('healthScore', () => {
  it('maps risk ratios onto 100 / (1 + ratio / 4)', () => {
    expect([0.5, 1, 2, 4, 8, 16].map(healthScore)).toEqual([88.9, 80, 66.7, 50, 33.3, 20]);
  });

  it('moves at most 25 points per e-fold of the ratio (its slope at ratio 4)', () => {
    for (let ratio = 0.05; ratio < 500; ratio *= 1.1) {
      const step = 1.01;
      const exact = (r: number) => 100 / (1 + r / 4);
      expect(Math.abs(exact(ratio * step) - exact(ratio)) / Math.log(step)).toBeLessThanOrEqual(25);
    }
  });

  it('decreases strictly with the ratio and stays inside 0-100', () => {
    let previous = 100;
    for (let ratio = 0.25; ratio < 64; ratio *= 1.3) {
      const score = healthScore(ratio);
      expect(score).toBeLessThan(previous);
      expect(score).toBeGreaterThan(0);
      previous = score;
    }
    expect(healthScore(1e-9)).toBeLessThanOrEqual(100);
    expect(healthScore(1e9)).toBeGreaterThanOrEqual(0);
  });

  it('rejects a ratio that is not positive', () => {
    expect(() => healthScore(0)).toThrow(RangeError);
    expect(() => healthScore(Number.NaN)).toThrow(RangeError);
  });
});

describe('solveAge', () => {
  const linear = (age: number) => age / 100;

  it('finds the age of equal risk by bisection', () => {
    expect(solveAge(linear, 0.5, 40, 79).value).toBeCloseTo(50, 3);
  });

  it('clamps to the valid ages and flags which end', () => {
    expect(solveAge(linear, 0.1, 40, 79)).toEqual({ value: 40, clamped: 'below' });
    expect(solveAge(linear, 0.9, 40, 79)).toEqual({ value: 79, clamped: 'above' });
  });
});

describe('domains of an event', () => {
  const score = scoreEvent(fullEvent('e1', 55), testInputCodes());

  it('overall: PhenoAge is the health age; risk ratio against the reference population', () => {
    const d = domain(score, 'overall');
    expect(d.model).toBe('phenoage');
    expect(d.health_age).toBe(score.models.phenoage?.value);
    expect(d.risk).toBe(score.models.phenoage?.mortality_score);
    expect(d.risk_ratio).toBeLessThan(1); // PhenoAge below chronological age
    expect(d.notes).toContain(DOMAIN_NOTES.phenoAgeRatio);
  });

  it('cardiovascular: PREVENT total CVD, ratio to the optimal profile, age at which the optimal profile matches', () => {
    const d = domain(score, 'cardiovascular');
    expect(d.model).toBe('prevent_total_cvd');
    expect(d.model_reason).toContain('PREVENT');
    const inputs = {
      ageYears: 55,
      sex: 'female' as const,
      totalCholesterolMgDl: 213,
      hdlMgDl: 50,
      systolicBpMmHg: 120,
      bpTreated: false,
      smoker: false,
      diabetic: false,
      statin: false,
      kidney: { creatinineMgDl: 0.9 },
    };
    const risk = preventRisk('totalCvd')(inputs).value;
    expect(d.risk).toBeCloseTo(risk, 12);
    const optimalAt = preventRiskByAge('totalCvd', preventOptimalProfile('female'));
    expect(d.risk_ratio).toBeCloseTo(risk / optimalAt(55), 12);
    const health = d.health_age ?? Number.NaN;
    expect(optimalAt(health)).toBeCloseTo(risk, 6);
    expect(d.health_score).toBe(healthScore(d.risk_ratio ?? 0));
    expect(d.inputs_used).toEqual(expect.arrayContaining(['statin', 'creatinine', 'total_cholesterol']));
    expect(d.inputs_missing).toEqual([]);
    expect(score.models.prevent_ascvd?.risk_10y).toBeGreaterThan(0);
    expect(score.models.prevent_heart_failure?.risk_30y).toBeGreaterThan(0);
    expect(d.notes).toContain(DOMAIN_NOTES.preventRisk);
    // The earlier models stay in the report model.
    expect(score.models.pce_ascvd_10y?.value).toBeCloseTo(0.0205, 4); // the Goff example woman (white, 55)
    expect(score.models.heart_age?.unit).toBe('a');
  });

  it('cardiovascular: falls back to the Pooled Cohort Equations when PREVENT lacks an input, and says why', () => {
    const event = fullEvent();
    event.predictors = event.predictors.filter((p) => p.observation_code !== TEST_STATIN_CODE);
    const s = scoreEvent(event, testInputCodes());
    const d = domain(s, 'cardiovascular');
    expect(d.model).toBe('pce_ascvd_10y');
    expect(d.model_reason).toBe(
      'Pooled Cohort Equations (10-year ASCVD): PREVENT not computed (missing statin therapy).',
    );
    expect(d.inputs_missing).toEqual(['statin']);
    expect(d.risk).toBeCloseTo(0.0205, 4);
    const optimal = pceRisk(pceOptimalProfile(55, 'female', 'white')).value;
    expect(d.risk_ratio).toBeCloseTo(0.0205223 / optimal, 4);
    const health = d.health_age ?? Number.NaN;
    expect(health).toBeGreaterThan(55);
    expect(pceRisk(pceOptimalProfile(health, 'female', 'white')).value).toBeCloseTo(d.risk ?? 0, 6);
  });

  it('cardiovascular: falls back to Framingham with heart age when neither PREVENT nor PCE applies', () => {
    const event = fullEvent('y', 35);
    event.predictors = event.predictors.filter((p) => p.observation_code !== '2160-0'); // no creatinine
    const young = scoreEvent(event, testInputCodes());
    const d = domain(young, 'cardiovascular');
    expect(young.models_not_computed.pce_ascvd_10y?.status).toBe('out_of_range');
    expect(d.model).toBe('framingham_cvd_10y');
    expect(d.model_reason).toBe(
      'Framingham general CVD (10-year): PREVENT not computed (missing creatinine); Pooled Cohort Equations not computed (age 35 is outside [40, 79]).',
    );
    expect(d.health_age).toBe(young.models.heart_age?.value);
  });

  it('cardiovascular: outside ages 30-79 no model applies, and the reason names each range', () => {
    const old = scoreEvent(fullEvent('o', 82), testInputCodes());
    const d = domain(old, 'cardiovascular');
    expect(d.model).toBeNull();
    expect(d.health_score).toBeNull();
    expect(d.model_reason).toBe(
      'No model: PREVENT not computed (age 82 is outside [30, 79]); Pooled Cohort Equations not computed (age 82 is outside [40, 79]); Framingham general CVD not computed (age 82 is outside [30, 74]).',
    );
    expect(old.models_not_computed.prevent_total_cvd).toEqual({
      status: 'out_of_range',
      reason: 'prevent_total_cvd: age = 82 is outside [30, 79]',
    });
  });

  it('metabolic: San Antonio risk and ratio to the optimal profile, no health age, with the reasons', () => {
    const d = domain(score, 'metabolic');
    expect(d.model).toBe('san_antonio_diabetes_7_5y');
    const inputs = {
      ageYears: 55,
      sex: 'female' as const,
      fastingGlucoseMgDl: 92,
      systolicBpMmHg: 120,
      hdlMgDl: 50,
      bmi: 24,
      familyHistory: false,
      diagnosedDiabetes: false,
    };
    expect(d.risk).toBeCloseTo(sanAntonioDiabetesRisk(inputs).value, 12);
    expect(d.risk_ratio).toBeCloseTo(
      sanAntonioDiabetesRisk(inputs).value / sanAntonioOptimalRisk(inputs),
      12,
    );
    expect(d.health_age).toBeNull();
    expect(d.notes).toEqual(
      expect.arrayContaining([
        DOMAIN_NOTES.diabetesAge,
        DOMAIN_NOTES.diabetesEthnicity,
        DOMAIN_NOTES.diabetesFamily,
      ]),
    );
    expect(d.model_reason).toContain('San Antonio Diabetes Prediction Model');
    expect(d.inputs_used).not.toContain('triglycerides');
    // The categorical Framingham Offspring model is still computed, as a secondary model.
    expect(score.models.framingham_diabetes_8y?.value).toBeGreaterThan(0);
    expect(score.models.homa_ir?.value).toBeCloseTo((92 * 6.5) / 405, 10);
  });

  it('metabolic: at a diabetic fasting glucose the San Antonio model gives no score, and HOMA-IR does not stand in', () => {
    const event = fullEvent();
    event.predictors = event.predictors.filter((p) => p.observation_code !== '2345-7');
    event.predictors.push(predictor('2345-7', '130', 'mg/dL'));
    const s = scoreEvent(event, testInputCodes());
    const d = domain(s, 'metabolic');
    expect(d.model).toBeNull();
    expect(d.chosen_model).toBe('san_antonio_diabetes_7_5y');
    expect(d.health_score).toBeNull();
    expect(d.model_reason).toContain(
      'San Antonio Diabetes Prediction Model not computed (glucose 130 is outside (0, 126) mg/dL (non-diabetic))',
    );
    // HOMA-IR is still computed for the report model, but does not score the domain.
    expect(s.models.homa_ir?.value).toBeGreaterThan(0);
  });

  it('metabolic: with diagnosed diabetes (outside the San Antonio population) HOMA-IR gives a value', () => {
    const event = fullEvent();
    event.predictors = event.predictors.filter((p) => p.observation_code !== '33248-6');
    event.predictors.push(predictor('33248-6', 'Yes'));
    const d = domain(scoreEvent(event, testInputCodes()), 'metabolic');
    expect(d.model).toBe('homa_ir');
    expect(d.health_score).toBeNull();
    expect(d.model_reason).toBe(
      "HOMA-IR, a value without a score: San Antonio Diabetes Prediction Model not computed (diabetes status true is outside the model's population (people without diabetes)).",
    );
  });

  it('kidney and liver: values with their published category, nulls explained', () => {
    const kidney = domain(score, 'kidney');
    expect(kidney.model).toBe('egfr_ckd_epi_2021');
    expect(kidney.category).toBe('G2');
    expect([kidney.risk, kidney.risk_ratio, kidney.health_age, kidney.health_score]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(kidney.inputs_missing).toEqual(['cystatin_c']);
    const liver = domain(score, 'liver');
    expect(liver.model).toBe('fib4');
    expect(liver.value).toBeCloseTo((55 * 22) / (250 * Math.sqrt(25)), 10);
    expect(liver.category).toBe('low');
    expect(liver.notes).toContain(DOMAIN_NOTES.valueModel);
  });

  it('prefers the creatinine-cystatin C equation when cystatin C is present', () => {
    const withCys = fullEvent();
    withCys.predictors.push(predictor('33863-2', '0.9', 'mg/L'));
    const d = domain(scoreEvent(withCys, testInputCodes()), 'kidney');
    expect(d.model).toBe('egfr_ckd_epi_2021_cr_cys');
    expect(d.inputs_missing).toEqual([]);
  });

  it('falls back to a lab-reported CKD-EPI 2021 eGFR when creatinine is absent', () => {
    const event: HealthEventInput = {
      health_event_id: 'r',
      event_age: 60,
      predictors: [predictor('98979-8', '58', 'mL/min/1.73m2'), predictor('76689-9', 'male')],
    };
    const s = scoreEvent(event);
    expect(domain(s, 'kidney')).toMatchObject({ model: 'egfr_ckd_epi_2021', value: 58, category: 'G3a' });
    expect(s.models.egfr_ckd_epi_2021?.source).toBe('reported');
  });

  it('reports missing inputs as coverage, never as zeros', () => {
    const sparse: HealthEventInput = {
      health_event_id: 's',
      event_age: 50,
      predictors: [predictor('2093-3', '200', 'mg/dL'), predictor('76689-9', 'female')],
    };
    const s = scoreEvent(sparse);
    const cv = domain(s, 'cardiovascular');
    expect(cv.model).toBeNull();
    expect([cv.value, cv.risk, cv.health_score, cv.health_age]).toEqual([null, null, null, null]);
    expect(cv.inputs_missing).toEqual(
      expect.arrayContaining([
        'race',
        'hdl_cholesterol',
        'systolic_bp',
        'bp_treatment',
        'smoking',
        'diabetes',
        'statin',
        'creatinine',
      ]),
    );
    expect(cv.inputs_missing).not.toContain('total_cholesterol');
    expect(domain(s, 'overall').inputs_missing).toContain('crp');
    expect(s.models).toEqual({});
  });

  it('notes when PhenoAge used a CRP reporting limit', () => {
    const event = fullEvent();
    event.predictors = event.predictors.filter((p) => p.observation_code !== '30522-7');
    event.predictors.push(predictor('30522-7', '<0.2', 'mg/L'));
    const s = scoreEvent(event, testInputCodes());
    expect(domain(s, 'overall').notes).toContain(DOMAIN_NOTES.crpBound);
    expect(s.models.phenoage?.value).toBeCloseTo(
      phenoAge({
        ageYears: 55,
        albuminGPerL: 45,
        creatinineUmolPerL: 0.9 * 88.4016973126,
        glucoseMmolPerL: 92 * 0.0555074490997,
        crpMgPerDl: 0.02,
        lymphocytePercent: 30,
        mcvFl: 90,
        rdwPercent: 13,
        alkalinePhosphataseUPerL: 70,
        wbc10e3PerUl: 6,
      }).value,
      8,
    );
  });
});
