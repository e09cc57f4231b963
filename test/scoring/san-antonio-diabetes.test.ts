import { describe, expect, it } from 'vitest';
import { ModelInputError } from '../../src/scoring/errors.js';
import {
  type SanAntonioInputs,
  sanAntonioDiabetesRisk,
  sanAntonioOptimalRisk,
} from '../../src/scoring/models/san-antonio-diabetes.js';

/**
 * San Antonio Diabetes Prediction Model, Stern MP et al. Ann Intern Med 2002;136:575-581:
 * x = -13.415 + 0.028 age + 0.661 female + 0.412 Mexican American + 0.079 FPG + 0.018 SBP - 0.039 HDL-C
 *     + 0.070 BMI + 0.481 family history; risk = 1 / (1 + e^-x), 7.5 years. (Coefficients and codings as
 * transcribed by medicalalgorithms.com and best-calculators.com; data/scoring/san-antonio-diabetes.json.)
 * No published worked example was found, so the expected values are the equation evaluated by hand.
 */
const woman: SanAntonioInputs = {
  ageYears: 45,
  sex: 'female',
  fastingGlucoseMgDl: 100,
  systolicBpMmHg: 120,
  hdlMgDl: 50,
  bmi: 28,
  familyHistory: false,
};

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

describe('sanAntonioDiabetesRisk (Stern 2002)', () => {
  it('evaluates the published equation: woman 45, FPG 100, SBP 120, HDL-C 50, BMI 28 -> 19.4%', () => {
    const x = -13.415 + 0.028 * 45 + 0.661 + 0.079 * 100 + 0.018 * 120 - 0.039 * 50 + 0.07 * 28;
    const r = sanAntonioDiabetesRisk(woman);
    expect(r.logOdds).toBeCloseTo(x, 12);
    expect(r.logOdds).toBeCloseTo(-1.424, 12);
    expect(r.value).toBeCloseTo(logistic(x), 12);
    expect(Math.round(r.value * 1000) / 10).toBe(19.4);
    expect(r.ageOutsideDerivation).toBe(false);
  });

  it('codes men 0 and a family history 1', () => {
    const man = sanAntonioDiabetesRisk({ ...woman, sex: 'male', familyHistory: true });
    expect(man.logOdds).toBeCloseTo(-1.424 - 0.661 + 0.481, 12);
  });

  it('is continuous in glucose: 98 -> 101 mg/dL moves the log-odds by 3 x 0.079', () => {
    const a = sanAntonioDiabetesRisk({ ...woman, fastingGlucoseMgDl: 98 });
    const b = sanAntonioDiabetesRisk({ ...woman, fastingGlucoseMgDl: 101 });
    expect(b.logOdds - a.logOdds).toBeCloseTo(3 * 0.079, 12);
  });

  it('is out of range at a diabetic fasting glucose or with diagnosed diabetes', () => {
    expect(() => sanAntonioDiabetesRisk({ ...woman, fastingGlucoseMgDl: 126 })).toThrow(ModelInputError);
    expect(() => sanAntonioDiabetesRisk({ ...woman, diagnosedDiabetes: true })).toThrow(ModelInputError);
    expect(sanAntonioDiabetesRisk({ ...woman, diagnosedDiabetes: false }).value).toBeCloseTo(
      sanAntonioDiabetesRisk(woman).value,
      12,
    );
  });

  it('flags ages outside 25-64, where the model was derived', () => {
    expect(sanAntonioDiabetesRisk({ ...woman, ageYears: 70 }).ageOutsideDerivation).toBe(true);
    expect(sanAntonioDiabetesRisk({ ...woman, ageYears: 64 }).ageOutsideDerivation).toBe(false);
  });

  it('puts glucose 90, SBP 110, HDL-C 50 and BMI 22 in the optimal profile, keeping age, sex and family', () => {
    const x = -13.415 + 0.028 * 45 + 0.661 + 0.079 * 90 + 0.018 * 110 - 0.039 * 50 + 0.07 * 22 + 0.481;
    expect(sanAntonioOptimalRisk({ ...woman, familyHistory: true })).toBeCloseTo(logistic(x), 12);
  });
});
