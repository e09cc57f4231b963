import { describe, expect, it } from 'vitest';
import { reportMetadataSchema } from '../../src/schemas/report.js';
import { readInputs } from '../../src/scoring/inputs.js';
import { diabetesRisk } from '../../src/scoring/models/diabetes-risk.js';
import { type FraminghamInputs, framinghamRisk, heartAge } from '../../src/scoring/models/framingham.js';
import { type PceInputs, pceRisk } from '../../src/scoring/models/pce.js';
import { preventRisk } from '../../src/scoring/models/prevent.js';
import { sanAntonioDiabetesRisk } from '../../src/scoring/models/san-antonio-diabetes.js';
import { scoreEvent } from '../../src/scoring/score-event.js';
import { scoreRequest } from '../../src/scoring/score-request.js';
import type { DomainName, EventScore, HealthEventInput, ScoringMetadata } from '../../src/scoring/types.js';
import { predictor } from './fixtures.js';

/**
 * Non-lab inputs from report_metadata (docs/scoring-inputs.md). The event is the Goff 2013 worked example
 * (Appendix 7 Table A): age 55, TC 213 mg/dL, HDL-C 50 mg/dL, untreated SBP 120 mm Hg, non-smoker, no
 * diabetes -> white women 2.1%, white men 5.3% (5.38% from the printed coefficients, see pce.test.ts).
 * Only the shipped input codes are used: no test-only codes.
 */
function goffEvent(id = 'goff', extra: HealthEventInput['predictors'] = []): HealthEventInput {
  return {
    health_event_id: id,
    event_age: 55,
    predictors: [
      predictor('2093-3', '213', 'mg/dL'),
      predictor('2085-9', '50', 'mg/dL'),
      predictor('8480-6', '120', 'mm[Hg]'),
      ...extra,
    ],
  };
}

const untreated = (sex: 'female' | 'male'): ScoringMetadata => ({
  sex,
  race: 'white',
  smoker: false,
  bp_treated: false,
  diabetes: false,
});

const goffInputs = (sex: 'female' | 'male'): PceInputs => ({
  ageYears: 55,
  sex,
  race: 'white',
  totalCholesterolMgDl: 213,
  hdlMgDl: 50,
  systolicBpMmHg: 120,
  bpTreated: false,
  smoker: false,
  diabetic: false,
});

const domainOf = (s: EventScore, name: DomainName) => {
  const d = s.domains.find((x) => x.domain === name);
  if (!d) throw new Error(`no ${name} domain`);
  return d;
};

const percent = (risk: number | undefined) => Math.round((risk ?? Number.NaN) * 1000) / 10;

