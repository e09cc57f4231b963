/**
 * A condensed report has one event (SPEC.md A1 health_event), yet a person's latest visit may have tested
 * little. Its event is the as-of snapshot: the latest visit's predictors, plus for each test it lacks the
 * most recent earlier value inside the lookback window, carrying its own date (predictor.date).
 */

import type { FullReportRequest, HealthEvent, Predictor } from '../../schemas/report.js';
import { withinLookback } from '../../scoring/as-of.js';
import { eventDateOf } from '../../scoring/event-date.js';
import { defaultInputCodes } from '../../scoring/input-codes.js';

export function snapshotEvent(request: FullReportRequest): HealthEvent {
  const events = request.health_events;
  const latest = events.at(-1) as HealthEvent;
  const months = request.report_metadata.lookback_months ?? 0;
  if (!(months > 0)) return latest;
  const inputOf = codeInputs();
  const held = new Set(
    latest.predictors.flatMap((p) => [p.observation_code, ...(inputOf.get(p.observation_code) ?? [])]),
  );
  const carried: Predictor[] = [];
  for (const event of [...events.slice(0, -1)].reverse()) {
    if (!withinLookback(event, latest, months)) continue;
    for (const p of event.predictors) {
      const keys = [p.observation_code, ...(inputOf.get(p.observation_code) ?? [])];
      if (keys.some((k) => held.has(k)) || p.doubts?.some((d) => d.code === 'conflict')) continue;
      for (const k of keys) held.add(k);
      const date = p.date ?? eventDateOf(event);
      carried.push({ ...p, ...(date ? { date } : {}) });
    }
  }
  return { ...latest, predictors: [...latest.predictors, ...carried] };
}

/** Which scoring inputs each code feeds, so a test printed under two codes is carried once. */
function codeInputs(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [input, spec] of Object.entries(defaultInputCodes().numeric))
    for (const code of spec.codes) map.set(code, [...(map.get(code) ?? []), input]);
  return map;
}
