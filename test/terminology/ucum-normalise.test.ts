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

describe('normaliseUnit: speed', () => {
  it('does 10,000 calls on varied printed units well under 100 ms', () => {
    const base = pairs.map(([printed]) => printed);
    // Mostly distinct strings, so the cache does not do all the work: each round its own 10,000.
    const round = (r: number) =>
      Array.from({ length: 10_000 }, (_, i) => `${base[i % base.length]}${' '.repeat(40 * r + (i % 40))}`);
    normaliseUnit('warm up');
    // The best of three rounds, so that another process taking the core for a moment (tests run in
    // parallel) is not read as slowness; a slow normaliser is slow in all three.
    let best = Number.POSITIVE_INFINITY;
    for (let r = 0; r < 3; r++) {
      const inputs = round(r);
      const started = performance.now();
      for (const printed of inputs) normaliseUnit(printed);
      best = Math.min(best, performance.now() - started);
    }
    expect(best).toBeLessThan(100);
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
