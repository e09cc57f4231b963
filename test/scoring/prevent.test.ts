import { describe, expect, it } from 'vitest';
import { ModelInputError } from '../../src/scoring/errors.js';
import { egfrCreatinine } from '../../src/scoring/models/ckd-epi.js';
import {
  type PreventInputs,
  type PreventOutcome,
  preventOptimalProfile,
  preventRisk,
  preventRiskByAge,
} from '../../src/scoring/models/prevent.js';

const OUTCOMES: PreventOutcome[] = ['totalCvd', 'ascvd', 'heartFailure'];

/**
 * The PREVENT example patient: a woman and a man aged 50, total cholesterol 200 mg/dL, HDL-C 45 mg/dL, SBP
 * 160 mm Hg on treatment, diabetes, non-smoker, eGFR 90, BMI 35, no statin (Khan SS et al. Circulation
 * 2024;149:430-449, Supplemental Table S12).
 */
const example = (sex: 'female' | 'male'): PreventInputs => ({
  ageYears: 50,
  sex,
  totalCholesterolMgDl: 200,
  hdlMgDl: 45,
  systolicBpMmHg: 160,
  bpTreated: true,
  smoker: false,
  diabetic: true,
  statin: false,
  kidney: { egfr: 90 },
  bmi: 35,
});

const round = (value: number | null | undefined, digits: number) =>
  Math.round((value ?? Number.NaN) * 10 ** digits) / 10 ** digits;

describe('PREVENT base model: published worked examples', () => {
  /**
   * 10-year risks of the Supplemental Table S12 example to 4 decimal places, as bcjaeger/PooledCohort
   * reproduces them ("Replicate examples from Khan supplemental table S12": tests/testthat/
   * test-predict_10yr_cvd_risk.R, test-predict_10yr_ascvd_risk.R, test-predict_10yr_hf_risk.R, base model).
   */
  it.each([
    ['female', 'totalCvd', 0.1468],
    ['male', 'totalCvd', 0.1632],
    ['female', 'ascvd', 0.092],
    ['male', 'ascvd', 0.1019],
    ['female', 'heartFailure', 0.0806],
    ['male', 'heartFailure', 0.1059],
  ] as const)('S12 example, %s %s 10-year risk = %s (4 d.p.)', (sex, outcome, expected) => {
    expect(round(preventRisk(outcome)(example(sex)).risk10y, 4)).toBe(expected);
  });

  /**
   * 10- and 30-year risks of the same example as martingmayer/preventr tests/testthat/test-estimate_risk.R
   * prints them ("Base model works, female" / "male", 3 decimal places; its 10-year figures agree with S12).
   */
  it.each([
    ['female', 'totalCvd', 0.147, 0.53],
    ['female', 'ascvd', 0.092, 0.354],
    ['female', 'heartFailure', 0.081, 0.39],
    ['male', 'totalCvd', 0.163, 0.514],
    ['male', 'ascvd', 0.102, 0.349],
    ['male', 'heartFailure', 0.106, 0.424],
  ] as const)('preventr, %s %s: 10-year %s, 30-year %s (3 d.p.)', (sex, outcome, tenYear, thirtyYear) => {
    const r = preventRisk(outcome)(example(sex));
    expect(round(r.risk10y, 3)).toBe(tenYear);
    expect(round(r.risk30y, 3)).toBe(thirtyYear);
    expect(r.value).toBe(r.risk10y);
  });
});

describe('PREVENT base model: every spline branch', () => {
  /**
   * Profiles that exercise the branches the S12 example does not (SBP below 110, eGFR below 60 and above 90,
   * BMI below 30, smoking, statin, ages far from 55). Expected values come from a separate implementation
   * written for this check (Python, terms as preventr R/estimate_risk.R prep_terms() builds them, with the
   * coefficients of preventr R/sysdata.rda), not from a publication: they guard the arithmetic of each term.
   */
  const profiles: Array<[string, PreventInputs, Record<PreventOutcome, [number, number | null]>]> = [
    [
      'woman 35, SBP 100 untreated, smoker, eGFR 45, BMI 22',
      {
        ageYears: 35,
        sex: 'female',
        totalCholesterolMgDl: 180,
        hdlMgDl: 60,
        systolicBpMmHg: 100,
        bpTreated: false,
        smoker: true,
        diabetic: false,
        statin: false,
        kidney: { egfr: 45 },
        bmi: 22,
      },
      {
        totalCvd: [0.0203082188, 0.0930190828],
        ascvd: [0.0108145222, 0.0458308908],
        heartFailure: [0.0124259149, 0.0621880617],
      },
    ],
    [
      'man 72, treated SBP 150, diabetes, statin, eGFR 110, BMI 33',
      {
        ageYears: 72,
        sex: 'male',
        totalCholesterolMgDl: 250,
        hdlMgDl: 38,
        systolicBpMmHg: 150,
        bpTreated: true,
        smoker: false,
        diabetic: true,
        statin: true,
        kidney: { egfr: 110 },
        bmi: 33,
      },
      {
        totalCvd: [0.3190037187, null],
        ascvd: [0.2386982636, null],
        heartFailure: [0.1864539332, null],
      },
    ],
    [
      'man 45, SBP 125 untreated, smoker, eGFR 75, BMI 27',
      {
        ageYears: 45,
        sex: 'male',
        totalCholesterolMgDl: 150,
        hdlMgDl: 55,
        systolicBpMmHg: 125,
        bpTreated: false,
        smoker: true,
        diabetic: false,
        statin: false,
        kidney: { egfr: 75 },
        bmi: 27,
      },
      {
        totalCvd: [0.0281081546, 0.1725498502],
        ascvd: [0.0169201079, 0.0997400464],
        heartFailure: [0.0131453421, 0.1023947244],
      },
    ],
    [
      'woman 65, treated SBP 135, diabetes, statin, eGFR 55, BMI 36',
      {
        ageYears: 65,
        sex: 'female',
        totalCholesterolMgDl: 280,
        hdlMgDl: 45,
        systolicBpMmHg: 135,
        bpTreated: true,
        smoker: false,
        diabetic: true,
        statin: true,
        kidney: { egfr: 55 },
        bmi: 36,
      },
      {
        totalCvd: [0.2259094637, null],
        ascvd: [0.1582659227, null],
        heartFailure: [0.1556636026, null],
      },
    ],
  ];

  it.each(profiles)('%s', (_label, inputs, expected) => {
    for (const outcome of OUTCOMES) {
      const r = preventRisk(outcome)(inputs);
      const [tenYear, thirtyYear] = expected[outcome];
      expect(r.risk10y).toBeCloseTo(tenYear, 9);
      if (thirtyYear === null) expect(r.risk30y).toBeNull();
      else expect(r.risk30y).toBeCloseTo(thirtyYear, 9);
    }
  });
});

