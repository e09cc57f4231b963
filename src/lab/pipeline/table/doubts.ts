/**
 * Validation flags for what the parser read but doubts. Messages name at most the biomarker, never the
 * printed value or any other document text, which could carry personal data.
 */

import type { ParsedRow, ValidationFlag } from '../../types.js';
import { isUnreadableRange, parseReferenceRange, resultTypeOf } from '../results/ranges.js';
import { isInterpretation } from './antibiogram.js';
import {
  comparatorLost,
  gainedDecimal,
  rangeSuspect,
  unitMissing,
  unitOfAnotherKind,
  unitUnrecognised,
} from './doubt-cells.js';
import { isCutResultWord, isResultWord } from './doubt-words.js';
import { unitOutliers } from './unit-habit.js';

/**
 * Every code rowDoubts can raise. Those of warning or error severity become the row's doubts
 * (PanelResult.doubts); unparsed_reference_range is info, about the document.
 */
export const ROW_DOUBT_CODES: ReadonlySet<string> = new Set([
  'missing_result_value',
  'suspicious_result_value',
  'value_truncated',
  'unit_unrecognised',
  'range_suspect',
  'comparator_lost',
  'ocr_repaired',
  'ocr_low_confidence',
  'ocr_malformed_value',
  'ocr_value_like_range',
  'ocr_suspect_decimal',
  'ocr_extra_digit',
  'ocr_cells_missing',
  'ocr_unit_missing',
  'ocr_flag_disagrees',
  'ocr_far_outside_range',
  'ocr_range_missing',
  'ocr_unit_of_another_kind',
  'ocr_unit_unlike_page',
  'unparsed_reference_range',
]);

/** Digits and letters run together ("1O.5", "12.3mg"): a misprint or a misread, not a clean value. */
const MIXED_NUMBER = /^[<>]?=?\s*(\d[\d.,]*[a-z]+[\d.,a-z]*|[a-z]+\d[\d.,]*)$/i;
/** Semi-quantitative values ("1+", "2+"), ratios and KDIGO kidney categories ("G3a", "A2") mix nothing. */
const ALLOWED_MIXED = /^(\d\+|\d+:\d+|g[1-5]|g3[ab]|a[1-3])$/i;

/** What a row's doubts depend on beyond the row: how the document prints. */
export interface DocumentStyle {
  /** False for a laboratory that prints no H or L beside results outside their ranges. */
  printsFlags: boolean;
  /** True for one that pads counts to two digits (`03`, `00`), as laboratories in India print a differential. */
  padsCounts: boolean;
  /**
   * Measured results read without a range between two read with one, in a report that prints a range
   * beside (nearly) every result: a range cell lost, not a block of rows printed without (Quest's
   * differential percentages).
   */
  rangeGaps: ReadonlySet<ParsedRow>;
  /** Scanned rows whose unit is spelt unlike the page's other tests of that unit (unit-habit.ts). */
  unitOutliers: ReadonlySet<ParsedRow>;
}

const US_STYLE: DocumentStyle = {
  printsFlags: true,
  padsCounts: false,
  rangeGaps: new Set(),
  unitOutliers: new Set(),
};
/** The share of numeric results with a range that makes a range column, not a range here and there. */
const RANGE_COLUMN = 0.75;
const PADDED_COUNT = /^0\d$/;

/**
 * How the document prints, read from all its rows. Several results outside their ranges and not one flag
 * anywhere: this laboratory prints none (many in India and Pakistan print abnormal values in bold), so a
 * flag's absence says nothing about a value. One unflagged result outside its range is no such evidence:
 * it may be the misread.
 */
export function documentStyle(rows: readonly ParsedRow[]): DocumentStyle {
  const flagged = rows.some((row) => (row.flag?.trim() ?? '') !== '');
  const numeric = rows.filter((row) => resultTypeOf(row.resultValue) === 'numeric');
  return {
    printsFlags: flagged || rows.filter(outsideRange).length < 2,
    // One padded value alone may be a decimal point lost (`05` for 0.5); several are the layout.
    padsCounts: rows.filter((row) => PADDED_COUNT.test(row.resultValue?.trim() ?? '')).length >= 2,
    rangeGaps:
      numeric.length >= 4 && numeric.filter(hasRange).length >= RANGE_COLUMN * numeric.length
        ? new Set(numeric.filter((row, i) => !hasRange(row) && isBetweenRanges(numeric, i)))
        : new Set(),
    unitOutliers: unitOutliers(rows),
  };
}

