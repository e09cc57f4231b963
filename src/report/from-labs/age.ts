/**
 * Event ages from a date of birth, by arithmetic only. The A1 request carries each event's age and the
 * events' collection dates (as their ids), so an exact age would give the date of birth back to anyone
 * holding the file. The first event's age is therefore the whole years completed that day, as a person
 * states their age, and each later event adds the true time since the first: the spacing the trends need
 * is exact, and the file says no more about the birth date than "N years old on that day" does.
 */
import { UsageError } from '../../errors.js';

const DAY_MS = 86_400_000;
/** The mean Gregorian year, so spacings over many years do not drift. */
const YEAR_DAYS = 365.2425;

const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/** Whole years completed on `on` by someone born on `dob` (both YYYY-MM-DD). */
export function wholeYears(dob: string, on: string): number {
  const [by, bm, bd] = dob.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** Age in years at each date (YYYY-MM-DD, any order), to two decimals. */
export function eventAges(dob: string, dates: readonly string[]): Map<string, number> {
  const sorted = [...dates].sort();
  const first = sorted[0];
  const ages = new Map<string, number>();
  if (first === undefined) return ages;
  const base = wholeYears(dob, first);
  if (base < 0)
    throw new UsageError(`A result was collected on ${first}, before the date of birth given.`, [
      'Check --dob, and that every file is of the same person.',
    ]);
  for (const date of sorted) {
    const years = (dayNumber(date) - dayNumber(first)) / YEAR_DAYS;
    ages.set(date, Math.round((base + years) * 100) / 100);
  }
  return ages;
}
