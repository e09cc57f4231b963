/**
 * What a table cell holds, judged by its text alone: a flag, a number, a bound or interval, a reference
 * range followed by its unit, a unit, a date, a `Label: value` pair, or words. Column positions say where
 * a cell was printed; this says what it is, so a value printed a little off its column is still a value
 * and a unit printed under "Reference Interval" is still a unit.
 */
import { normaliseUnit } from '../../../terminology/ucum.js';
import { isPercentRange, isSexRange } from '../results/ranges.js';
import { flagText, isFlag } from './flags.js';
import { isRedaction, splitRangeAndUnit } from './range-unit.js';
import { memoByText } from './text-memo.js';

export type CellKind =
  | 'flag'
  | 'valueFlag'
  | 'number'
  | 'bounded'
  | 'interval'
  | 'rangeUnit'
  | 'valueUnit'
  | 'unit'
  | 'date'
  | 'label'
  | 'text';

const NUMBER = String.raw`[+-]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)`;
const PLAIN = new RegExp(`^${NUMBER}$`);
/** `<10`, `< OR = 4.0`, `<=527`, `> or =26`, `≥ 40`: a bound, as a result or as a range. */
const BOUNDED = new RegExp(String.raw`^(?:[<>]\s*(?:or\s*)?=?|≤|≥)\s*${NUMBER}$`, 'i');
const INTERVAL = new RegExp(String.raw`^${NUMBER}\s*(?:-|–|to)\s*${NUMBER}$`, 'i');
/** Semi-quantitative results: `1+`, `2+`, `1:40`. */
const SEMI_QUANT = /^(?:\d\+|\d+:\d+)$/;
const DATE = /\b\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2})\b/;
/** `Collected: ...`, `Dir: ...`, `Reference Range:`: labels and their values, never results. */
const LABEL = /^[A-Za-z][A-Za-z0-9 .#&()/'-]{0,40}:(?:\s|$)/;
/** `A : G Ratio`, `A:G`: a ratio of two letters, a test's name, not a label. */
const LETTER_RATIO = /^[A-Za-z]\s*:\s*[A-Za-z](?:\s|$)/;

/**
 * Two alleles (`T/T`, `C/T`), two star alleles (`*1/*2`) or two APOE alleles (`E3/E4`): a genotype as
 * pharmacogenetic and APOE reports print it.
 */
export const GENOTYPE = /^(?:[ACGT]\/[ACGT]|\*\d+[A-Z]?\/\*\d+[A-Z]?|E[234]\/E[234])$/;

export function cellKind(text: string): CellKind {
  return memoKind(text);
}

const memoKind = memoByText(kindOf);

function kindOf(text: string): CellKind {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t === '') return 'text';
  if (DATE.test(t)) return 'date';
  if (isFlag(t)) return 'flag';
  if (PLAIN.test(t) || SEMI_QUANT.test(t)) return 'number';
  if (BOUNDED.test(t)) return 'bounded';
  if (INTERVAL.test(t) || isPercentRange(t) || isSexRange(t)) return 'interval';
  if (LABEL.test(t) && !LETTER_RATIO.test(t)) return 'label';
  if (isValueWithFlag(t)) return 'valueFlag';
  if (splitValueUnit(t)) return 'valueUnit';
  const split = splitRangeAndUnit(t);
  if (split.range !== null && split.unit !== null && /\d/.test(split.range)) return 'rangeUnit';
  if (isUnit(t)) return 'unit';
  return 'text';
}

/**
 * Words results are reported in: qualitative findings, colours, clarity, blood groups, and a blood smear's
 * findings ("Nil", "Adequate", "Normocytic Normochromic", "Neutrophilia", "Lymphocytosis", "Thrombocytopenia"),
 * and the KDIGO categories of kidney function (GFR G1-G5, G3a/G3b; albuminuria A1-A3).
 */