export function rowDoubts(row: ParsedRow, style: DocumentStyle = US_STYLE): ValidationFlag[] {
  const flags: ValidationFlag[] = [];
  const value = row.resultValue?.trim() ?? '';
  if (value === '') {
    flags.push(
      flag('missing_result_value', 'warning', `${row.biomarker} has no result value`, row.pageNumber),
    );
  } else if (MIXED_NUMBER.test(value) && !ALLOWED_MIXED.test(value)) {
    flags.push(
      flag(
        'suspicious_result_value',
        'warning',
        `${row.biomarker} has a value mixing digits and letters`,
        row.pageNumber,
      ),
    );
  }
  flags.push(...cellDoubts(row), ...ocrDoubts(row, style));
  if (isUnreadableRange(row.referenceRangeText)) {
    flags.push(
      flag(
        'unparsed_reference_range',
        'info',
        `The reference range of ${row.biomarker} states no readable bounds`,
        row.pageNumber,
      ),
    );
  }
  return flags;
}

/**
 * What the cells say against each other, on any row (the OCR-only parts are gated inside): a value cut
 * at a cell edge, a unit no laboratory prints, a range that does not fit itself or the value, a lost
 * comparator.
 */
function cellDoubts(row: ParsedRow): ValidationFlag[] {
  const flags: ValidationFlag[] = [];
  if (isCutResultWord(row.resultValue ?? ''))
    flags.push(
      flag(
        'value_truncated',
        'warning',
        `${row.biomarker} has a text value cut short, as if at a cell edge`,
        row.pageNumber,
      ),
    );
  if (unitUnrecognised(row))
    flags.push(
      flag(
        'unit_unrecognised',
        'warning',
        `${row.biomarker} has a unit that is not one laboratories print; it may have been misread`,
        row.pageNumber,
      ),
    );
  if (!valueLikeBound(row) && rangeSuspect(row))
    flags.push(
      flag(
        'range_suspect',
        'warning',
        `${row.biomarker} has a reference range that does not fit itself or the value; it may have been misread`,
        row.pageNumber,
      ),
    );
  if (comparatorLost(row))
    flags.push(
      flag(
        'comparator_lost',
        'warning',
        `${row.biomarker} has a value that may have lost its < or > sign`,
        row.pageNumber,
      ),
    );
  return flags;
}

/** Below this OCR confidence (0-100) a value is not trusted without a look. */
const OCR_CONFIDENT = 80;

/**
 * What OCR may have got wrong: a value or unit repaired from a look-alike character, a word read with low
 * confidence, a value in no shape a report prints, a number whose unit (or unit and range) was not read, a
 * value with a digit more than its range prints, a value ten or a hundred times outside its range where
 * the range holds it with a decimal point put back (a dropped point), a value its printed flag
 * contradicts. Flagged, never changed silently.
 */
function ocrDoubts(row: ParsedRow, style: DocumentStyle): ValidationFlag[] {
  if (!row.ocr) return [];
  const flags: ValidationFlag[] = [];
  if (row.ocr.repaired)
    flags.push(
      flag('ocr_repaired', 'warning', `${row.biomarker} was repaired from an OCR misreading`, row.pageNumber),
    );
  if (row.ocr.confidence !== null && row.ocr.confidence < OCR_CONFIDENT)
    flags.push(
      flag(
        'ocr_low_confidence',
        'warning',
        `${row.biomarker} was read by OCR with low confidence`,
        row.pageNumber,
      ),
    );
  if (malformedValue(row, style))
    flags.push(
      flag(
        'ocr_malformed_value',
        'warning',
        `${row.biomarker} has a value no laboratory prints in that shape; it was probably misread`,
        row.pageNumber,
      ),
    );
  if (valueLikeBound(row))
    flags.push(
      flag(
        'ocr_value_like_range',
        'warning',
        `${row.biomarker} has a value shaped like a reference bound; its value may not have been read`,
        row.pageNumber,
      ),
    );
  if (cellsMissing(row))
    flags.push(
      flag(
        'ocr_cells_missing',
        'warning',
        `${row.biomarker} was read with neither a unit nor a reference range; its row may have been misread`,
        row.pageNumber,
      ),
    );
  if (unitMissing(row))
    flags.push(
      flag(
        'ocr_unit_missing',
        'warning',
        `${row.biomarker} was read without a unit; its unit may have been missed`,
        row.pageNumber,
      ),
    );
  if (rangeMissing(row, style))
    flags.push(
      flag(
        'ocr_range_missing',
        'warning',
        `${row.biomarker} was read without the reference range the report prints beside its other results`,
        row.pageNumber,
      ),
    );
  if (gainedDecimal(row))
    flags.push(
      flag('ocr_extra_digit', 'warning', `${row.biomarker} may have gained a digit in OCR`, row.pageNumber),
    );
  if (unitOfAnotherKind(row))
    flags.push(
      flag(
        'ocr_unit_of_another_kind',
        'warning',
        `${row.biomarker} has a unit of another kind than the test's; the row may hold a neighbouring row's cells`,
        row.pageNumber,
      ),
    );
  if (style.unitOutliers.has(row))
    flags.push(
      flag(
        'ocr_unit_unlike_page',
        'warning',
        `${row.biomarker} has a unit spelt unlike the page's other tests of that unit; a letter may have been lost`,
        row.pageNumber,
      ),
    );
  if (droppedDecimal(row))
    flags.push(
      flag(
        'ocr_suspect_decimal',
        'warning',
        `${row.biomarker} may have lost its decimal point in OCR`,
        row.pageNumber,
      ),
    );
  else if (farOutside(row, style))
    flags.push(
      flag(
        'ocr_far_outside_range',
        'warning',
        `${row.biomarker} was read far outside its reference range, in a report that prints no flags; it may have been misread`,
        row.pageNumber,
      ),
    );
  else if (flagDisagrees(row, style))
    flags.push(
      flag(
        'ocr_flag_disagrees',
        'warning',
        `${row.biomarker} has a value, range and printed flag that disagree; one of them may be misread`,
        row.pageNumber,
      ),
    );
  return flags;
}

