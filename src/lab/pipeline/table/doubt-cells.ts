/**
 * Checks of one row's cells against each other, for rowDoubts (doubts.ts): a unit no laboratory prints, a
 * range whose bounds do not fit each other or the value, a comparator the range implies but the value
 * lost, a digit gained. Each is a predicate on the row; doubts.ts words the flags. What a text layer
 * prints is taken as printed: the checks that only a misreading explains run on OCR rows alone.
 */
import { normaliseUnit } from '../../../terminology/ucum.js';
import { staticMapEntries } from '../../../terminology/ucum-static-map.js';
import type { ParsedRow } from '../../types.js';
import { isUnreadableRange, parseReferenceRange, resultTypeOf } from '../results/ranges.js';
import { isQualitativeRange, isResultWord } from './doubt-words.js';
import { isWordCased } from './ocr-units.js';
import { ofAnotherKind } from './unit-kind.js';

/**
 * Units labs print that UCUM writes only as an annotation and the unit map leaves unmapped: a kit's
 * arbitrary units (`units`, `EU/mL`, `RU/mL`, `CU`), the INR and a PCR's cycle threshold. Printed, they
 * are right; the row is not doubted for them.
 */
const KNOWN_NON_UCUM = new Set(['units', 'unit', 'eu', 'eu/ml', 'ru/ml', 'cu', 'elisaunits', 'inr', 'ct']);

const unitKey = (unit: string): string => unit.toLowerCase().replace(/\s+/g, '');

/**
 * A unit that does not read as UCUM nor as a known lab unit (`me/db` for mg/dL, `UL`, `celis/uL`). On an
 * OCR row, also a unit that is not a spelling laboratories print as it stands:
 * - one only rewriting makes out (`mmol/L.`, `G/L.`, `mg/d` composed from prefixes): the OCR reader has
 *   already put back every unit one look-alike character away from a printed spelling (ocr-rows.ts), so
 *   what is left was misread;
 * - a printed spelling with its letters' case mixed otherwise (`miU/L` for mIU/L): the unit map looks up
 *   without case, UCUM does not, and labs print a unit as the map spells it or in one case throughout;
 * - a unit of one letter (`s`): a speck or a flag mark reads as one, and labs print none but %.
 */
export function unitUnrecognised(row: ParsedRow): boolean {
  const unit = row.resultUnit?.trim() ?? '';
  if (unit === '') return false;
  const match = normaliseUnit(unit);
  if (match.ucumCode === null) return !KNOWN_NON_UCUM.has(unitKey(unit));
  if (!row.ocr) return false;
  if (match.ucumMatchMethod !== 'static_map' || (unit.length === 1 && unit !== '%')) return true;
  return !printedSpelling(unit);
}

let spellings: ReadonlySet<string> | undefined;

/**
 * As the unit map spells it (white space aside), in one case throughout (`MG/DL`, `mg/dl`), or in words
 * cased as words are (`Seconds`, `Gms %`).
 */
function printedSpelling(unit: string): boolean {
  spellings ??= new Set(staticMapEntries().map((e) => e.printed.replace(/\s+/g, '')));
  const bare = unit.replace(/\s+/g, '');
  return (
    spellings.has(bare) ||
    bare === bare.toUpperCase() ||
    bare === bare.toLowerCase() ||
    (isWordCased(unit) && spellings.has(bare.toLowerCase()))
  );
}

/** Tests whose results have no unit: ratios (`A/G Ratio`, `CHOL/HDLC RATIO`), pH, specific gravity, scores. */
const UNITLESS_TEST = /ratio|\/|\bph\b|specific\s+gravity|\bscore\b|\bindex\b|\binr\b/i;

/**
 * OCR: a number read without a unit, beside a range, for a test that has one: the unit cell was lost (a
 * speck, a faint print, a unit run into the range). Ratios, pH, specific gravity and scores have none; a
 * number beside a qualitative range (`Negative`) is range_suspect's to doubt.
 */
export function unitMissing(row: ParsedRow): boolean {
  const range = (row.referenceRangeText ?? '').trim();
  return (
    row.ocr !== undefined &&
    resultTypeOf(row.resultValue) === 'numeric' &&
    (row.resultUnit ?? '').trim() === '' &&
    range !== '' &&
    !isQualitativeRange(range) &&
    !UNITLESS_TEST.test(row.biomarker)
  );
}

