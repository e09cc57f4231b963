import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/scoring/domains.js';
import { defaultInputCodes } from '../../src/scoring/input-codes.js';
import { readInputs } from '../../src/scoring/inputs.js';
import { scoreEvent } from '../../src/scoring/score-event.js';
import type { DomainScore, HealthEventInput, ScoringMetadata } from '../../src/scoring/types.js';
import { fullEvent, predictor, testInputCodes } from './fixtures.js';

const untreatedWhite = (sex: 'female' | 'male'): ScoringMetadata => ({
  sex,
  smoker: false,
  bp_treated: false,
  diabetes: false,
  race: 'white',
  statin: false,
});

function cardiovascular(
  age: number,
  values: { tc: number; hdl: number; sbp: number; egfr?: number; creatinine?: number },
  metadata: ScoringMetadata,
): DomainScore {
  const event: HealthEventInput = {
    health_event_id: 'cv',
    event_age: age,
    predictors: [
      predictor('2093-3', String(values.tc), 'mg/dL'),
      predictor('2085-9', String(values.hdl), 'mg/dL'),
      predictor('8480-6', String(values.sbp), 'mm[Hg]'),
      ...(values.egfr === undefined ? [] : [predictor('98979-8', String(values.egfr), 'mL/min/1.73m2')]),
      ...(values.creatinine === undefined ? [] : [predictor('2160-0', String(values.creatinine), 'mg/dL')]),
    ],
  };
  const found = scoreEvent(event, undefined, metadata).domains.find((d) => d.domain === 'cardiovascular');
  if (!found) throw new Error('no cardiovascular domain');
  return found;
}

describe('no extrapolation (issue 31, point 3)', () => {
  it("the issue's case: male 55, TC 200, HDL 18, SBP 140 untreated gives no PCE value, and the reason names HDL and its range", () => {
    // Without statin, PREVENT lacks an input and the Pooled Cohort Equations apply: HDL 18 is outside them.
    const { statin: _statin, ...noStatin } = untreatedWhite('male');
    const event: HealthEventInput = {
      health_event_id: 'hdl18',
      event_age: 55,
      predictors: [
        predictor('2093-3', '200', 'mg/dL'),
        predictor('2085-9', '18', 'mg/dL'),
        predictor('8480-6', '140', 'mm[Hg]'),
      ],
    };
    const s = scoreEvent(event, undefined, noStatin);
    const d = s.domains.find((x) => x.domain === 'cardiovascular');
    expect(s.models.pce_ascvd_10y).toBeUndefined();
    expect(s.models_not_computed.pce_ascvd_10y).toEqual({
      status: 'out_of_range',
      reason: 'pce_ascvd_10y: hdl = 18 is outside [20, 100] mg/dL',
    });
    expect(d?.model).toBeNull();
    expect(d?.chosen_model).toBe('pce_ascvd_10y');
    expect([d?.risk, d?.health_score, d?.health_age]).toEqual([null, null, null]);
    expect(d?.model_reason).toContain('HDL cholesterol 18 is outside [20, 100] mg/dL');
    expect(d?.model_reason).not.toContain('Framingham');
    // With every PREVENT input present, PREVENT applies and says the same; no fallback either.
    const withPrevent = cardiovascular(
      55,
      { tc: 200, hdl: 18, sbp: 140, creatinine: 1 },
      untreatedWhite('male'),
    );
    expect(withPrevent.model).toBeNull();
    expect(withPrevent.chosen_model).toBe('prevent_total_cvd');
    expect(withPrevent.model_reason).toContain(
      'PREVENT not computed (HDL cholesterol 18 is outside [20, 100] mg/dL)',
    );
  });

  it('checks every PCE range (Goff 2013 / ACC-AHA): TC 130-320, HDL 20-100, SBP 90-200, ages 40-79', () => {
    const { statin: _statin, ...noStatin } = untreatedWhite('female');
    const inRange = { tc: 200, hdl: 50, sbp: 120 };
    expect(cardiovascular(50, inRange, noStatin).model).toBe('pce_ascvd_10y');
    for (const [change, words] of [
      [{ tc: 129 }, 'total cholesterol 129 is outside [130, 320] mg/dL'],
      [{ tc: 321 }, 'total cholesterol 321 is outside [130, 320] mg/dL'],
      [{ hdl: 101 }, 'HDL cholesterol 101 is outside [20, 100] mg/dL'],
      [{ sbp: 89 }, 'systolic blood pressure 89 is outside [90, 200] mm[Hg]'],
      [{ sbp: 201 }, 'systolic blood pressure 201 is outside [90, 200] mm[Hg]'],
    ] as const) {
      const d = cardiovascular(50, { ...inRange, ...change }, noStatin);
      expect(d.model, JSON.stringify(change)).toBeNull();
      expect(d.model_reason).toContain(words);
    }
  });
});

