import type { ReportRequest, ReportVariant } from '../../schemas/report.js';
import { requestEvents } from '../../schemas/report.js';
import { scoreRequest } from '../../scoring/score-request.js';
import type { EventScore, SeriesChange } from '../../scoring/types.js';
import { type BiomarkerRow, biomarkerRows } from './biomarkers.js';
import { doubtfulUsed, excludedValues, type ValueNote } from './excluded.js';
import { type MethodEntry, methodsFor } from './methods.js';
import type { OptimalRangeSource } from './optimal-ranges.js';
import { populationPercentile, refdataOptimalRanges } from './refdata-ranges.js';
import { domainOf } from './view.js';

// The renderers' helpers live in view.ts (a render thread loads no scoring); here for the model's callers.
export { carriedInputs, domainOf, missingLabel } from './view.js';

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
