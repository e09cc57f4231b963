import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ModelInputError } from '../../src/scoring/errors.js';
import {
  type PreventInputs,
  type PreventOutcome,
  preventOptimalProfile,
  preventRisk,
  preventRiskByAge,
  preventVariant,
} from '../../src/scoring/models/prevent.js';
import { scoreEvent } from '../../src/scoring/score-event.js';
import type { HealthEventInput, ScoringMetadata } from '../../src/scoring/types.js';

/**
 * PREVENT's published add-on variants (Khan SS et al. Circulation 2024;149:430-449, Supplemental Table S12):
 * the base model plus HbA1c, UACR or the Social Deprivation Index alone, or all three (full model, with an
 * indicator for each one missing). data/SOURCES.md says where each coefficient and expected value comes from.
 */

const OUTCOMES: PreventOutcome[] = ['totalCvd', 'ascvd', 'heartFailure'];

/** The S12 example patient: 50 years, TC 200, HDL-C 45, treated SBP 160, diabetes, eGFR 90, BMI 35. */
const example = (sex: 'female' | 'male', addOns: Partial<PreventInputs> = {}): PreventInputs => ({
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
  ...addOns,
});

const round = (value: number | null | undefined, digits: number) =>
  Math.round((value ?? Number.NaN) * 10 ** digits) / 10 ** digits;

describe('PREVENT add-on variants: the published Table S12 examples', () => {
  /**
   * The S12 example with UACR 40 mg/g, HbA1c 7.5 %, SDI decile 8, and all three: 10-year risks to the 4
   * decimal places S12 prints, as bcjaeger/PooledCohort reproduces them ("Replicate examples from Khan
   * supplemental table S12", tests/testthat/test-predict_10yr_{cvd,ascvd,hf}_risk.R); women, then men.
   */
  const S12: Array<[string, Partial<PreventInputs>, Record<PreventOutcome, [number, number]>]> = [
    [
      'UACR 40',
      { uacr: 40 },
      { totalCvd: [0.1599, 0.1718], ascvd: [0.0994, 0.1097], heartFailure: [0.0893, 0.1099] },
    ],
    [
      'HbA1c 7.5',
      { hba1c: 7.5 },
      { totalCvd: [0.1359, 0.1551], ascvd: [0.0835, 0.0937], heartFailure: [0.0806, 0.1013] },
    ],
    [
      'SDI decile 8',
      { sdiDecile: 8 },
      { totalCvd: [0.1565, 0.1823], ascvd: [0.1003, 0.1137], heartFailure: [0.0886, 0.1226] },
    ],
    [
      'full: UACR 40, HbA1c 7.5, SDI decile 8',
      { uacr: 40, hba1c: 7.5, sdiDecile: 8 },
      { totalCvd: [0.156, 0.1808], ascvd: [0.0964, 0.11], heartFailure: [0.0927, 0.1206] },
    ],
  ];
  it.each(S12)('%s: 10-year risks to 4 d.p.', (_label, addOns, expected) => {
    for (const outcome of OUTCOMES) {
      (['female', 'male'] as const).forEach((sex, i) => {
        expect(round(preventRisk(outcome)(example(sex, addOns)).risk10y, 4), `${sex} ${outcome}`).toBe(
          expected[outcome][i],
        );
      });
    }
  });

  /** 30-year ASCVD of the same examples, 3 d.p. (PooledCohort tests/testthat/test-predict_30yr_ascvd_risk.R). */
  it.each([
    [{ uacr: 40 }, [0.363, 0.355]],
    [{ hba1c: 7.5 }, [0.322, 0.317]],
    [{ sdiDecile: 8 }, [0.367, 0.361]],
    [{ uacr: 40, hba1c: 7.5, sdiDecile: 8 }, [0.344, 0.338]],
  ] as const)('30-year ASCVD %j to 3 d.p.', (addOns, [women, men]) => {
    expect(round(preventRisk('ascvd')(example('female', addOns)).risk30y, 3)).toBe(women);
    expect(round(preventRisk('ascvd')(example('male', addOns)).risk30y, 3)).toBe(men);
  });

  /**
   * The AHA online calculator with UACR 40 and HbA1c 7.5 and no SDI: the full model with SDI missing, 10-year
   * total CVD 15.0 % and 16.2 % (3 d.p., as PooledCohort records the calculator's output).
   */
  it('full model with SDI missing matches the AHA calculator (total CVD 0.150, 0.162)', () => {
    const addOns = { uacr: 40, hba1c: 7.5 };
    expect(preventVariant(addOns)).toBe('full');
    expect(round(preventRisk('totalCvd')(example('female', addOns)).risk10y, 3)).toBe(0.15);
    expect(round(preventRisk('totalCvd')(example('male', addOns)).risk10y, 3)).toBe(0.162);
  });

  /**
   * martingmayer/preventr tests/testthat/test-estimate_risk.R: the S12 patient with HbA1c 9.2, UACR 92 and
   * ZIP 14738 (SDI decile 3 in preventr's R/sysdata.rda sdi_decile_dat), 10- and 30-year, 3 d.p.
   */
  it.each([
    ['female', { hba1c: 9.2 }, [0.165, 0.103, 0.107], [0.541, 0.356, 0.449]],
    ['female', { uacr: 92 }, [0.181, 0.111, 0.105], [0.565, 0.381, 0.437]],
    ['female', { sdiDecile: 3 }, [0.127, 0.08, 0.07], [0.485, 0.322, 0.358]],
    ['female', { hba1c: 9.2, uacr: 92, sdiDecile: 3 }, [0.174, 0.105, 0.114], [0.534, 0.348, 0.443]],
    ['male', { hba1c: 9.2 }, [0.187, 0.112, 0.13], [0.524, 0.34, 0.457]],
    ['male', { uacr: 92 }, [0.195, 0.123, 0.13], [0.535, 0.368, 0.448]],
    ['male', { sdiDecile: 3 }, [0.143, 0.088, 0.089], [0.48, 0.317, 0.384]],
    ['male', { hba1c: 9.2, uacr: 92, sdiDecile: 3 }, [0.191, 0.112, 0.131], [0.513, 0.326, 0.438]],
  ] as const)('preventr, %s %j: total CVD, ASCVD, HF to 3 d.p.', (sex, addOns, tenYear, thirtyYear) => {
    OUTCOMES.forEach((outcome, i) => {
      const r = preventRisk(outcome)(example(sex, addOns));
      expect(round(r.risk10y, 3), `${outcome} 10-year`).toBe(tenYear[i]);
      expect(round(r.risk30y, 3), `${outcome} 30-year`).toBe(thirtyYear[i]);
    });
  });
});