describe('report_metadata inputs', () => {
  it('runs the PCE and Framingham models on a real request and matches the Goff example (white woman 2.1%)', () => {
    const s = scoreEvent(goffEvent(), undefined, untreated('female'));
    expect(s.sex).toBe('female');
    expect(s.models.pce_ascvd_10y?.equation).toBe('white_female');
    expect(percent(s.models.pce_ascvd_10y?.value)).toBe(2.1);
    expect(s.models.pce_ascvd_10y?.value).toBeCloseTo(pceRisk(goffInputs('female')).value, 12);
    const { race: _race, ...frs } = goffInputs('female');
    expect(s.models.framingham_cvd_10y?.value).toBeCloseTo(framinghamRisk(frs as FraminghamInputs).value, 12);
    expect(s.models.heart_age?.value).toBeCloseTo(heartAge(frs as FraminghamInputs).value, 12);
    const cv = domainOf(s, 'cardiovascular');
    // Without statin and kidney function PREVENT cannot run; the domain says so and uses the PCE.
    expect(cv.model).toBe('pce_ascvd_10y');
    expect(cv.inputs_missing).toEqual(['statin', 'creatinine', 'bmi']);
    expect(cv.model_reason).toBe(
      'Pooled Cohort Equations (10-year ASCVD): PREVENT not computed (missing statin therapy, creatinine).',
    );
    expect(cv.inputs_used).toEqual(
      expect.arrayContaining(['age', 'sex', 'race', 'bp_treatment', 'smoking', 'diabetes', 'systolic_bp']),
    );
    expect(cv.health_score).not.toBeNull();
  });

  it('matches the Goff example for the white man (5.3%)', () => {
    const s = scoreEvent(goffEvent(), undefined, untreated('male'));
    expect(s.models.pce_ascvd_10y?.equation).toBe('white_male');
    expect(Math.abs((s.models.pce_ascvd_10y?.value ?? 0) - 0.053)).toBeLessThan(0.001);
    expect(s.models.pce_ascvd_10y?.value).toBeCloseTo(pceRisk(goffInputs('male')).value, 12);
    expect(s.models.framingham_cvd_10y).toBeDefined();
  });

  it('runs PREVENT with statin from report_metadata and the eGFR the lab reported', () => {
    const event = goffEvent('prevent', [predictor('98979-8', '85', 'mL/min/{1.73_m2}')]);
    const s = scoreEvent(event, undefined, { ...untreated('female'), statin: true });
    expect(s.input_sources.statin).toEqual({ source: 'report_metadata', member: 'statin' });
    const expected = preventRisk('totalCvd')({
      ...goffInputs('female'),
      statin: true,
      kidney: { egfr: 85 },
    }).value;
    expect(s.models.prevent_total_cvd?.value).toBeCloseTo(expected, 12);
    expect(s.models.prevent_total_cvd?.egfr_source).toBe('reported');
    const cv = domainOf(s, 'cardiovascular');
    expect(cv.model).toBe('prevent_total_cvd');
    expect(cv.inputs_used).toEqual(expect.arrayContaining(['statin', 'egfr_ckd_epi_2021_reported']));
    // Heart failure needs BMI, which this event lacks: the rest of PREVENT is unaffected.
    expect(s.models_not_computed.prevent_heart_failure).toEqual({
      status: 'missing_inputs',
      inputs_missing: ['bmi'],
    });
    expect(cv.inputs_missing).toEqual(['bmi']);
  });

  it('names where every input came from in input_sources', () => {
    const s = scoreEvent(goffEvent(), undefined, untreated('female'));
    expect(s.input_sources).toEqual({
      total_cholesterol: { source: 'predictor', observation_code: '2093-3' },
      hdl_cholesterol: { source: 'predictor', observation_code: '2085-9' },
      systolic_bp: { source: 'predictor', observation_code: '8480-6' },
      sex: { source: 'report_metadata', member: 'sex' },
      race: { source: 'report_metadata', member: 'race' },
      smoking: { source: 'report_metadata', member: 'smoker' },
      bp_treatment: { source: 'report_metadata', member: 'bp_treated' },
      diabetes: { source: 'report_metadata', member: 'diabetes' },
    });
  });

  it('lets a predictor of the event override report_metadata', () => {
    const event = goffEvent('override', [
      predictor('72166-2', 'LA18976-3'), // current every day smoker
      predictor('76689-9', 'male'),
    ]);
    const s = scoreEvent(event, undefined, untreated('female'));
    expect(s.sex).toBe('male');
    expect(s.input_sources.smoking).toEqual({ source: 'predictor', observation_code: '72166-2' });
    expect(s.input_sources.sex).toEqual({ source: 'predictor', observation_code: '76689-9' });
    expect(s.input_sources.bp_treatment).toEqual({ source: 'report_metadata', member: 'bp_treated' });
    expect(s.models.pce_ascvd_10y?.equation).toBe('white_male');
    expect(s.models.pce_ascvd_10y?.value).toBeCloseTo(
      pceRisk({ ...goffInputs('male'), smoker: true }).value,
      12,
    );
  });

  it('falls back to report_metadata when the predictor for an input cannot be read', () => {
    const r = readInputs(goffEvent('x', [predictor('72166-2', 'LA18979-7')]), undefined, untreated('female'));
    expect(r.categorical.smoking).toBe('false');
    expect(r.sources.smoking).toEqual({ source: 'report_metadata', member: 'smoker' });
    expect(r.problems).toEqual([{ input: 'smoking', observation_code: '72166-2', reason: 'unknown_value' }]);
  });

  it.each([
    ['absent', {}],
    ['null', { bp_treated: null }],
  ])('reports bp_treatment missing when bp_treated is %s, never as false', (_label, extra) => {
    const { bp_treated: _omit, ...rest } = untreated('female');
    const s = scoreEvent(goffEvent(), undefined, { ...rest, ...extra });
    for (const id of ['pce_ascvd_10y', 'framingham_cvd_10y', 'heart_age']) {
      expect(s.models[id]).toBeUndefined();
      expect(s.models_not_computed[id]).toEqual({
        status: 'missing_inputs',
        inputs_missing: ['bp_treatment'],
      });
    }
    const cv = domainOf(s, 'cardiovascular');
    expect(cv.inputs_missing).toEqual(['bp_treatment', 'statin', 'creatinine', 'bmi']);
    expect([cv.model, cv.value, cv.risk, cv.health_score, cv.health_age]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(s.input_sources.bp_treatment).toBeUndefined();
  });

  it('runs the diabetes models with parental_diabetes from report_metadata, and not without it', () => {
    const event = goffEvent('dm', [
      predictor('2345-7', '105', 'mg/dL'),
      predictor('39156-5', '31', 'kg/m2'),
      predictor('2571-8', '160', 'mg/dL'),
      predictor('8462-4', '80', 'mm[Hg]'),
    ]);
    const metadata = { ...untreated('female'), parental_diabetes: true };
    const s = scoreEvent(event, undefined, metadata);
    expect(s.models.framingham_diabetes_8y?.value).toBeCloseTo(
      diabetesRisk({
        ageYears: 55,
        sex: 'female',
        fastingGlucoseMgDl: 105,
        bmi: 31,
        hdlMgDl: 50,
        triglyceridesMgDl: 160,
        systolicBpMmHg: 120,
        diastolicBpMmHg: 80,
        bpTreated: false,
        parentalHistory: true,
      }).value,
      12,
    );
    expect(domainOf(s, 'metabolic').model).toBe('san_antonio_diabetes_7_5y');
    expect(s.models.san_antonio_diabetes_7_5y?.value).toBeCloseTo(
      sanAntonioDiabetesRisk({
        ageYears: 55,
        sex: 'female',
        fastingGlucoseMgDl: 105,
        systolicBpMmHg: 120,
        hdlMgDl: 50,
        bmi: 31,
        familyHistory: true,
        diagnosedDiabetes: false,
      }).value,
      12,
    );
    expect(s.input_sources.parental_diabetes).toEqual({
      source: 'report_metadata',
      member: 'parental_diabetes',
    });

    const without = scoreEvent(event, undefined, untreated('female'));
    for (const id of ['framingham_diabetes_8y', 'san_antonio_diabetes_7_5y']) {
      expect(without.models_not_computed[id]).toEqual({
        status: 'missing_inputs',
        inputs_missing: ['parental_diabetes'],
      });
    }
  });

  it('does not use a report_metadata value of the wrong type, and says so', () => {
    const bad = { ...untreated('female'), smoker: 'no', race: 'White' } as unknown as ScoringMetadata;
    const r = readInputs(goffEvent(), undefined, bad);
    expect(r.categorical.smoking).toBeUndefined();
    expect(r.categorical.race).toBeUndefined();
    expect(r.problems).toEqual([
      { input: 'smoking', metadata_member: 'smoker', reason: 'unknown_value' },
      { input: 'race', metadata_member: 'race', reason: 'unknown_value' },
    ]);
  });

  it('threads report_metadata from scoreRequest into every event', () => {
    const report = scoreRequest({
      uid_ext: 'u',
      report_metadata: untreated('female'),
      health_events: [goffEvent('a'), { ...goffEvent('b'), event_age: 60 }],
    });
    for (const event of report.events) {
      expect(event.models.pce_ascvd_10y).toBeDefined();
      expect(event.input_sources.bp_treatment).toEqual({ source: 'report_metadata', member: 'bp_treated' });
    }
    expect(report.changes.some((c) => c.domain === 'cardiovascular')).toBe(true);
    const bare = scoreRequest({ uid_ext: 'u', health_event: goffEvent() });
    expect(bare.events[0]?.models.pce_ascvd_10y).toBeUndefined();
    expect(bare.events[0]?.sex).toBeNull();
  });
});

describe('reportMetadataSchema scoring members', () => {
  const base = { event_id: 'e', event_asof_dtutc: '2025-03-14T09:30:00Z' };

  it('accepts the documented members, null for unknown, and leaves them out when absent', () => {
    const parsed = reportMetadataSchema.parse({
      ...base,
      sex: 'female',
      smoker: false,
      bp_treated: true,
      diabetes: false,
      parental_diabetes: null,
      race: 'african_american',
      statin: true,
    });
    expect(parsed).toMatchObject({
      sex: 'female',
      smoker: false,
      bp_treated: true,
      diabetes: false,
      parental_diabetes: null,
      race: 'african_american',
      statin: true,
    });
    expect('bp_treated' in reportMetadataSchema.parse(base)).toBe(false);
  });

  it.each([
    ['sex', 'F', "expected sex as 'female' or 'male'"],
    ['smoker', 'no', 'expected smoker (current smoker) as true or false'],
    ['bp_treated', 0, 'expected bp_treated (on blood-pressure-lowering treatment) as true or false'],
    ['diabetes', 'false', 'expected diabetes (diagnosed diabetes) as true or false'],
    ['parental_diabetes', 1, 'expected parental_diabetes (a parent with diabetes) as true or false'],
    ['race', 'White', "expected race as 'white', 'african_american' or 'other'"],
    ['statin', 'yes', 'expected statin (on statin therapy) as true or false'],
  ])('rejects %s = %j with a clear message', (member, value, message) => {
    const result = reportMetadataSchema.safeParse({ ...base, [member]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.path).toEqual([member]);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
});
