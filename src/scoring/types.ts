/**
 * Local shapes of the scoring input (SPEC.md A1 health event and predictor) and of the report model. The
 * zod schemas of src/schemas/ own validation; scoring only needs these members and trusts its caller.
 */

/** One observation of a health event (SPEC.md A1 predictor). */
export interface PredictorInput {
  id?: string;
  /** LOINC-style code, <digits>-<digit>. */
  observation_code: string;
  /** Always a string, numeric or text. */
  value: string;
  /** Unit as printed; '' when the observation has no unit. */
  unit: string;
  /** Ours, beyond SPEC.md: the test's name as the lab printed it, for the report's words. */
  name?: string;
  /** Ours: why the value may be wrong (an OCR misreading, a conflict); a doubted value is not scored unless asked. */
  doubts?: PredictorDoubt[];
  /** Ours: the lab's own reference range, in the predictor's unit. */
  reference_range?: { low?: number | null; high?: number | null };
  /** Ours: the date the value was measured when it is not the event's own (a value carried into a snapshot). */
  date?: string;
}

/** A reason to doubt one value, as lab extraction states it (its validation flag code and message). */
export interface PredictorDoubt {
  code: string;
  message: string;
}

/** SPEC.md A1 health event. event_age is in years (the unit is not shown in SPEC.md; every model here uses years). */
export interface HealthEventInput {
  health_event_id: string;
  event_age: number;
  predictors: PredictorInput[];
  /** Ours, beyond SPEC.md: the event's calendar date, YYYY-MM-DD. */
  event_date?: string;
}

/** A report or scoring request: a series (full report) or one event (condensed report). */
export interface ScoreRequestInput {
  uid_ext: string;
  /** SPEC.md A1 report_metadata; only the members of ScoringMetadata are read by scoring. */
  report_metadata?: ScoringMetadata;
  health_events?: HealthEventInput[];
  health_event?: HealthEventInput;
}

export type Sex = 'female' | 'male';

/** Race as the Pooled Cohort Equations distinguish it; 'other' uses the white equations (Goff 2013). */
export type PceRace = 'white' | 'african_american' | 'other';

/**
 * The members of report_metadata that scoring reads (SPEC.md A1 leaves "other members inherited from the
 * scoring request metadata" unshown; these are ours, validated by src/schemas/report.ts). They apply to every
 * event of the request; a readable predictor of an event wins over them. An absent (or null: unknown) member
 * is never defaulted: the models that need it report it missing.
 */
export interface ScoringMetadata {
  /** Sex assigned at birth. */
  sex?: Sex | null;
  /** Current smoker. */
  smoker?: boolean | null;
  /** On blood-pressure-lowering treatment. */
  bp_treated?: boolean | null;
  /** Diagnosed diabetes. */
  diabetes?: boolean | null;
  /** A parent with diabetes (Wilson 2007). */
  parental_diabetes?: boolean | null;
  /** Race for the Pooled Cohort Equations. */
  race?: PceRace | null;
  /** On statin therapy (PREVENT). */
  statin?: boolean | null;
  /** Social Deprivation Index decile 1-10 of the home address (the PREVENT SDI term); no ZIP lookup. */
  sdi_decile?: number | null;
  /**
   * Ours: an input an event lacks takes its most recent value from an earlier event at most this many
   * months before (as-of.ts). Absent or 0: each event is scored from its own predictors (SPEC.md).
   */
  lookback_months?: number | null;
  /** Ours: score doubted values too (each is marked wherever it appears); absent: leave them out. */
  use_doubtful?: boolean | null;
}

/** Where an event's input came from: a predictor of the event (with its code) or a report_metadata member. */
export type InputSource =
  | {
      source: 'predictor';
      observation_code: string;
      /** Set when the value was measured at another event than the one scored (as-of.ts). */
      carried_from?: CarriedFrom;
      /** The value carries doubts and was used because the request asked for doubted values. */
      doubtful?: true;
    }
  | { source: 'report_metadata'; member: MetadataInputMember };

