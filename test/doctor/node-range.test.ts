import { describe, expect, it } from 'vitest';
import { satisfiesNodeRange } from '../../src/doctor/node-range.js';

describe('satisfiesNodeRange', () => {
  const range = '>=20.19.0 <21 || >=22.12.0';

  it.each([
    ['20.19.0', true],
    ['20.20.2', true],
    ['20.18.3', false],
    ['21.7.0', false],
    ['22.11.0', false],
    ['22.12.0', true],
    ['v24.1.0', true],
    ['18.20.4', false],
  ])('%s in %s: %s', (version, expected) => {
    expect(satisfiesNodeRange(version, range)).toBe(expected);
  });

  it('reads spaced comparators, bare versions and partial versions', () => {
    expect(satisfiesNodeRange('20.1.0', '>= 20')).toBe(true);
    expect(satisfiesNodeRange('20.1.0', '20.1.0')).toBe(true);
    expect(satisfiesNodeRange('20.1.1', '<=20.1')).toBe(false);
  });

  it('refuses a range it cannot read rather than guessing', () => {
    expect(() => satisfiesNodeRange('20.1.0', '^20')).toThrow(/Unsupported/);
  });
});
