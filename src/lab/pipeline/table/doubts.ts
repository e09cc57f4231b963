/**
 * Validation flags for what the parser read but doubts. Messages name at most the biomarker, never the
 * printed value or any other document text, which could carry personal data.
 */

import type { ParsedRow, ValidationFlag } from '../../types.js';
import { isUnreadableRange, parseReferenceRange, resultTypeOf } from '../results/ranges.js';
import { comparatorLost, gainedDecimal, rangeSuspect, unitMissing, unitUnrecognised } from './doubt-cells.js';
import { isCutResultWord, isResultWord } from './doubt-words.js';

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
  'unparsed_reference_range',
]);

/** Digits and letters run together ("1O.5", "12.3mg"): a misprint or a misread, not a clean value. */
const MIXED_NUMBER = /^[<>]?=?\s*(\d[\d.,]*[a-z]+[\d.,a-z]*|[a-z]+\d[\d.,]*)$/i;
/** Semi-quantitative values ("1+", "2+") and ratios mix nothing. */
const ALLOWED_MIXED = /^(\d\+|\d+:\d+)$/;

export function rowDoubts(row: ParsedRow): ValidationFlag[] {
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
  flags.push(...cellDoubts(row), ...ocrDoubts(row));
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
function ocrDoubts(row: ParsedRow): ValidationFlag[] {
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
  if (malformedValue(row))
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
  if (gainedDecimal(row))
    flags.push(
      flag('ocr_extra_digit', 'warning', `${row.biomarker} may have gained a digit in OCR`, row.pageNumber),
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
  else if (flagDisagrees(row))
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
function malformedValue(row: ParsedRow): boolean {
  const value = row.resultValue?.trim() ?? '';
  if (value === '' || MIXED_NUMBER.test(value) || isCutResultWord(value)) return false;
  if (/\d/.test(value))
    return /^0\d/.test(value) || (resultTypeOf(value) === 'string' && !GRADE_OR_TITER.test(value));
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
function flagDisagrees(row: ParsedRow): boolean {
  const text = row.resultValue?.trim() ?? '';
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  if (resultTypeOf(text) !== 'numeric' || (min === null && max === null)) return false;
  const value = Number(text.replace(/,/g, ''));
  const above = max !== null && value > max;
  const below = min !== null && value < min;
  const printed = row.flag?.trim() ?? '';
  if (printed === '') return above || below;
  if (HIGH_FLAG.test(printed)) return !above;
  if (LOW_FLAG.test(printed)) return !below;
  return false;
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
  const bound = BOUND_VALUE.exec(value);
  if (!bound) return false;
  const range = row.referenceRangeText?.trim() ?? '';
  if (!/\d/.test(range)) return true;
  if (range.replace(/\s+/g, '') === value.replace(/\s+/g, '')) return true;
  const first = /^\d+(?:\.\d+)?/.exec(range)?.[0];
  return first !== undefined && Number(first) === Number(bound[1]);
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
