/**
 * Validation stage: is this a supported, single-visit, US lab report? Checks run in a fixed order so a
 * document that fails several gets the most fundamental reason (SPEC.md B5): not a lab report at all, then
 * an unsupported laboratory, then several collection dates, then dates that cannot be US dates.
 */

import type { RejectionExplained, RejectionReason, Vendor } from '../../types.js';
import type { Line } from '../pdf/layout.js';
import type { DocumentLayout } from '../pdf/pdf-text.js';
import { documentViews } from '../table/document-views.js';
import { withGluedCellsCut } from '../table/glued-cells.js';
import { readHeader } from '../table/header.js';
import { readLine } from '../table/row-reader.js';
import { looksLikeResult } from '../table/table-lines.js';
import { findDates, isoIfValid, type PrintedDate, usDateToIso } from './dates.js';
import { detectVendor } from './vendor-detect.js';
import { explainRejection, type VerdictFacts } from './verdict.js';

export type Validation =
  | { ok: true; vendor: Vendor | null; labName: string | null; dateCollected: string | null }
  | ({ ok: false; rejection_reason: RejectionReason; detected_lab?: string | null } & RejectionExplained);

export interface ValidateOptions {
  /** Accept laboratories other than the supported vendors (parsed by the generic table parser). */
  anyLab?: boolean;
  /** The layout before PHI redaction, for laboratory brand names only (vendor-detect.ts). */
  unredacted?: DocumentLayout;
  /** The first page's letterhead read from its picture (vendor-detect.ts), when the text named no lab. */
  letterhead?: readonly string[];
}

export function validateDocument(layout: DocumentLayout, options: ValidateOptions = {}): Validation {
  const lines = layout.pages.flatMap((page) => page.lines);
  const resultRows = countResultRows(lines) + countOwnReaderRows(layout);
  const headedRows = resultRows < MIN_RESULT_ROWS ? countHeadedRows(layout) : 0;
  const { vendor, labName, signatures } = detectVendor(layout, {
    ...(options.unredacted ? { unredacted: options.unredacted } : {}),
    ...(options.letterhead ? { letterhead: options.letterhead } : {}),
  });
  const texts = lines.map((line) => line.text);
  const dates = texts.flatMap((text) => findDates(text));
  const dayFirst = dates.filter(isDayFirst).length;
  const monthFirst = dates.filter(isMonthFirst).length;
  // With --any-lab, a document whose dates can only be read day first (and none only month first) says
  // its own date order; SPEC's default mode accepts US dates alone.
  const order: DateOrder = options.anyLab && dayFirst > 0 && monthFirst === 0 ? 'day_first' : 'month_first';
  const collected = collectionDates(texts, order);
  const distinctDates = new Set(collected.map((d) => d.iso ?? d.text)).size;
  const facts: VerdictFacts = {
    pages: layout.pages.length,
    resultRows,
    minResultRows: MIN_RESULT_ROWS,
    signatures: signatures ?? { quest: 0, labcorp: 0 },
    labName,
    collectionDates: distinctDates,
    dayFirstDates: dayFirst,
    monthFirstDates: monthFirst,
  };
  const reject = (reason: RejectionReason, extra: { detected_lab?: string | null } = {}): Validation => ({
    ok: false,
    rejection_reason: reason,
    ...extra,
    ...explainRejection(reason, facts),
  });

  if (resultRows < MIN_RESULT_ROWS && headedRows < MIN_HEADED_ROWS) return reject('non_lab_document');
  if (!vendor && !options.anyLab) return reject('non_supported_lab', { detected_lab: labName });
  if (distinctDates > 1) return reject('multiple_collection_dates');
  if (dayFirst > 0 && order !== 'day_first') return reject('non_us_document');
  return { ok: true, vendor, labName, dateCollected: collected[0]?.iso ?? null };
}

// --- Is it a lab report? ---------------------------------------------------------------------------------

