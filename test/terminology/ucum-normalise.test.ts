import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UcumMatchMethod } from '../../src/terminology/types.js';
import { normaliseUnit } from '../../src/terminology/ucum.js';
import { FAMILY_RULES, REWRITE_RULES } from '../../src/terminology/ucum-pattern-rules.js';

type Pair = [printed: string, ucum: string | null, method: UcumMatchMethod];

const { pairs } = JSON.parse(readFileSync(new URL('./ucum-pairs.json', import.meta.url), 'utf8')) as {
  pairs: Pair[];
};

describe('normaliseUnit: printed units of lab reports', () => {
  it('has at least 200 pairs, no printed unit twice', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(200);
    expect(new Set(pairs.map(([printed]) => printed)).size).toBe(pairs.length);
  });

  it('covers every tier', () => {
    const methods = new Set(pairs.map(([, , method]) => method));
    expect([...methods].sort()).toEqual(['not_found', 'pattern_rule', 'prefix_map', 'static_map']);
  });

  it.each(pairs)('%j -> %j by %s', (printed, ucumCode, ucumMatchMethod) => {
    expect(normaliseUnit(printed)).toEqual({ ucumCode, ucumMatchMethod });
  });
});

describe('normaliseUnit: pattern rule examples', () => {
  const examples = [...REWRITE_RULES, ...FAMILY_RULES].flatMap((rule) =>
    rule.examples.map(([printed, ucum]) => [rule.name, printed, ucum] as const),
  );

  it.each(examples)('%s: %j -> %j', (_rule, printed, ucumCode) => {
    expect(normaliseUnit(printed)).toEqual({ ucumCode, ucumMatchMethod: 'pattern_rule' });
  });
});

describe('normaliseUnit: edge cases', () => {
  it('gives not_found for null, undefined and blank input', () => {
    for (const printed of [null, undefined, '', '  ', '\t']) {
      expect(normaliseUnit(printed)).toEqual({ ucumCode: null, ucumMatchMethod: 'not_found' });
    }
  });

  it('returns a fresh object each time, so a caller cannot spoil the cache', () => {
    const first = normaliseUnit('mg/dL');
    first.ucumCode = 'spoiled';
    expect(normaliseUnit('mg/dL')).toEqual({ ucumCode: 'mg/dL', ucumMatchMethod: 'static_map' });
  });

  it('is case-sensitive in the prefix tier: MU would be mega, not milli', () => {
    expect(normaliseUnit('mU/g').ucumCode).toBe('mU/g');
    expect(normaliseUnit('MU/g').ucumMatchMethod).toBe('not_found');
  });

  it('does not read a superscript-less 10 as a power when no exponent follows', () => {
    expect(normaliseUnit('x10/uL').ucumMatchMethod).toBe('not_found');
  });
});

describe('units given as UCUM codes', () => {
  it('accepts a valid bracketed UCUM code as it is (identity rule)', () => {
    expect(normaliseUnit('mm[Hg]')).toEqual({ ucumCode: 'mm[Hg]', ucumMatchMethod: 'pattern_rule' });
    expect(normaliseUnit('u[IU]/mL')).toEqual({ ucumCode: 'u[IU]/mL', ucumMatchMethod: 'pattern_rule' });
    expect(normaliseUnit('mL/min/{1.73_m2}').ucumCode).toBe('mL/min/{1.73_m2}');
    expect(normaliseUnit('[not_a_unit]').ucumMatchMethod).toBe('not_found');
  });
});
