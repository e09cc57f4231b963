import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/scoring/domains.js';
import { uacrOf } from '../../src/scoring/gather.js';
import { CATEGORICAL_INPUTS, defaultInputCodes, NUMERIC_INPUTS } from '../../src/scoring/input-codes.js';
import { readInputs } from '../../src/scoring/inputs.js';
import type { HealthEventInput } from '../../src/scoring/types.js';
import { conversionFactor, valueConversion } from '../../src/scoring/units.js';
import { loincCatalogue } from '../../src/terminology/loinc-catalogue.js';
import { isValidLoinc } from '../../src/terminology/loinc-check.js';
import { isValidUcum } from '../../src/terminology/ucum-lhc.js';
import { predictor } from './fixtures.js';

/** HbA1c, LDL cholesterol and the urine albumin/creatinine ratio as scoring inputs (issue 31, point 1). */

const event = (...predictors: ReturnType<typeof predictor>[]): HealthEventInput => ({
  health_event_id: 'e',
  event_age: 50,
  predictors,
});
const read = (...predictors: ReturnType<typeof predictor>[]) => readInputs(event(...predictors));

describe('HbA1c', () => {
  it('reads NGSP % as printed, from each of its codes', () => {
    for (const code of ['4548-4', '17856-6', '4549-2'])
      expect(read(predictor(code, '6.1', '%')).numeric.hba1c).toBe(6.1);
  });

  it('reads IFCC mmol/mol through the NGSP/IFCC master equation (% = 0.09148 x mmol/mol + 2.152)', () => {
    expect(read(predictor('59261-8', '48', 'mmol/mol')).numeric.hba1c).toBeCloseTo(0.09148 * 48 + 2.152, 12);
    // 48 mmol/mol is the 6.5 % diagnostic threshold (to the equation's rounding), 39 mmol/mol is 5.7 %.
    expect(read(predictor('59261-8', '48', 'mmol/mol')).numeric.hba1c).toBeCloseTo(6.5, 1);
    expect(read(predictor('59261-8', '39', 'mmol/mol')).numeric.hba1c).toBeCloseTo(5.7, 1);
    // The unit printed decides, whichever HbA1c code carries it.
    expect(read(predictor('4548-4', '48', 'mmol/mol')).numeric.hba1c).toBeCloseTo(6.543, 3);
  });

  it('never reads mmol/mol as a UCUM multiple of % (which would make 48 mmol/mol 4.8 %)', () => {
    const spec = defaultInputCodes().numeric.hba1c;
    expect(conversionFactor('mmol/mol', spec)).toEqual({ error: 'unit_not_convertible' });
    expect(valueConversion('mmol/mol', spec)).toEqual({ factor: 0.09148, offset: 2.152 });
    expect(valueConversion('%', spec)).toEqual({ factor: 1, offset: 0 });
  });

  it('refuses a value without a unit (% and mmol/mol cannot be told apart)', () => {
    const r = read(predictor('4548-4', '6.1', ''));
    expect(r.numeric.hba1c).toBeUndefined();
    expect(r.problems).toEqual([{ input: 'hba1c', observation_code: '4548-4', reason: 'unit_missing' }]);
  });
});

describe('LDL cholesterol', () => {
  it('reads direct, calculated and unspecified LDL-C, preferring the direct assay', () => {
    expect(read(predictor('13457-7', '120', 'mg/dL')).numeric.ldl_cholesterol).toBe(120);
    expect(read(predictor('2089-1', '118', 'mg/dL')).numeric.ldl_cholesterol).toBe(118);
    expect(
      read(predictor('13457-7', '120', 'mg/dL'), predictor('18262-6', '131', 'mg/dL')).numeric
        .ldl_cholesterol,
    ).toBe(131);
  });

  it('converts mmol/L through the molar mass of cholesterol', () => {
    expect(read(predictor('18262-6', '3.0', 'mmol/L')).numeric.ldl_cholesterol).toBeCloseTo(116.0, 1);
  });
});

describe('urine albumin/creatinine ratio', () => {
  it('reads the ratio in mg/g from each of its codes', () => {
    expect(read(predictor('9318-7', '12', 'mg/g')).numeric.uacr).toBe(12);
    expect(read(predictor('14959-1', '12', 'mg/g creat')).numeric.uacr).toBe(12);
    expect(read(predictor('9318-7', '12', 'ug/mg')).numeric.uacr).toBe(12);
  });

  it('converts mg/mmol through the molar mass of creatinine (x 8.84)', () => {
    expect(read(predictor('9318-7', '3', 'mg/mmol')).numeric.uacr).toBeCloseTo(26.52, 2);
  });

  it('refuses a concentration printed as the ratio', () => {
    const r = read(predictor('9318-7', '12', 'mg/dL'));
    expect(r.numeric.uacr).toBeUndefined();
    expect(r.problems[0]?.reason).toBe('unit_not_convertible');
  });

  it('reads urine albumin and urine creatinine, and computes the ratio from them', () => {
    const r = read(predictor('14957-5', '3.0', 'mg/dL'), predictor('2161-8', '150', 'mg/dL'));
    expect(r.numeric.urine_albumin).toBe(30);
    expect(r.numeric.urine_creatinine).toBe(150);
    // 30 mg/L albumin over 1500 mg/L creatinine = 20 mg/g.
    expect(uacrOf(30, 150)).toBeCloseTo(20, 12);
    const umol = read(predictor('2161-8', '8840', 'umol/L'));
    expect(umol.numeric.urine_creatinine).toBeCloseTo(100, 1);
  });

  it('keeps serum and urine albumin and creatinine apart', () => {
    const r = read(
      predictor('1751-7', '4.5', 'g/dL'),
      predictor('1754-1', '20', 'mg/L'),
      predictor('2160-0', '0.9', 'mg/dL'),
      predictor('2161-8', '120', 'mg/dL'),
    );
    expect(r.numeric).toMatchObject({
      albumin: 45,
      urine_albumin: 20,
      creatinine: 0.9,
      urine_creatinine: 120,
    });
  });
});

describe('input codes and units', () => {
  const codes = defaultInputCodes();
  const catalogue = new Set(loincCatalogue().entries.map((e) => e.code));

  it('lists only LOINC codes that pass the check digit; the lab codes of issue 31 are in the catalogue', () => {
    const all = [
      ...NUMERIC_INPUTS.flatMap((n) => codes.numeric[n].codes),
      ...CATEGORICAL_INPUTS.flatMap((c) => codes.categorical[c].codes),
    ];
    expect(all.filter((c) => !isValidLoinc(c))).toEqual([]);
    const labs = (['hba1c', 'ldl_cholesterol', 'uacr', 'urine_albumin', 'urine_creatinine'] as const).flatMap(
      (n) => codes.numeric[n].codes,
    );
    expect(labs.filter((c) => !catalogue.has(c))).toEqual([]);
  });

  it('names only valid UCUM: every target unit, equivalent and affine unit, and every model input unit', () => {
    const units = NUMERIC_INPUTS.flatMap((n) => {
      const spec = codes.numeric[n];
      return [spec.unit, ...Object.keys(spec.equivalents ?? {}), ...Object.keys(spec.affine ?? {})];
    });
    const modelUnits = DOMAINS.flatMap((d) => d.models.flatMap((m) => m.inputs.map((i) => i.unit))).filter(
      (u) => u !== '',
    );
    const ranges = DOMAINS.flatMap((d) => d.models.flatMap((m) => m.ranges().map((r) => r.unit)));
    expect([...new Set([...units, ...modelUnits, ...ranges])].filter((u) => !isValidUcum(u))).toEqual([]);
  });
});
