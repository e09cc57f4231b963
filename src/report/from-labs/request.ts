/**
 * The A1 request (full report) built from lab results: events by collection date, ages from the date of
 * birth, predictors with their LOINC code, value and UCUM unit, report_metadata from the person's profile.
 * Both `report from-labs` and `report generate` given a FHIR Bundle build their request here.
 */

import { UsageError } from '../../errors.js';
import { type FullReportRequest, parseReportRequest, type ReportRequest } from '../../schemas/report.js';
import { defaultInputCodes } from '../../scoring/input-codes.js';
import { readInputs } from '../../scoring/inputs.js';
import { eventAges } from './age.js';
import {
  type Conflict,
  type DatedEvent,
  groupByDate,
  predictorOf,
  stableUuid,
  type Unusable,
  unusableOf,
} from './events.js';
import type { LabResult } from './lab-results.js';
import type { Person } from './person.js';
import { checkVitals, vitalsResults } from './vitals.js';

export interface EventSummary {
  health_event_id: string;
  date: string;
  predictors: number;
  sources: string[];
}

export interface LabRequest {
  request: FullReportRequest;
  events: EventSummary[];
  conflicts: Conflict[];
  unusable: Unusable[];
}

export interface BuildOptions {
  /** event_asof_dtutc; now by default. */
  asof?: string;
}

export function buildLabRequest(
  results: readonly LabResult[],
  person: Person,
  opts: BuildOptions = {},
): LabRequest {
  const { configuration, vitals, ...members } = person.profile;
  const labDates = results.flatMap((r) => (r.date && r.code && r.value !== null ? [r.date] : []));
  const latestLab = labDates.length > 0 ? labDates.reduce((a, b) => (a > b ? a : b)) : null;
  const grouped = groupByDate([...results, ...vitalsResults(vitals && checkVitals(vitals), latestLab)]);
  if (grouped.events.length === 0)
    throw new UsageError(
      'No lab result has a collection date, a LOINC code and a value: nothing to report.',
      ['Run `assay lab extract FILE` to see what was read from each file.'],
    );
  const ages = eventAges(
    person.dob,
    grouped.events.map((e) => e.date),
  );
  const healthEvents = grouped.events.map((e) => ({
    health_event_id: e.date,
    event_age: ages.get(e.date) as number,
    predictors: [...e.predictors, ...conflictPredictors(grouped.conflicts, results, e.date)],
  }));
  const json = {
    report_metadata: {
      // The same events give the same reference, so a rerun is recognisably the same report.
      event_id: stableUuid(`request|${JSON.stringify(healthEvents)}|${JSON.stringify(members)}`),
      event_asof_dtutc: opts.asof ?? `${new Date().toISOString().slice(0, 19)}Z`,
      mode: 'report',
      configuration: configuration ?? {},
      ...members,
      lookback_months: members.lookback_months ?? DEFAULT_LOOKBACK_MONTHS,
    },
    uid_ext: '',
    health_events: healthEvents,
  };
  const { request } = parseReportRequest(json, {
    requireDestination: false,
    what: 'The request built from the lab results',
  });
  return {
    request: request as FullReportRequest,
    events: grouped.events.map(summaryOf),
    conflicts: grouped.conflicts,
    unusable: [...grouped.unusable, ...scoringUnusable(request as FullReportRequest, results)],
  };
}

/** How far back a report built from lab results reaches for a value its latest visit lacks, by default. */
export const DEFAULT_LOOKBACK_MONTHS = 12;

/**
 * Each reading of a conflict, as a predictor doubted as 'conflict': the scores never use it, and the
 * report lists it with its date and why, rather than dropping it unseen.
 */
function conflictPredictors(conflicts: readonly Conflict[], results: readonly LabResult[], date: string) {
  return conflicts
    .filter((c) => c.date === date)
    .flatMap((c) =>
      c.readings.map((reading, i) => {
        const r = results.find((x) => x.date === date && x.code === c.code && x.value === reading.value);
        const doubt = {
          code: 'conflict',
          message: `${c.name} has ${c.readings.length} different values on ${date}`,
        };
        return predictorOf(
          date,
          c.code,
          { ...(r ?? { ...reading, date, code: c.code, name: c.name }), doubts: [doubt] },
          stableUuid(`predictor|${date}|${c.code}|${i}`),
        );
      }),
    );
}

function summaryOf(e: DatedEvent): EventSummary {
  return { health_event_id: e.date, date: e.date, predictors: e.predictors.length, sources: e.sources };
}

/**
 * Predictors carried in the request that the scoring cannot read: codes no model uses, and values the
 * scoring reads but cannot use (a unit it cannot convert, text where a number belongs, '>x').
 */
function scoringUnusable(request: FullReportRequest, results: readonly LabResult[]): Unusable[] {
  const codes = defaultInputCodes();
  const scoringCodes = new Set(
    [...Object.values(codes.numeric), ...Object.values(codes.categorical)].flatMap((spec) => spec.codes),
  );
  const found = new Map(results.map((r) => [`${r.date}|${r.code}`, r]));
  const out: Unusable[] = [];
  for (const event of request.health_events) {
    const problems = new Map(
      readInputs(event, codes, request.report_metadata)
        .problems.filter((p) => p.observation_code !== undefined)
        .map((p) => [p.observation_code, p.reason]),
    );
    for (const p of event.predictors) {
      if (p.doubts?.some((d) => d.code === 'conflict')) continue;
      const reason = scoringCodes.has(p.observation_code)
        ? problems.get(p.observation_code)
        : 'not_a_scoring_input';
      const result = found.get(`${event.health_event_id}|${p.observation_code}`);
      if (reason && result) out.push(unusableOf(result, reason, true));
    }
  }
  return out;
}

/**
 * The request as written beside the report, without its configuration: a pre-signed URL and a callback
 * credential are secrets the profile keeps, and a copy in every report folder is one more place to leak
 * from. The file is what `assay score` and `report generate --out` need.
 */
export function requestFileText(request: ReportRequest): string {
  const written = { ...request, report_metadata: { ...request.report_metadata, configuration: {} } };
  return `${JSON.stringify(written, null, 2)}\n`;
}