/** Besides numbers, bounds and intervals (resultTypeOf), a value with digits may be a grade or a titer. */
const GRADE_OR_TITER = /^\d\+$|^[<>]?\d+:\d+$/;

/**
 * What OCR makes of a smudged value: digits with stray punctuation (`52:1:`, `1]`, `157.`, a decimal comma
 * `12,7`) or a leading zero (`05` for 0.5), or words that are no result a report prints (`i`, `ue`,
 * `Sot` for 33.1, `FEWA`, `Negative.`; doubt-words.ts holds the words and shapes it does print). Letters
 * mixed with digits are `suspicious_result_value`, a word cut short `value_truncated`.
 */
function malformedValue(row: ParsedRow, style: DocumentStyle): boolean {
  const value = row.resultValue?.trim() ?? '';
  if (value === '' || MIXED_NUMBER.test(value) || isCutResultWord(value) || isInterpretation(value))
    return false;
  if (/\d/.test(value))
    return (
      (/^0\d/.test(value) && !(style.padsCounts && PADDED_COUNT.test(value))) ||
      (resultTypeOf(value) === 'string' && !GRADE_OR_TITER.test(value))
    );
  return !isResultWord(value, row.biomarker);
}

/**
 * A number read with neither unit nor range: labs print one or the other beside every measured value, so
 * the reader most likely lost the row's other cells (or took a line of notes for a result).
 */
function cellsMissing(row: ParsedRow): boolean {
  return (
    resultTypeOf(row.resultValue) === 'numeric' &&
    (row.resultUnit ?? '').trim() === '' &&
    (row.referenceRangeText ?? '').trim() === ''
  );
}

const HIGH_FLAG = /^(h|hh|high)$/i;
const LOW_FLAG = /^(l|ll|low)$/i;

/**
 * Labs print H or L beside every result outside its range, and nothing beside one inside it. When a read
 * value and the printed flag disagree (outside the range and unflagged, or flagged on the other side), one
 * of them was misread: creatinine 0.69 read as 9.69 beside 0.57-1.00 and no flag. Other marks (A,
 * Abnormal, !) say nothing about the side and are not compared.
 */
function flagDisagrees(row: ParsedRow, style: DocumentStyle): boolean {
  const side = sideOfRange(row);
  if (!side) return false;
  const { above, below } = side;
  const printed = row.flag?.trim() ?? '';
  if (printed === '') return style.printsFlags && (above || below);
  if (HIGH_FLAG.test(printed)) return !above;
  if (LOW_FLAG.test(printed)) return !below;
  return false;
}

/** Where a numeric value lies against its range; null for a value or range that says no side. */
function sideOfRange(row: ParsedRow): { above: boolean; below: boolean } | null {
  const text = row.resultValue?.trim() ?? '';
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  if (resultTypeOf(text) !== 'numeric' || (min === null && max === null)) return null;
  const value = Number(text.replace(/,/g, ''));
  return { above: max !== null && value > max, below: min !== null && value < min };
}

const hasRange = (row: ParsedRow): boolean => (row.referenceRangeText?.trim() ?? '') !== '';

/**
 * A measured result with its unit but no range, between two with ranges in a report that prints one beside
 * (nearly) every result: the range cell was lost (a faint hyphen, a range run into the next column).
 * Without a unit too it is ocr_cells_missing's.
 */
function rangeMissing(row: ParsedRow, style: DocumentStyle): boolean {
  return style.rangeGaps.has(row) && (row.resultUnit?.trim() ?? '') !== '' && !row.rangeBlockBelow;
}