interface FixtureProfile {
  inputs: {
    sex: 'female' | 'male';
    age: number;
    tc: number;
    hdl: number;
    sbp: number;
    bp_tx: boolean;
    statin: boolean;
    dm: boolean;
    smoking: boolean;
    egfr: number;
    bmi: number;
    hba1c?: number;
    uacr?: number;
    sdi?: number;
  };
  expected: { variant: string } & Record<PreventOutcome, [number, number | null]>;
}

describe('PREVENT add-on variants: 64 profiles against an independent implementation', () => {
  /** How each value was obtained: the file's `about` and test/scoring/prevent-reference/README.md. */
  const fixtures = JSON.parse(
    readFileSync(new URL('./prevent-addon-fixtures.json', import.meta.url), 'utf8'),
  ) as { profiles: FixtureProfile[] };

  it('covers every variant, 8 profiles or more each', () => {
    expect(fixtures.profiles.length).toBeGreaterThanOrEqual(50);
    const count = new Map<string, number>();
    for (const p of fixtures.profiles)
      count.set(p.expected.variant, (count.get(p.expected.variant) ?? 0) + 1);
    for (const v of ['base', 'hba1c', 'uacr', 'sdi', 'full'])
      expect(count.get(v) ?? 0).toBeGreaterThanOrEqual(8);
  });

  it.each(fixtures.profiles.map((p, i) => [i, p] as const))('profile %i', (_i, { inputs: p, expected }) => {
    const inputs: PreventInputs = {
      ageYears: p.age,
      sex: p.sex,
      totalCholesterolMgDl: p.tc,
      hdlMgDl: p.hdl,
      systolicBpMmHg: p.sbp,
      bpTreated: p.bp_tx,
      smoker: p.smoking,
      diabetic: p.dm,
      statin: p.statin,
      kidney: { egfr: p.egfr },
      bmi: p.bmi,
      ...(p.hba1c === undefined ? {} : { hba1c: p.hba1c }),
      ...(p.uacr === undefined ? {} : { uacr: p.uacr }),
      ...(p.sdi === undefined ? {} : { sdiDecile: p.sdi }),
    };
    for (const outcome of OUTCOMES) {
      const r = preventRisk(outcome)(inputs);
      const [tenYear, thirtyYear] = expected[outcome];
      expect(r.variant).toBe(expected.variant);
      expect(r.risk10y).toBeCloseTo(tenYear, 12);
      if (thirtyYear === null) expect(r.risk30y).toBeNull();
      else expect(r.risk30y).toBeCloseTo(thirtyYear, 12);
    }
  });
});