const NUMBER = String.raw`(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)`;
const INTERVAL = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|—|to)\s*(${NUMBER})$`, 'i');
/** `<0.2`, `>60`: a strict one-sided bound, which a result equal to it falls outside. */
const STRICT_BOUND = new RegExp(String.raw`^([<>])\s*(${NUMBER})$`);

const toNumber = (text: string): number => Number(text.replace(/,/g, ''));
const decimals = (text: string): number => /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;

/** How far a value may sit outside a range and still be read as belonging to it. */
const NEAR = 1.25;

/**
 * A reference range whose bounds disagree with each other or with the value:
 * - any row: a low bound above the high one (`52-36`);
 * - OCR: numbers the range parser cannot read as bounds (`—<1.0`, `5.7% of total Hgb`, a cell run into
 *   the next);
 * - OCR: bounds ten or more times apart that a misreading explains, a decimal point lost from one bound
 *   (`5.0-75` for 5.0-7.5: the bounds printed to different decimals) or a digit gained by an integer
 *   bound (`36-521` for 36-52: one digit less makes a range the value sits in);
 * - OCR: a bare number beside a qualitative range (`7` beside `Negative`: a grade or word misread).
 * A row whose value is already doubted as a range cell (ocr_value_like_range) is not doubted again.
 */
export function rangeSuspect(row: ParsedRow): boolean {
  const range = (row.referenceRangeText ?? '').trim().replace(/\s+/g, ' ');
  if (range === '') return false;
  const { min, max } = parseReferenceRange(range);
  if (min !== null && max !== null && min > max) return true;
  if (!row.ocr) return false;
  if (isUnreadableRange(range)) return true;
  // A scrap of one to three letters ("EN", or "Wy)" with a mark beside them, where a photo's range column
  // read "27 - 32") is no range: ranges in words are words ("Negative", "Nil").
  if (isScrap(range) && !isQualitativeRange(range) && !isResultWord(range)) return true;
  const value = row.resultValue?.trim() ?? '';
  const numeric = resultTypeOf(value) === 'numeric';
  if (numeric && (row.resultUnit ?? '').trim() === '' && !/\d/.test(range) && isQualitativeRange(range))
    return true;
  const interval = INTERVAL.exec(range);
  if (!interval || min === null || max === null || min <= 0 || max < 10 * min) return false;
  const [, low = '', high = ''] = interval;
  if (decimals(low) !== decimals(high)) return true;
  return numeric && gainedDigit(high, min, toNumber(value));
}

/** One to three letters and no digit, with at most a mark or two beside them. */
function isScrap(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  return !/\d/.test(text) && letters >= 1 && letters <= 3 && text.replace(/\s/g, '').length - letters <= 2;
}

/** An integer high bound with one digit too many: some digit dropped leaves a bound the value fits under. */
function gainedDigit(high: string, min: number, value: number): boolean {
  if (!/^\d{2,}$/.test(high)) return false;
  for (let i = 0; i < high.length; i++) {
    const fewer = high.slice(0, i) + high.slice(i + 1);
    if (/^0\d/.test(fewer)) continue;
    const bound = Number(fewer);
    if (bound > min && value >= min / NEAR && value <= bound * NEAR) return true;
  }
  return false;
}

/** A number of one significant digit (`0.2`, `5`, `10`): the shape of a laboratory's reporting limit. */
const ROUND = /^(?:0\.0*[1-9]|[1-9]0*)$/;
/** Below this OCR confidence a round number under an upper limit is taken for a limit that lost its `<`. */
const SURE_OF_VALUE = 95;

/**
 * A plain number the range says was printed with a comparator:
 * - any row, unflagged: the number is a strict bound of the range (`0.2` beside `<0.2`, `60` beside
 *   `>60`), so the result as read falls just outside it, where labs print `<0.2`;
 * - OCR: the number is the range's one bound behind a digit a comparator is misread as (`260` for `>60`
 *   beside `> OR = 60`, `20.2` for `<0.2`);
 * - OCR, read with less than full confidence: a round number at most half an upper-only limit (`0.2`
 *   beside `<1.0`), the shape of a below-the-reporting-limit result (`<0.2`) whose `<` OCR dropped.
 */
export function comparatorLost(row: ParsedRow): boolean {
  const value = row.resultValue?.trim() ?? '';
  if (resultTypeOf(value) !== 'numeric') return false;
  const range = (row.referenceRangeText ?? '').trim().replace(/\s+/g, ' ');
  const strict = STRICT_BOUND.exec(range);
  if (strict && toNumber(value) === toNumber(strict[2] ?? '') && (row.flag ?? '').trim() === '') return true;
  if (!row.ocr) return false;
  const { min, max } = parseReferenceRange(range);
  const bound = min === null ? max : max === null ? min : null;
  if (bound !== null && /^[1247]\d/.test(value) && toNumber(value.slice(1)) === bound) return true;
  const unsure = row.ocr.confidence !== null && row.ocr.confidence < SURE_OF_VALUE;
  return unsure && min === null && max !== null && ROUND.test(value) && toNumber(value) <= max / 2;
}

/**
 * OCR: a value printed to one decimal more than its range, ending in a zero (`5.80` beside 5.0-7.5,
 * `5.00` beside 3.5-5.3): a mark beside the value read as a digit. Labs print a value to its range's
 * decimals, or fewer; one more is seen, two more are not (`3.355` beside 2.3-4.2: marks read as digits).
 */
export function gainedDecimal(row: ParsedRow): boolean {
  const value = row.resultValue?.trim() ?? '';
  if (!row.ocr || resultTypeOf(value) !== 'numeric') return false;
  const interval = INTERVAL.exec((row.referenceRangeText ?? '').trim().replace(/\s+/g, ' '));
  if (!interval) return false;
  const printed = Math.max(decimals(interval[1] ?? ''), decimals(interval[2] ?? ''));
  if (printed < 1) return false;
  const extra = decimals(value) - printed;
  return extra >= 2 || (extra === 1 && /\.\d*0$/.test(value));
}

/**
 * OCR: a unit of another kind than every test the name can mean (PCV/HCT in fL, a count in g/dL): the
 * row most likely holds a neighbouring row's cells, as on a photographed page whose values drift off
 * their names.
 */
export function unitOfAnotherKind(row: ParsedRow): boolean {
  return !!row.ocr && row.resultUnit !== null && ofAnotherKind(row.resultUnit, row.biomarker);
}
