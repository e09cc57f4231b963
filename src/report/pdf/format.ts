/**
 * How numbers read in the report. The renderers and the tests that read PDFs back share these, so a test
 * can look for exactly the string the page shows.
 */

export const DASH = '–';

export function fixed(value: number | null | undefined, digits: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  // -0.0 reads as a change where there is none.
  const text = value.toFixed(digits);
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

export const formatScore = (v: number | null | undefined): string => fixed(v, 1);
export const formatAge = (v: number | null | undefined): string => fixed(v, 1);
export const formatRatio = (v: number | null | undefined): string => (v == null ? DASH : `${fixed(v, 2)}x`);
export const formatPercent = (v: number | null | undefined): string =>
  v == null ? DASH : `${fixed(v * 100, 1)}%`;

/** A change with its sign, so "+1.2" and "-0.8" read as movements, not levels. */
export function formatSigned(value: number | null | undefined, digits: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const text = fixed(value, digits);
  return value > 0 && Number(text) !== 0 ? `+${text}` : text;
}

/**
 * A lab value with a sensible number of digits for its size, without trailing zeros: labs print 63 and
 * 0.2, and a report that prints 63.0 or 0.200 claims a precision nobody measured.
 */
export function formatValue(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  const text = fixed(value, digits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** UCUM codes as people print them; the standard PDF fonts cover these characters (WinAnsi). */
const UNIT_DISPLAY: Record<string, string> = {
  'mm[Hg]': 'mmHg',
  'u[IU]/mL': 'µIU/mL',
  '10*3/uL': '10³/µL',
  'mL/min/{1.73_m2}': 'mL/min/1.73m²',
  'kg/m2': 'kg/m²',
  a: 'years',
  '1': '',
};

export function displayUnit(ucum: string | undefined): string {
  if (!ucum) return '';
  return UNIT_DISPLAY[ucum] ?? ucum.replace(/^u(?=[a-zA-Z])/, 'µ');
}

/** 2025-01-31T09:00:00Z -> 31 Jan 2025 (UTC, so the same request renders the same everywhere). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** 2025-06-04 (or an ISO timestamp) -> Jun 2025. */
export function formatMonth(iso: string): string {
  return formatDate(iso).replace(/^\d+ /, '');
}

/** When a value was measured, for a reader: its date, or the age when the request gives no date. */
export function formatWhen(date: string | null, age: number | null): string {
  if (date) return formatDate(`${date}T00:00:00Z`);
  return age === null ? '' : `age ${formatAge(age)}`;
}

/** 1 -> 1st, 22 -> 22nd, 13 -> 13th. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