describe('PREVENT variant choice and add-on ranges', () => {
  it('chooses the variant by the optional inputs present, never by their values', () => {
    expect(preventVariant({})).toBe('base');
    expect(preventVariant({ hba1c: 5 })).toBe('hba1c');
    expect(preventVariant({ uacr: 5 })).toBe('uacr');
    expect(preventVariant({ sdiDecile: 5 })).toBe('sdi');
    expect(preventVariant({ hba1c: 5, uacr: 5 })).toBe('full');
    expect(preventVariant({ hba1c: 5, sdiDecile: 1 })).toBe('full');
    expect(preventVariant({ hba1c: 5, uacr: 5, sdiDecile: 1 })).toBe('full');
  });

  it.each([
    ['hba1c', { hba1c: 2.99 }],
    ['hba1c', { hba1c: 15.01 }],
    ['uacr', { uacr: 0.09 }],
    ['uacr', { uacr: 25_001 }],
    ['sdiDecile', { sdiDecile: 0 }],
    ['sdiDecile', { sdiDecile: 11 }],
    ['sdiDecile', { sdiDecile: 4.5 }],
  ] as const)('is not computed with %s outside its range (%j), in no variant', (parameter, addOns) => {
    for (const outcome of OUTCOMES) {
      expect(() => preventRisk(outcome)(example('female', addOns))).toThrow(ModelInputError);
      expect(() => preventRisk(outcome)(example('female', addOns))).toThrow(new RegExp(`: ${parameter} = `));
    }
  });

  it('computes at the range edges themselves (HbA1c 3 and 15 %, UACR 0.1 and 25,000 mg/g)', () => {
    for (const addOns of [{ hba1c: 3 }, { hba1c: 15 }, { uacr: 0.1 }, { uacr: 25_000 }])
      expect(preventRisk('totalCvd')(example('male', addOns)).risk10y).toBeGreaterThan(0);
  });

  it('takes the HbA1c slope of diabetes or of no diabetes', () => {
    const slope = (diabetic: boolean) =>
      preventRisk('totalCvd')(example('female', { diabetic, hba1c: 8 })).logOdds10y -
      preventRisk('totalCvd')(example('female', { diabetic, hba1c: 7 })).logOdds10y;
    // data/scoring/prevent.json, hba1c 10y female totalCvd: hba1cXdiabetes 0.1338348, hba1cXnoDiabetes 0.1622409.
    expect(slope(true)).toBeCloseTo(0.1338348, 9);
    expect(slope(false)).toBeCloseTo(0.1622409, 9);
  });

  it('compares with the optimal profile in the same variant, keeping the SDI decile', () => {
    const like = { hba1c: 9, sdiDecile: 8 };
    const optimal = preventOptimalProfile('female', like);
    expect(optimal).toMatchObject({ hba1c: 5.3, sdiDecile: 8 });
    expect(optimal.uacr).toBeUndefined();
    expect(preventVariant(optimal)).toBe('full');
    const atAge = preventRiskByAge('totalCvd', optimal);
    expect(atAge(50)).toBeLessThan(preventRisk('totalCvd')(example('female', like)).risk10y);
  });
});

