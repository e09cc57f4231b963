import { describe, expect, it } from 'vitest';
import {
  isUnreadableRange,
  parseReferenceRange,
  resultTypeOf,
} from '../../src/lab/pipeline/results/ranges.js';

describe('parseReferenceRange', () => {
  it.each([
    ['65-99', 65, 99],
    ['0.5 - 1.2', 0.5, 1.2],
    ['1.005-1.030', 1.005, 1.03],
    ['0.0-1.2', 0, 1.2],
    ['1,500-7,800', 1500, 7800],
    ['3.5 to 5.1', 3.5, 5.1],
    ['<200', null, 200],
    ['< OR = 200', null, 200],
    ['<=5.7', null, 5.7],
    ['≤ 5', null, 5],
    ['> OR = 40', 40, null],
    ['>39', 39, null],
    ['>=60', 60, null],
    ['≥ 60', 60, null],
    // A differential's per cent, the sign on each bound; `<0.1` puts no floor under it.
    ['40%-80%', 40, 80],
    ['02% - 10%', 2, 10],
    ['<0.1%-02%', null, 2],
    // An upper bound in words, spaced or not.
    ['Up to 20', null, 20],
    ['Upto 6.0', null, 6],
  ])('%s -> min %s, max %s', (text, min, max) => {
    expect(parseReferenceRange(text)).toEqual({ min, max });
  });

  it.each(['Negative', 'NEGATIVE', 'None seen', 'NONE SEEN', 'Not Estab.', 'Negative/Trace', 'YELLOW', ''])(
    '%j states no bounds',
    (text) => {
      expect(parseReferenceRange(text)).toEqual({ min: null, max: null });
    },
  );

  it('takes null and undefined as no range', () => {
    expect(parseReferenceRange(null)).toEqual({ min: null, max: null });
    expect(parseReferenceRange(undefined)).toEqual({ min: null, max: null });
  });
});

describe('isUnreadableRange', () => {
  it('flags numbers it cannot read as bounds, not text ranges', () => {
    expect(isUnreadableRange('Adult: 10-40; Child: 5-20')).toBe(true);
    expect(isUnreadableRange('65-99')).toBe(false);
    expect(isUnreadableRange('Negative')).toBe(false);
    expect(isUnreadableRange(null)).toBe(false);
  });
});

describe('resultTypeOf', () => {
  it.each([
    ['120', 'numeric'],
    ['0.69', 'numeric'],
    ['45.0', 'numeric'],
    ['-2', 'numeric'],
    ['<0.2', 'range'],
    ['>60', 'range'],
    ['<0.30', 'range'],
    ['> OR = 60', 'range'],
    ['6-10', 'range'],
    ['0-5', 'range'],
    ['NEGATIVE', 'string'],
    ['NONE SEEN', 'string'],
    ['NOT APPLICABLE', 'string'],
    ['1+', 'string'],
    ['Few', 'string'],
  ] as const)('%s is %s', (value, type) => {
    expect(resultTypeOf(value)).toBe(type);
  });

  it('calls a missing value a string', () => {
    expect(resultTypeOf(null)).toBe('string');
  });
});