/**
 * The report_metadata members that supply a categorical model input and are recorded as its source (the
 * others steer how the series is scored). sdi_decile supplies the input of the same name without a recorded
 * source until the `score --json` schema (src/schemas/cli/misc.ts) lists it.
 */
export type MetadataInputMember = Exclude<
  keyof ScoringMetadata,
  'lookback_months' | 'use_doubtful' | 'sdi_decile'
>;

/** Where a value used at one event was measured: another event of the series, or a date the predictor states. */
export interface CarriedFrom {
  health_event_id: string | null;
  /** Years; null when only a date is known. */
  event_age: number | null;
  event_date: string | null;
}

export type DomainName = 'overall' | 'cardiovascular' | 'metabolic' | 'kidney' | 'liver';

/** An age that was solved for and kept inside the model's valid range. */
export interface SolvedAge {
  /** Years, clamped to the valid range. */
  value: number;
  /** 'below' or 'above' when the solution lay outside the valid range and value is the range's end. */
  clamped: 'below' | 'above' | null;
}

/** One domain of one event in the report model. Risks are fractions 0-1, ages in years. */
export interface DomainScore {
  domain: DomainName;
  /** The domain model's own value: a risk (fraction), PhenoAge (years), eGFR, FIB-4, HOMA-IR. */
  value: number | null;
  unit?: string;
  health_score: number | null;
  health_age: number | null;
  /** Set when health_age was clamped to the model's valid age range. */
  health_age_clamped?: 'below' | 'above';
  risk: number | null;
  risk_ratio: number | null;
  /** Model id the domain's numbers come from; null when no model could be computed. */
  model: string | null;
  /**
   * The model that applies to this event, chosen by age band, sex, diagnosed diabetes and which inputs are
   * present, never by a lab value; absent when none applies. When it is set and model is null, the model
   * could not be computed (an input outside its validated range) and no other model took its place.
   */
  chosen_model?: string;
  /** Which model the domain used and why, or why none applied, in words (e.g. an age outside its range). */
  model_reason: string;
  /** Published category of a value-type model (KDIGO GFR category, FIB-4 band). */
  category?: string;
  inputs_used: string[];
  inputs_missing: string[];
  /** Why a member is null, in words; never a stack trace. */
  notes: string[];
}

/** One computed model of one event: value plus whatever the model reports on the side. */
export interface ModelOutput {
  value: number;
  unit?: string;
  [detail: string]: unknown;
}

/** Why a model was not computed for an event. */
export interface ModelNotComputed {
  status: 'missing_inputs' | 'out_of_range';
  inputs_missing?: string[];
  reason?: string;
}

export interface EventScore {
  health_event_id: string;
  event_age: number;
  /** The event's calendar date when the request gives one (event-date.ts), else null. */
  event_date: string | null;
  sex: Sex | null;
  models: Record<string, ModelOutput>;
  /** Models that were considered but not computed, with the reason. */
  models_not_computed: Record<string, ModelNotComputed>;
  domains: DomainScore[];
  /**
   * Where each input the event supplied came from, keyed by the input names of inputs_used and
   * inputs_missing (age comes from event_age and is not listed).
   */
  input_sources: Record<string, InputSource>;
}

export interface DomainChange {
  domain: DomainName;
  from_event_id: string;
  to_event_id: string;
  /** Years between the two events (difference of event_age). */
  years: number;
  value_change: number | null;
  health_score_change: number | null;
  health_age_change: number | null;
  risk_change: number | null;
  risk_ratio_change: number | null;
}

export interface SeriesChange extends DomainChange {
  /** 'series' for first -> last event with a value, 'consecutive' for neighbours. */
  span: 'consecutive' | 'series';
}

export interface ScoreReport {
  uid_ext: string;
  scoring_version: string;
  events: EventScore[];
  changes: SeriesChange[];
}