describe('PREVENT add-ons through scoring', () => {
  const metadata: ScoringMetadata = {
    sex: 'female',
    smoker: false,
    bp_treated: true,
    diabetes: true,
    statin: false,
  };
  const event = (extra: Array<[string, string, string]>): HealthEventInput => ({
    health_event_id: 'e',
    event_age: 50,
    predictors: [
      ['2093-3', '200', 'mg/dL'],
      ['2085-9', '45', 'mg/dL'],
      ['8480-6', '160', 'mm[Hg]'],
      ['98979-8', '90', 'mL/min/{1.73_m2}'],
      ['39156-5', '35', 'kg/m2'],
      ...extra,
    ].map(
      ([observation_code, value, unit]) =>
        ({ observation_code, value, unit }) as HealthEventInput['predictors'][number],
    ),
  });
  const cvd = (ev: HealthEventInput, meta: ScoringMetadata = metadata) => {
    const score = scoreEvent(ev, undefined, meta);
    return { score, domain: score.domains.find((d) => d.domain === 'cardiovascular') };
  };

  it('uses HbA1c printed in IFCC mmol/mol through the NGSP/IFCC master equation', () => {
    // 58.5 mmol/mol x 0.09148 + 2.152 = 7.50 %.
    const { score } = cvd(event([['59261-8', '58.5', 'mmol/mol']]));
    expect(score.models.prevent_total_cvd?.value).toBeCloseTo(
      preventRisk('totalCvd')(example('female', { hba1c: 58.5 * 0.09148 + 2.152 })).risk10y,
      12,
    );
    expect(round(score.models.prevent_total_cvd?.value, 4)).toBe(0.1359);
  });

  it('uses a printed UACR, or one computed from urine albumin and creatinine, and the SDI decile', () => {
    const printed = cvd(event([['9318-7', '40', 'mg/g']]), { ...metadata, sdi_decile: 8 });
    expect(printed.domain?.inputs_used).toEqual(expect.arrayContaining(['uacr', 'sdi_decile']));
    expect(printed.domain?.model_reason).toMatch(/full model/);
    // 4 mg/dL albumin = 40 mg/L over 100 mg/dL creatinine = 1 g/L: 40 mg/g.
    const computed = cvd(
      event([
        ['14957-5', '4', 'mg/dL'],
        ['2161-8', '100', 'mg/dL'],
      ]),
      { ...metadata, sdi_decile: 8 },
    );
    expect(computed.domain?.inputs_used).toEqual(
      expect.arrayContaining(['urine_albumin', 'urine_creatinine']),
    );
    expect(computed.score.models.prevent_total_cvd?.value).toBeCloseTo(
      printed.score.models.prevent_total_cvd?.value ?? Number.NaN,
      12,
    );
    // The full model with HbA1c missing (its indicator), as the variant rule says.
    expect(printed.score.models.prevent_total_cvd?.value).toBeCloseTo(
      preventRisk('totalCvd')(example('female', { uacr: 40, sdiDecile: 8 })).risk10y,
      12,
    );
  });

  it('leaves the domain unscored, naming the range, when HbA1c is outside it', () => {
    const { domain } = cvd(event([['4548-4', '16', '%']]));
    expect(domain?.health_score).toBeNull();
    expect(domain?.model_reason).toMatch(/HbA1c 16 is outside \[3, 15\] %/);
  });

  it('states the variant in model_reason and adds the add-on note', () => {
    const base = cvd(event([])).domain;
    expect(base?.model_reason).toMatch(/base model/);
    const withA1c = cvd(event([['4548-4', '7.5', '%']])).domain;
    expect(withA1c?.model_reason).toMatch(/model adding HbA1c/);
    expect(withA1c?.notes.join(' ')).toMatch(/published variant/);
  });
});
