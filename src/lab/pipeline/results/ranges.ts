/**
 * Reference ranges and result types as printed on US lab reports. A range states bounds (`65-99`,
 * `< OR = 200`, `>39`) or a text expectation (`Negative`, `None seen`, `Not Estab.`), which has no bounds.
 */
import type { PanelResult } from '../../types.js';

export interface RangeBounds {
  min: number | null;
  max: number | null;
}

const NUMBER = String.raw`[+-]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)`;
/** `<`, `<=`, `≤`, `< OR =`, `less than`, `up to` (`Upto`, as Indian laboratories print it) ... each an upper bound. */
const UPPER = String.raw`(?:<\s*(?:or\s*)?=?|≤|less\s+than(?:\s+or\s+equal\s+to)?|up\s*to|below)`;
const LOWER = String.raw`(?:>\s*(?:or\s*)?=?|≥|greater\s+than(?:\s+or\s+equal\s+to)?|above|at\s+least)`;
const INTERVAL = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|—|to)\s*(${NUMBER})$`, 'i');
const AT_MOST = new RegExp(String.raw`^${UPPER}\s*(${NUMBER})$`, 'i');
const AT_LEAST = new RegExp(String.raw`^${LOWER}\s*(${NUMBER})$`, 'i');
const PLAIN_NUMBER = new RegExp(`^${NUMBER}$`);
const BOUND_RESULT = new RegExp(String.raw`^(?:${UPPER}|${LOWER})\s*${NUMBER}$`, 'i');

const NO_BOUNDS: RangeBounds = { min: null, max: null };

/**
 * `40%-80%`, `<0.1%-02%`: a differential's per-cent range with the sign on each bound (Sri Lankan and
 * Indian laboratories). A lower bound of `<0.1` puts no floor under the range.
 */
const PERCENT_INTERVAL = new RegExp(
  String.raw`^(<)?\s*(${NUMBER})\s*%\s*(?:-|–|—|to)\s*(${NUMBER})\s*%$`,
  'i',
);

export function parseReferenceRange(text: string | null | undefined): RangeBounds {
  const range = (text ?? '').trim().replace(/\s+/g, ' ');
  if (range === '') return { ...NO_BOUNDS };
  const percent = PERCENT_INTERVAL.exec(range);
  if (percent) return { min: percent[1] ? null : toNumber(percent[2]), max: toNumber(percent[3]) };
  const interval = INTERVAL.exec(range);
  if (interval) return { min: toNumber(interval[1]), max: toNumber(interval[2]) };
  const atMost = AT_MOST.exec(range);
  if (atMost) return { min: null, max: toNumber(atMost[1]) };
  const atLeast = AT_LEAST.exec(range);
  if (atLeast) return { min: toNumber(atLeast[1]), max: null };
  return { ...NO_BOUNDS };
}

/**
 * `Male : 13.0 - 17.0`, `Women: 36 - 47 (%)`: one sex's range, printed a line each under the result. Its
 * bounds hold for one sex only, so none are read from it: no flag is worked out from the wrong sex's range.
 */
const SEX_RANGE =
  /^(?:male|female|men|women)\s*:?\s*[<>]?\d[\d.,]*\s*(?:-|–|to)\s*\d[\d.,]*(?:\s*\(?%\)?)?$/i;

export function isSexRange(text: string | null | undefined): boolean {
  return SEX_RANGE.test((text ?? '').trim().replace(/\s+/g, ' '));
}

/** `Male : 13.0 - 17.0 Female : 12.0 - 15.0`: ranges of one sex or of each, one after the other. */
export function isSexRanges(text: string | null | undefined): boolean {
  const parts = (text ?? '').trim().split(/\s+(?=(?:fe)?male\b|(?:wo)?men\b)/i);
  return parts.every(isSexRange);
}

/** A per-cent range with the sign on each bound (`40%-80%`): its unit is per cent. */
export function isPercentRange(text: string | null | undefined): boolean {
  return PERCENT_INTERVAL.test((text ?? '').trim().replace(/\s+/g, ' '));
}

/** True when a range mentions numbers but states no bounds this parser can read: worth a flag. */
export function isUnreadableRange(text: string | null | undefined): boolean {
  if (text == null || !/\d/.test(text) || isSexRanges(text)) return false;
  const bounds = parseReferenceRange(text);
  return bounds.min === null && bounds.max === null;
}

/** numeric for a plain number, range for a bound or an interval (`<0.2`, `>60`, `6-10`), else string. */
export function resultTypeOf(value: string | null | undefined): PanelResult['resultType'] {
  const text = (value ?? '').trim().replace(/\s+/g, ' ');
  if (PLAIN_NUMBER.test(text)) return 'numeric';
  if (INTERVAL.test(text) || BOUND_RESULT.test(text)) return 'range';
  return 'string';
}

function toNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text.replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}
