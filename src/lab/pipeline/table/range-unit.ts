/**
 * Quest prints the unit after the reference range in one column: `65-99 mg/dL`, `> OR = 40 mg/dL`,
 * `<200 mg/dL (calc)`, `NONE SEEN /HPF`, `%` (a unit with no range), `YELLOW` (a range with no unit).
 */
import { normaliseUnit } from '../../../terminology/ucum.js';
import { REDACTED } from '../screen/phi.js';
import { memoByText } from './text-memo.js';

export interface RangeAndUnit {
  range: string | null;
  unit: string | null;
}

const NUMBER = String.raw`[+-]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)`;
const RANGE = String.raw`(?:${NUMBER}\s*(?:-|–|to)\s*${NUMBER}|(?:[<>]\s*(?:OR\s*)?=?|[≤≥])\s*${NUMBER})`;
/** A numeric range at the start of the text: an interval or a bound with its comparator. */
const LEADING_RANGE = new RegExp(String.raw`^${RANGE}(?=\s|$)`, 'i');
/** A range with its unit glued on, the space lost (`<OR =39pg/mL` from a scan). */
const GLUED_RANGE = new RegExp(String.raw`^${RANGE}(?=[\p{L}/%µ])`, 'iu');
/** A range closing a unit's cell, after a space or glued on (`mg/dl13.5-17.5`, `% 20-45`). */
const TRAILING_RANGE = new RegExp(String.raw`(?<=[\p{L}/%µ)\s])\s*(${RANGE})$`, 'iu');
/** `(calc)` (or a bare `calc`) marks a calculated result; it is neither range nor unit. */
const CALC = /\s*(?:\(calc\)|\bcalc)\s*$/i;

export function splitRangeAndUnit(text: string): RangeAndUnit {
  const column = text.replace(CALC, '').trim().replace(/\s+/g, ' ');
  if (column === '') return { range: null, unit: null };
  const numeric = LEADING_RANGE.exec(column);
  if (numeric) return { range: numeric[0], unit: orNull(column.slice(numeric[0].length)) };
  const glued = gluedRange(column);
  if (glued) return glued;
  const words = column.split(' ');
  const unitAt = words.findIndex((_, i) => isUnitStart(words.slice(i).join(' ')));
  if (unitAt < 0) return { range: column, unit: null };
  return { range: orNull(words.slice(0, unitAt).join(' ')), unit: words.slice(unitAt).join(' ') };
}

/**
 * Laboratories that print the unit column before the range (Test | Result | Unit | Range) have the range
 * run into the unit's cell where the gap between them is narrow, or read as none by OCR: `mg/dl13.5-17.5`.
 * Split only where what comes before the range is a unit.
 */
export function splitUnitAndRange(text: string): RangeAndUnit | null {
  const column = text.trim().replace(/\s+/g, ' ');
  const trailing = TRAILING_RANGE.exec(column);
  if (!trailing || trailing.index === 0) return null;
  const unit = column.slice(0, trailing.index).trim();
  return unit !== '' && isUnitStart(unit) ? { unit, range: trailing[1] ?? null } : null;
}

/**
 * `<OR =39pg/mL`: the range and a unit the normaliser knows. Not when the number's last digit may be the
 * unit's first letter ("11U/mL" is 1 IU/mL as much as 11 U/mL): that is left whole, and so flagged.
 */
function gluedRange(column: string): RangeAndUnit | null {
  const glued = GLUED_RANGE.exec(column);
  if (!glued) return null;
  const unit = column.slice(glued[0].length);
  if (!isUnitStart(unit)) return null;
  if (glued[0].endsWith('1') && ['I', 'l'].some((letter) => isUnitStart(letter + unit))) return null;
  return { range: glued[0], unit };
}

/** Text from here on is a unit: it opens like one (`/HPF`, `%`) or the unit normaliser knows it. */
function isUnitStart(rest: string): boolean {
  return memoUnitStart(rest);
}

const memoUnitStart = memoByText(unitStartOf);

function unitStartOf(rest: string): boolean {
  if (/^[/%#]/.test(rest)) return true;
  if (isRedaction(rest)) return false;
  return normaliseUnit(rest).ucumMatchMethod !== 'not_found';
}

/**
 * A redacted value is no unit. The normaliser says so too, but only after handing the bracketed mark to
 * ucum-lhc, which loads its whole unit table into the thread for it (tens of ms and MB).
 */
export function isRedaction(text: string): boolean {
  return text === REDACTED;
}

function orNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}
