/**
 * Lab results grouped into health events: one event per collection date, a date found in several files
 * merged into one event, and one predictor per LOINC code and date. Two different values for one code on
 * one date are a conflict: both are reported and neither is used (a mean of two readings would be a value
 * no lab measured).
 */
import { createHash } from 'node:crypto';
import type { PredictorInput } from '../../scoring/types.js';
import type { LabResult } from './lab-results.js';
import { isImplausible } from './plausible.js';

/** Why a result is not in the request, or is in it but the scoring cannot read it. */
export type UnusableReason =
  | 'no_date'
  | 'no_loinc'
  | 'no_value'
  | 'conflict'
  | 'doubtful'
  | 'not_a_scoring_input'
  | 'not_numeric'
  | 'censored_value'
  | 'unit_missing'
  | 'unit_unknown'
  | 'unit_not_convertible'
  | 'unknown_value'
  | 'implausible_value';

export interface Unusable {
  source: string;
  name: string;
  code: string | null;
  date: string | null;
  value: string | null;
  unit: string;
  reason: UnusableReason;
  /** Whether the result is still carried in the request (the report may show what scoring cannot use). */
  in_request: boolean;
}

export interface Conflict {
  date: string;
  code: string;
  name: string;
  readings: Array<{ value: string; unit: string; source: string }>;
}

/** A health event before ages are known: its date, predictors, and the files that fed it. */
export interface DatedEvent {
  date: string;
  predictors: PredictorInput[];
  sources: string[];
}

export interface Grouped {
  events: DatedEvent[];
  conflicts: Conflict[];
  unusable: Unusable[];
}

export function groupByDate(results: readonly LabResult[]): Grouped {
  const unusable: Unusable[] = [];
  const byDate = new Map<string, Map<string, LabResult[]>>();
  for (const r of results) {
    const reason = missing(r);
    if (reason) {
      unusable.push(unusableOf(r, reason, false));
      continue;
    }
    const date = r.date as string;
    const byCode = byDate.get(date) ?? new Map<string, LabResult[]>();
    byDate.set(date, byCode);
    byCode.set(r.code as string, [...(byCode.get(r.code as string) ?? []), r]);
  }
  const events: DatedEvent[] = [];
  const conflicts: Conflict[] = [];
  for (const date of [...byDate.keys()].sort()) {
    const byCode = byDate.get(date) as Map<string, LabResult[]>;
    const predictors: PredictorInput[] = [];
    for (const code of [...byCode.keys()].sort(byLoinc)) {
      const readings = byCode.get(code) as LabResult[];
      const distinct = new Map(readings.map((r) => [`${r.value}\u0000${r.unit}`, r]));
      if (distinct.size > 1) {
        conflicts.push(conflictOf(date, code, readings));
        unusable.push(...readings.map((r) => unusableOf(r, 'conflict', false)));
        continue;
      }
      // One value read in several files: any file's doubt about it stays with it.
      const doubts = readings.flatMap((r) => r.doubts ?? []);
      predictors.push(predictorOf(date, code, { ...(readings[0] as LabResult), doubts }));
    }
    const sources = [...new Set([...byCode.values()].flat().map((r) => r.source))].sort();
    if (predictors.length > 0) events.push({ date, predictors, sources });
  }
  return { events, conflicts, unusable };
}

/** A result as an A1 predictor, with the printed name, range and doubts the report shows beside it. */
export function predictorOf(
  date: string,
  code: string,
  r: LabResult,
  id = predictorId(date, code),
): PredictorInput {
  return {
    id,
    observation_code: code,
    value: r.value as string,
    unit: r.unit,
    name: r.name,
    ...(r.range ? { reference_range: r.range } : {}),
    ...(r.doubts?.length ? { doubts: r.doubts } : {}),
  };
}

function missing(r: LabResult): UnusableReason | null {
  if (r.date === null) return 'no_date';
  if (r.code === null) return 'no_loinc';
  if (r.value === null) return 'no_value';
  if (isImplausible(r)) return 'implausible_value';
  return null;
}

export function unusableOf(r: LabResult, reason: UnusableReason, inRequest: boolean): Unusable {
  return {
    source: r.source,
    name: r.name,
    code: r.code,
    date: r.date,
    value: r.value,
    unit: r.unit,
    reason,
    in_request: inRequest,
  };
}

function conflictOf(date: string, code: string, readings: readonly LabResult[]): Conflict {
  return {
    date,
    code,
    name: readings[0]?.name ?? code,
    readings: readings.map((r) => ({ value: r.value as string, unit: r.unit, source: r.source })),
  };
}

/** LOINC codes in numeric order (2093-3 before 14647-2), so an event's predictors read in a stable order. */
function byLoinc(a: string, b: string): number {
  return Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b);
}

/** A UUID-form id that is the same for the same date and code, so the same inputs give the same request. */
export function stableUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function predictorId(date: string, code: string): string {
  return stableUuid(`predictor|${date}|${code}`);
}