describe('PREVENT inputs and ranges', () => {
  it('computes eGFR from creatinine with CKD-EPI 2021, or takes a reported eGFR', () => {
    const fromCreatinine = preventRisk('totalCvd')({ ...example('female'), kidney: { creatinineMgDl: 1.1 } });
    const egfr = egfrCreatinine({ ageYears: 50, sex: 'female', creatinineMgDl: 1.1 }).value;
    expect(fromCreatinine.egfr).toBeCloseTo(egfr, 12);
    expect(fromCreatinine.egfrSource).toBe('ckd_epi_2021_creatinine');
    const reported = preventRisk('totalCvd')({ ...example('female'), kidney: { egfr } });
    expect(reported.risk10y).toBeCloseTo(fromCreatinine.risk10y, 12);
    expect(reported.egfrSource).toBe('reported');
  });

  it('gives no 30-year risk from age 60 (Khan 2024 estimate it for 30-59, in completed years)', () => {
    expect(preventRisk('totalCvd')({ ...example('male'), ageYears: 59 }).risk30y).not.toBeNull();
    // 59.5 is 59 years old, as the 30-79 band counts ages (data/SOURCES.md, Age bands).
    expect(preventRisk('totalCvd')({ ...example('male'), ageYears: 59.5 }).risk30y).not.toBeNull();
    expect(preventRisk('totalCvd')({ ...example('male'), ageYears: 60 }).risk30y).toBeNull();
  });

  it('counts the 30-79 band in completed years: 79.9 is computed, 80 is not', () => {
    expect(preventRisk('totalCvd')({ ...example('male'), ageYears: 79.9 }).risk10y).toBeGreaterThan(0);
    expect(() => preventRisk('totalCvd')({ ...example('male'), ageYears: 80 })).toThrow(ModelInputError);
    expect(() => preventRisk('totalCvd')({ ...example('male'), ageYears: 29.99 })).toThrow(ModelInputError);
  });

  it('computes heart failure without lipids or statin: its equations have no such terms', () => {
    const { totalCholesterolMgDl: _tc, hdlMgDl: _hdl, statin: _statin, ...noLipids } = example('female');
    expect(preventRisk('heartFailure')(noLipids).risk10y).toBe(
      preventRisk('heartFailure')(example('female')).risk10y,
    );
    expect(() => preventRisk('totalCvd')(noLipids)).toThrow(/prevent_total_cvd: totalCholesterol = NaN/);
  });

  it.each([
    ['age', { ageYears: 29 }],
    ['age', { ageYears: 80 }],
    ['totalCholesterol', { totalCholesterolMgDl: 129 }],
    ['totalCholesterol', { totalCholesterolMgDl: 321 }],
    ['hdl', { hdlMgDl: 19 }],
    ['systolicBp', { systolicBpMmHg: 89 }],
    ['systolicBp', { systolicBpMmHg: 201 }],
    ['egfr', { kidney: { egfr: 14 } }],
    ['egfr', { kidney: { egfr: 141 } }],
  ] as const)('is out of range when %s is outside the published range (%j)', (input, change) => {
    expect(() => preventRisk('totalCvd')({ ...example('female'), ...change })).toThrow(
      new RegExp(`prevent_total_cvd: ${input} = `),
    );
  });

  it('needs BMI (18.5-39.9) for heart failure only', () => {
    const { bmi: _bmi, ...noBmi } = example('female');
    expect(() => preventRisk('heartFailure')(noBmi)).toThrow(ModelInputError);
    expect(() => preventRisk('heartFailure')({ ...noBmi, bmi: 41 })).toThrow(ModelInputError);
    expect(preventRisk('totalCvd')(noBmi).risk10y).toBe(preventRisk('totalCvd')(example('female')).risk10y);
  });

  it('lowers the optimal profile risk below the example, and raises it with age', () => {
    for (const sex of ['female', 'male'] as const) {
      const atAge = preventRiskByAge('totalCvd', preventOptimalProfile(sex));
      expect(atAge(50)).toBeLessThan(preventRisk('totalCvd')(example(sex)).risk10y);
      let previous = 0;
      for (let age = 30; age <= 79; age += 1) {
        expect(atAge(age)).toBeGreaterThan(previous);
        previous = atAge(age);
      }
    }
  });
});
