/**
 * The words `report from-labs` (and `report generate` given a Bundle) print about conflicts and results the
 * scoring cannot use: one line per conflict, one line per reason with the names it applies to.
 */
import { basename } from 'node:path';
import type { Conflict, Unusable, UnusableReason } from './events.js';

const REASONS: Record<UnusableReason, string> = {
  no_date: 'no collection date: not in the request',
  no_loinc: 'no LOINC code: not in the request',
  no_value: 'no value: not in the request',
  conflict: 'conflicting values on one date: not scored',
  doubtful: 'a value extraction doubts (an OCR misreading ...): not scored without --use-doubtful',
  not_a_scoring_input: 'a LOINC code no scoring model reads: in the request, shown but not scored',
  not_numeric: 'text where the scoring needs a number',
  censored_value: 'a bound (>x) where the scoring needs a value',
  unit_missing: 'no unit, and the scoring needs one',
  unit_unknown: 'a unit that is not UCUM',
  unit_not_convertible: "a unit that does not convert to the model's unit",
  unknown_value: 'an answer the scoring does not know',
  implausible_value: 'a value no person can have (a typo, a wrong unit): not in the request',
};

const MAX_NAMES = 8;

/** One line per conflict; each distinct reading once, with every file that printed it. */
export function conflictLines(conflicts: readonly Conflict[]): string[] {
  return conflicts.map((c) => {
    const readings = new Map<string, string[]>();
    for (const r of c.readings) {
      const reading = `${r.value}${r.unit ? ` ${r.unit}` : ''}`;
      readings.set(reading, [...(readings.get(reading) ?? []), basename(r.source)]);
    }
    const shown = [...readings].map(([reading, files]) => `${reading} (${files.join(', ')})`);
    return `  ${c.date}  ${c.code} ${c.name}: ${shown.join(' vs ')}`;
  });
}

export function unusableLines(unusable: readonly Unusable[]): string[] {
  const byReason = new Map<UnusableReason, Unusable[]>();
  for (const u of unusable) byReason.set(u.reason, [...(byReason.get(u.reason) ?? []), u]);
  return [...byReason].map(([reason, list]) => {
    const names = [...new Set(list.map((u) => u.name))];
    const shown = names.slice(0, MAX_NAMES).join(', ');
    const more = names.length > MAX_NAMES ? `, and ${names.length - MAX_NAMES} more` : '';
    return `  ${list.length} ${list.length === 1 ? 'result' : 'results'}, ${REASONS[reason]}: ${shown}${more}`;
  });
}
