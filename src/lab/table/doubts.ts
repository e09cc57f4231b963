/**
 * Validation flags for what the parser read but doubts. Messages name at most the biomarker, never the
 * printed value or any other document text, which could carry personal data.
 */
import { isUnreadableRange, parseReferenceRange } from '../ranges.js';
import type { ParsedRow, ValidationFlag } from '../types.js';

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
  flags.push(...ocrDoubts(row));
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

/** Below this OCR confidence (0-100) a value is not trusted without a look. */
const OCR_CONFIDENT = 80;

/**
 * What OCR may have got wrong: a value or unit repaired from a look-alike character, a word read with low
 * confidence, a value ten or a hundred times outside its range where the range holds it with a decimal
 * point put back (a dropped point). Flagged, never changed silently.
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
  if (droppedDecimal(row))
    flags.push(
      flag(
        'ocr_suspect_decimal',
        'warning',
        `${row.biomarker} may have lost its decimal point in OCR`,
        row.pageNumber,
      ),
    );
  return flags;
}

function droppedDecimal(row: ParsedRow): boolean {
  const value = Number(row.resultValue);
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  if (!Number.isFinite(value) || !/^\d+$/.test(row.resultValue ?? '') || min === null || max === null)
    return false;
  if (value >= min && value <= max * 3) return false;
  return [10, 100].some((d) => value / d >= min && value / d <= max);
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
