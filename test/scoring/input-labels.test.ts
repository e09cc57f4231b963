import { describe, expect, it } from 'vitest';
import { inputLabel } from '../../src/scoring/input-labels.js';

describe('inputLabel', () => {
  it('drops the qualifiers written for model authors', () => {
    expect(inputLabel('albumin')).toBe('Albumin');
    expect(inputLabel('glucose')).toBe('Glucose');
    expect(inputLabel('creatinine')).toBe('Creatinine');
  });

  // A real two-visit history listed urine albumin and serum albumin both as "Albumin".
  it('keeps a specimen other than blood, so two tests never share a name', () => {
    expect(inputLabel('urine_albumin')).toBe('Albumin (urine)');
    expect(inputLabel('urine_creatinine')).toBe('Creatinine (urine)');
  });
});