/** Fewer result rows than this and the document is correspondence, a bill, a form: anything but results. */
const MIN_RESULT_ROWS = 3;

/**
 * Result rows: a name, a measured value, and a reference range or unit beside it (in either order).
 * Money ($48.00), dates and codes never look like this, which is what separates a lab report from an
 * insurance statement that merely names lab tests.
 */
function countResultRows(lines: ReadonlyArray<Pick<Line, 'cells'>>): number {
  return lines.filter((line) => looksLikeResult(withGluedCellsCut(line))).length;
}

/** A culture report's susceptibility rows (an antibiotic and S, I or R) and a titre grid's antigens are results too. */
function countOwnReaderRows(layout: DocumentLayout): number {
  const { panels } = documentViews(layout).own;
  return panels.reduce((n, panel) => n + panel.rows.length, 0);
}

/** Headed rows that make a short report a report: one test (a CRP) is still a lab result. */
const MIN_HEADED_ROWS = 1;
/** How far below its header a headed row may sit, in lines: a form's header far above is no table. */
const HEADED_REACH = 6;

/**
 * Rows read under a results header (Test / Result / Units ...): a name with a value, numeric or a word
 * (Non reactive). A report of one or two tests has too few result-shaped lines for the count above, but
 * its header says what it is; a blank requisition form has the header and no values under it.
 */
function countHeadedRows(layout: DocumentLayout): number {
  let rows = 0;
  for (const views of documentViews(layout).pages) {
    views.forEach((view, i) => {
      const header = readHeader(view);
      if (!header) return;
      for (const below of views.slice(i + 1, i + 1 + HEADED_REACH)) {
        const line = readLine(below, header);
        if (line.name !== '' && line.value !== null && /[A-Za-z]{2}/.test(line.name)) rows += 1;
      }
    });
  }
  return rows;
}

// --- Dates -------------------------------------------------------------------------------------------------

/** A first number above 12 can only be a day: the document writes day/month/year. */
export function isDayFirst(date: PrintedDate): boolean {
  return date.first > 12 && date.second >= 1 && date.second <= 12;
}

/** A second number above 12 can only be a day: the document writes month/day/year. */
export function isMonthFirst(date: PrintedDate): boolean {
  return date.second > 12 && date.first >= 1 && date.first <= 12;
}

/** How a document writes n/n/yyyy: US month first, or day first as most of the world does. */
export type DateOrder = 'month_first' | 'day_first';

/** The calendar date of a printed date read in the given order; null when that is no date. */
export function dateToIso(date: PrintedDate, order: DateOrder): string | null {
  return order === 'day_first' ? isoIfValid(date.year, date.second, date.first) : usDateToIso(date);
}

const COLLECTED =
  /\b(?:date\s+collected|collected|collection\s+date(?:\s*\/\s*time)?|date\s+of\s+collection)\s*:?\s*(\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2}))(?![\d/])([^A-Za-z]{0,16}(?:AM|PM)?\s*(UTC|GMT)\b)?/gi;

export interface CollectionDate {
  text: string;
  iso: string | null;
  /** Printed in UTC by a results portal: the calendar day can differ from the laboratory's local one. */
  utc: boolean;
}

/**
 * Specimen collection dates, from their labels only: a Labcorp report also prints previous results with
 * their own dates, and those are not this visit's collection date. A portal printout restates the time
 * in UTC, which can fall on the next day; where the laboratory's own (local) date is printed, only that
 * counts.
 */
export function collectionDates(
  texts: readonly string[],
  order: DateOrder = 'month_first',
): CollectionDate[] {
  const out: CollectionDate[] = [];
  for (const text of texts) {
    for (const m of text.matchAll(COLLECTED)) {
      const [date] = findDates(m[1] ?? '');
      if (date) out.push({ text: date.text, iso: dateToIso(date, order), utc: m[3] !== undefined });
    }
  }
  const local = out.filter((date) => !date.utc);
  return local.length > 0 ? local : out;
}
