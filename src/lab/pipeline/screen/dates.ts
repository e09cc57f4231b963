/**
 * Dates printed as n/n/yyyy, read the same way by the PHI stage (a date of birth in any printed form) and
 * by validation (collection dates, the document's date order): a stage of its own so the earlier stage
 * does not depend on the later one.
 */

/** A date printed as n/n/yyyy (or n/n/yy), before deciding which number is the month. */
export interface PrintedDate {
  text: string;
  first: number;
  second: number;
  year: number;
}

const SLASH_DATE = /(?<![\d/])(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?![\d/])/g;

export function findDates(text: string): PrintedDate[] {
  return [...text.matchAll(SLASH_DATE)].map((m) => ({
    text: m[0],
    first: Number(m[1]),
    second: Number(m[2]),
    year: fullYear(m[3] ?? ''),
  }));
}

/** Two-digit years belong to this century unless that would put them more than a year in the future. */
function fullYear(printed: string): number {
  const n = Number(printed);
  if (printed.length === 4) return n;
  const thisYear = new Date().getUTCFullYear() % 100;
  return n <= thisYear + 1 ? 2000 + n : 1900 + n;
}

/** Month first, as US documents print dates; null when that is no calendar date. */
export function usDateToIso(date: PrintedDate): string | null {
  return isoIfValid(date.year, date.first, date.second);
}

/** YYYY-MM-DD, or null when the numbers name no calendar date (02/30, month 13). */
export function isoIfValid(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.toISOString().slice(0, 10);
}