function isBetweenRanges(rows: readonly ParsedRow[], i: number): boolean {
  const [before, after] = [rows[i - 1], rows[i + 1]];
  return !!before && !!after && hasRange(before) && hasRange(after);
}

/** Beyond this factor of a bound, a result in a report without flags is doubted. */
const FAR = 2;

/**
 * Where the laboratory prints no flags, nothing confirms a value outside its range; one far outside it
 * (`429` beside 13.5-17.5, twice the high bound or half the low one) is doubted, while one just outside
 * (neutrophils 84 beside 40-75) is an ordinary abnormal result. A low bound of zero says nothing below.
 */
function farOutside(row: ParsedRow, style: DocumentStyle): boolean {
  if (style.printsFlags) return false;
  const text = row.resultValue?.trim() ?? '';
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  if (resultTypeOf(text) !== 'numeric') return false;
  const value = Number(text.replace(/,/g, ''));
  return (max !== null && max > 0 && value > FAR * max) || (min !== null && min > 0 && value < min / FAR);
}

function outsideRange(row: ParsedRow): boolean {
  const side = sideOfRange(row);
  return !!side && (side.above || side.below);
}

/** A value that is one bound ("<200", ">=40"), as reference ranges and risk-category columns print them. */
const BOUND_VALUE = /^(?:[<>]=?|[≤≥])\s*(\d+(?:\.\d+)?)$/;

/**
 * A bound read as the value while the range cell is empty, says the same, or is the next category starting
 * at that bound ("<150" then "150-199"): the reader most likely took a range or risk-table cell for the value
 * (a value cell OCR missed, or a table of categories read as results). A bound-shaped value beside a range
 * of its own ("<10" beside "<14") is an ordinary below-the-limit result and is not doubted.
 */
function valueLikeBound(row: ParsedRow): boolean {
  const value = row.resultValue?.trim() ?? '';
  if (pointReadAsDash(row)) return true;
  const bound = BOUND_VALUE.exec(value);
  if (!bound) return false;
  const range = row.referenceRangeText?.trim() ?? '';
  if (!/\d/.test(range)) return true;
  if (range.replace(/\s+/g, '') === value.replace(/\s+/g, '')) return true;
  const first = /^\d+(?:\.\d+)?/.exec(range)?.[0];
  return first !== undefined && Number(first) === Number(bound[1]);
}

/** Two numbers joined by a dash, as a value: "0-2". */
const DASHED_VALUE = /^(\d+)-(\d+)$/;

/**
 * OCR: a value read as an interval ("0-2") whose dash, read as a decimal point, gives a number its range
 * holds (0.2 beside 0.0-0.4): the point was read as a dash. Urine microscopy prints "0-2" as a result,
 * beside a range it does not fall in as a decimal ("0-5" /hpf), and is not doubted.
 */
function pointReadAsDash(row: ParsedRow): boolean {
  const dashed = row.ocr ? DASHED_VALUE.exec(row.resultValue?.trim() ?? '') : null;
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  if (!dashed || min === null || max === null) return false;
  const asDecimal = Number(`${dashed[1]}.${dashed[2]}`);
  return asDecimal >= min && asDecimal <= max && !(Number(dashed[1]) >= min && Number(dashed[2]) <= max);
}

/**
 * How far outside its range a value read back with its point may fall and still be taken for a dropped
 * point: results are often a little low or high (MCHC "318" beside 32.0-36.0 is 31.8, just below).
 */
const NEAR_RANGE = 1.25;

function droppedDecimal(row: ParsedRow): boolean {
  const value = Number(row.resultValue);
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  if (!Number.isFinite(value) || !/^\d+$/.test(row.resultValue ?? '') || min === null || max === null)
    return false;
  if (value >= min && value <= max * 3) return false;
  return [10, 100].some((d) => value / d >= min / NEAR_RANGE && value / d <= max * NEAR_RANGE);
}

export function withoutNameFlag(pageNumber: number): ValidationFlag {
  return flag('result_without_name', 'warning', 'A result row without a test name was skipped', pageNumber);
}

/** Seen but not read: named by page only, as the line's text could hold anything. */
export function unreadRowFlag(pageNumber: number): ValidationFlag {
  return flag('unread_row', 'warning', 'A line that looks like a result was not read', pageNumber);
}

export function noTableFlag(): ValidationFlag {
  return {
    code: 'no_results_table',
    severity: 'warning',
    message: 'No results table was found in the document',
  };
}

function flag(
  code: string,
  severity: ValidationFlag['severity'],
  message: string,
  pageNumber: number,
): ValidationFlag {
  return { code, severity, message, pageNumber };
}
