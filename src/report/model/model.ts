import type { ReportRequest, ReportVariant } from '../../schemas/report.js';
import { requestEvents } from '../../schemas/report.js';
import { inputLabel } from '../../scoring/input-labels.js';
import { scoreRequest } from '../../scoring/score-request.js';
import type { DomainName, DomainScore, EventScore, SeriesChange } from '../../scoring/types.js';
import { type BiomarkerRow, biomarkerRows } from './biomarkers.js';
import { doubtfulUsed, excludedValues, type ValueNote } from './excluded.js';
import { type MethodEntry, methodsFor } from './methods.js';
import type { OptimalRangeSource } from './optimal-ranges.js';
import { populationPercentile, refdataOptimalRanges } from './refdata-ranges.js';

/**
 * Everything a report shows, computed before any drawing: the JSON output of `--json` and `.report.json`,
 * and the only input of the renderers. It carries no uid_ext: the report never prints who it is about.
 */
export interface ReportModel {
  variant: ReportVariant;
  request_event_id: string;
  /** event_asof_dtutc of the request: the report's date and the PDF's CreationDate. */
  asof: string;
  scoring_version: string;
  events: EventScore[];
  latest: EventScore;
  previous: EventScore | null;
  /** Chronological age at the latest event, years. */
  chronological_age: number;
  /** PhenoAge at the latest event, years; null when it could not be computed. */
  biological_age: number | null;
  biomarkers: BiomarkerRow[];
  changes: SeriesChange[];
  methods: MethodEntry[];
  /** Months an event may reach back for a value it lacks (report_metadata.lookback_months); 0: none. */
  lookback_months: number;
  /** Measured values of scoring inputs that the scores left out, and why. */
  excluded: ValueNote[];
  /** Doubted values the scores used because the request asked for them (use_doubtful). */
  doubtful_used: ValueNote[];
}

/** Inputs of a domain whose value was measured at another date than the event's (as-of.ts), with that date. */
export function carriedInputs(
  event: EventScore,
  names: readonly string[],
): Array<{ input: string; date: string | null; age: number | null }> {
  return names.flatMap((input) => {
    const source = event.input_sources[input];
    const from = source?.source === 'predictor' ? source.carried_from : undefined;
    return from ? [{ input, date: from.event_date, age: from.event_age }] : [];
  });
}

/**
 * A missing input in words, saying when it was measured at the latest event but left out (doubted, in
 * conflict, a unit that does not convert): "Missing: Albumin" would be untrue then.
 */
export function missingLabel(model: ReportModel, input: string): string {
  const leftOut = model.excluded.some((v) => v.input === input && v.event_age === model.latest.event_age);
  return leftOut ? `${inputLabel(input)} (measured, left out: see Methods)` : inputLabel(input);
}

export function domainOf(event: EventScore, domain: DomainName): DomainScore | undefined {
  return event.domains.find((d) => d.domain === domain);
}

export interface ModelOptions {
  ranges?: OptimalRangeSource;
}

export function buildReportModel(
  request: ReportRequest,
  variant: ReportVariant,
  opts: ModelOptions = {},
): ReportModel {
  const scored = scoreRequest(request);
  const requestEventList = requestEvents(request);
  const events = scored.events;
  const latest = events.at(-1) as EventScore;
  const modelIds = new Set(events.flatMap((e) => Object.keys(e.models)));
  return {
    variant,
    request_event_id: request.report_metadata.event_id,
    asof: request.report_metadata.event_asof_dtutc,
    scoring_version: scored.scoring_version,
    events,
    latest,
    previous: events.at(-2) ?? null,
    chronological_age: latest.event_age,
    biological_age: domainOf(latest, 'overall')?.health_age ?? null,
    biomarkers: biomarkerRows(
      requestEventList,
      opts.ranges ?? refdataOptimalRanges(latest.sex),
      (input, value) => populationPercentile(input, value, latest.sex, latest.event_age),
    ),
    changes: scored.changes,
    methods: methodsFor(modelIds),
    lookback_months: request.report_metadata.lookback_months ?? 0,
    excluded: excludedValues(requestEventList, request.report_metadata),
    doubtful_used: doubtfulUsed(requestEventList, request.report_metadata),
  };
}
