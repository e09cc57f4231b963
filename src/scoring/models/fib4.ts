import { Gather } from '../gather.js';
import type { ModelSpec } from '../spec.js';
import { positive } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * FIB-4 index of liver fibrosis, Sterling RK et al. Hepatology 2006;43(6):1317-1325:
 * age x AST / (platelets x sqrt(ALT)). Bands: < 1.30 low (< 2.0 from age 65, McPherson 2017), > 2.67 high,
 * otherwise indeterminate. Cut-offs: data/scoring/fib4.json.
 */
export const FIB4_ID = 'fib4';

export interface Fib4Inputs {
  /** Years. */
  ageYears: number;
  /** U/L. */
  astUPerL: number;
  /** U/L. */
  altUPerL: number;
  /** 10^3/uL (= 10^9/L). */
  platelets10e3PerUl: number;
}

export type Fib4Band = 'low' | 'indeterminate' | 'high';

export interface Fib4Result {
  value: number;
  unit: '1';
  band: Fib4Band;
  /** The lower cut-off applied for this age. */
  lowCutoff: number;
  highCutoff: number;
}

interface Fib4File {
  lowCutoff: number;
  lowCutoffAge65: number;
  olderAgeFrom: number;
  highCutoff: number;
}

export function fib4(inputs: Fib4Inputs): Fib4Result {
  const c = coefficients<Fib4File>('fib4');
  const age = positive(FIB4_ID, 'age', inputs.ageYears);
  const value =
    (age * positive(FIB4_ID, 'ast', inputs.astUPerL)) /
    (positive(FIB4_ID, 'platelets', inputs.platelets10e3PerUl) *
      Math.sqrt(positive(FIB4_ID, 'alt', inputs.altUPerL)));
  const lowCutoff = age >= c.olderAgeFrom ? c.lowCutoffAge65 : c.lowCutoff;
  const band: Fib4Band = value < lowCutoff ? 'low' : value > c.highCutoff ? 'high' : 'indeterminate';
  return { value, unit: '1', band, lowCutoff, highCutoff: c.highCutoff };
}

export const FIB4: ModelSpec<Fib4Inputs, Fib4Result> = {
  id: FIB4_ID,
  name: 'FIB-4',
  citation:
    'Sterling RK et al. Hepatology 2006;43(6):1317-1325; McPherson S et al. Am J Gastroenterol 2017;112(5):740-751',
  inputs: [
    { input: 'age', unit: 'a' },
    { input: 'ast', unit: 'U/L' },
    { input: 'alt', unit: 'U/L' },
    { input: 'platelets', unit: '10*3/uL' },
  ],
  ranges: () => [],
  gather: (ev) => {
    const g = new Gather(ev);
    return g.done({
      ageYears: g.age(),
      astUPerL: g.num('ast'),
      altUPerL: g.num('alt'),
      platelets10e3PerUl: g.num('platelets'),
    });
  },
  compute: fib4,
  output: (r) => ({
    value: r.value,
    unit: r.unit,
    band: r.band,
    low_cutoff: r.lowCutoff,
    high_cutoff: r.highCutoff,
  }),
};