export const QUALITATIVE =
  /^(?:(?:non[- ]?)?reactive|negative|positive|neg|pos|detected|not detected|none detected|none seen|not seen|equivocal|indeterminate|inconclusive|borderline|normal|abnormal|trace|few|many|rare|occasional|moderate|small|large|present|absent|immune|non[- ]?immune|see (?:note|below|comment)|not reported|pending|cancelled|tnp|qns|yellow|light yellow|pale yellow|dark yellow|straw|amber|orange|red|brown|colorless|clear|slightly cloudy|cloudy|hazy|turbid|(?:a|b|ab|o)(?: (?:pos|neg|positive|negative|rh\+|rh-))?|rh (?:positive|negative)|no growth|growth|normal flora|nil|adequate|inadequate|(?:normocytic|microcytic|macrocytic)(?: (?:normochromic|hypochromic))?|(?:neutrophil|eosinophil|basophil)ia|(?:lymphocyt|monocyt|leu[ck]ocyt|thrombocyt|anisocyt|poikilocyt)osis|(?:lympho|neutro|leu[ck]o|thrombocyto|pancyto)penia|intermediate|low|high|not applicable|n\/a|not calculated|not given|[\w()]+ (?:positive|negative)|g[1-5]|g3[ab]|a[1-3])(?:\s*\(.*\))?$/i;

/** `65 H`, `<1.0 L`, `TRACE A`, `1246 High`: a value and its flag printed in one cell. */
function isValueWithFlag(text: string): boolean {
  const at = text.lastIndexOf(' ');
  if (at < 0 || !isFlag(text.slice(at + 1))) return false;
  const value = text.slice(0, at).trim();
  return (
    PLAIN.test(value) ||
    BOUNDED.test(value) ||
    INTERVAL.test(value) ||
    SEMI_QUANT.test(value) ||
    QUALITATIVE.test(value)
  );
}

export interface ValueUnit {
  value: string;
  unit: string;
  flag: string | null;
}

/** `88 mg/dL`, `1.09 mg/dL H`: a plain number, its unit and maybe a flag, printed as one cell. */
export function splitValueUnit(text: string): ValueUnit | null {
  const m = /^([+-]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+))\s+(\S.*?)(?:\s+(\S+))?$/.exec(text.trim());
  if (!m) return null;
  const [, value = '', rest = '', last] = m;
  if (last !== undefined && isFlag(last) && isUnit(rest)) return { value, unit: rest, flag: flagText(last) };
  const whole = last === undefined ? rest : `${rest} ${last}`;
  return isUnit(whole) ? { value, unit: whole, flag: null } : null;
}

/** Units labs print that have no UCUM form: kit-specific units, ratios, indexes. */
const UNIT_WORDS = /^(?:units?|ratio|index|titer)$/i;

/** A unit the normaliser knows, or one that opens like a unit (`/HPF`, `% by wt`). */
export function isUnit(text: string): boolean {
  return memoUnit(text);
}

const memoUnit = memoByText(unitOf);

function unitOf(text: string): boolean {
  const t = text.trim();
  if (t === '' || (/^\d/.test(t) && !/^\d+\^?\d*\//.test(t))) return false;
  if (/^(?:\/\s?[A-Za-z]|%)/.test(t) || UNIT_WORDS.test(t)) return true;
  if (isRedaction(t)) return false;
  return normaliseUnit(t).ucumMatchMethod !== 'not_found';
}

/** Test names start with a letter, a digit followed by letters (`25-OH`), `%` or `(`; never a bound. */
export function startsName(text: string): boolean {
  return /^(?:[A-Za-z%(]|\d+[-,]?\s?[A-Za-z])/.test(text.trim());
}

/** Kinds a measured result can take (a text result is `text` and is judged by its column). */
export function isValueKind(kind: CellKind): boolean {
  return (
    kind === 'number' ||
    kind === 'bounded' ||
    kind === 'interval' ||
    kind === 'valueFlag' ||
    kind === 'valueUnit'
  );
}

export function isRangeKind(kind: CellKind): boolean {
  return kind === 'bounded' || kind === 'interval' || kind === 'rangeUnit';
}