describe("no jumps at a model's range edge (issue 31, point 4): the issue's three cases", () => {
  const complete = {
    smoker: false,
    bp_treated: false,
    diabetes: false,
    race: 'white',
    statin: false,
  } as const;

  it('male 38, eGFR 14.99 vs 15.00: PREVENT applies to both; below its range there is no score, not Framingham', () => {
    const below = cardiovascular(
      38,
      { tc: 200, hdl: 50, sbp: 130, egfr: 14.99 },
      { sex: 'male', ...complete },
    );
    const at = cardiovascular(38, { tc: 200, hdl: 50, sbp: 130, egfr: 15 }, { sex: 'male', ...complete });
    expect([below.chosen_model, at.chosen_model]).toEqual(['prevent_total_cvd', 'prevent_total_cvd']);
    expect(below.model).toBeNull();
    expect(below.model_reason).toContain('eGFR 14.99 is outside [15, 140] mL/min/{1.73_m2}');
    expect(at.model).toBe('prevent_total_cvd');
  });

  it('SBP 180 vs 180.02: one model (PREVENT accepts 90-200), scores within a point', () => {
    const a = cardiovascular(55, { tc: 200, hdl: 50, sbp: 180, egfr: 90 }, { sex: 'male', ...complete });
    const b = cardiovascular(55, { tc: 200, hdl: 50, sbp: 180.02, egfr: 90 }, { sex: 'male', ...complete });
    expect([a.model, b.model]).toEqual(['prevent_total_cvd', 'prevent_total_cvd']);
    expect(Math.abs((a.health_score ?? 0) - (b.health_score ?? 100))).toBeLessThanOrEqual(0.1);
  });

  it('female 45, HDL 19.998 vs 20.002: PREVENT applies to both; below its range there is no score', () => {
    const below = cardiovascular(
      45,
      { tc: 200, hdl: 19.998, sbp: 130, egfr: 90 },
      { sex: 'female', ...complete },
    );
    const at = cardiovascular(
      45,
      { tc: 200, hdl: 20.002, sbp: 130, egfr: 90 },
      { sex: 'female', ...complete },
    );
    expect([below.chosen_model, at.chosen_model]).toEqual(['prevent_total_cvd', 'prevent_total_cvd']);
    expect(below.model).toBeNull();
    expect(below.model_reason).toContain('HDL cholesterol 19.998 is outside [20, 100] mg/dL');
    expect(at.health_score).not.toBeNull();
  });
});

describe('age bands and PREVENT heart failure (issue 31, point 6)', () => {
  it('79.9 is 79 years old, as the papers count ages: PREVENT scores it; 80 is outside every model', () => {
    const s = scoreEvent(fullEvent('old', 79.9), testInputCodes());
    expect(s.domains.find((d) => d.domain === 'cardiovascular')?.model).toBe('prevent_total_cvd');
    expect(s.models.pce_ascvd_10y).toBeDefined();
    const eighty = scoreEvent(fullEvent('80', 80), testInputCodes());
    expect(eighty.domains.find((d) => d.domain === 'cardiovascular')?.model).toBeNull();
  });

  it('computes PREVENT heart failure without cholesterol or a statin answer', () => {
    const event = fullEvent();
    event.predictors = event.predictors.filter(
      (p) => !['2093-3', '2085-9', 'TEST-STATIN'].includes(p.observation_code),
    );
    const s = scoreEvent(event, testInputCodes());
    expect(s.models.prevent_heart_failure?.risk_10y).toBeGreaterThan(0);
    expect(s.models.prevent_total_cvd).toBeUndefined();
  });
});

describe('model specs', () => {
  const specs = [...new Set(DOMAINS.flatMap((d) => [...d.models, ...d.candidates.map((c) => c.model)]))];

  it('every range has a source, and every spec reads only the inputs it declares', () => {
    const ev = readInputs(fullEvent(), testInputCodes());
    ev.numeric.cystatin_c = 0.9;
    ev.numeric.egfr_ckd_epi_2021_reported = 80;
    for (const spec of specs) {
      for (const range of spec.ranges())
        expect(range.source.length, `${spec.id} ${range.parameter}`).toBeGreaterThan(20);
      const declared = spec.inputs.map((i) => i.input);
      const gathered = spec.gather(ev);
      expect(gathered.ok, spec.id).toBe(true);
      if (gathered.ok) for (const used of gathered.used) expect(declared, spec.id).toContain(used);
    }
  });

  it('declares units the input configuration can convert to', () => {
    const codes = defaultInputCodes();
    for (const spec of specs)
      for (const input of spec.inputs)
        if (input.input in codes.numeric) expect(input.unit, `${spec.id} ${input.input}`).not.toBe('');
  });
});
