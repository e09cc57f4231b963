/**
 * Extraction results as an HL7 FHIR R4 Bundle: one DiagnosticReport per panel and one Observation per
 * result, coded with LOINC and UCUM, as an EHR or a FHIR data warehouse loads lab data. Nothing that
 * identifies the person is emitted (no Patient resource): a caller that has its own reference for the
 * subject passes it, and only then do the Observations claim the US Core Laboratory Result Observation
 * profile, whose subject is required.
 */
import { createHash } from 'node:crypto';
import type {
  Bundle,
  BundleEntry,
  CodeableConcept,
  DiagnosticReport,
  Observation,
  ObservationReferenceRange,
  Patient,
  Quantity,
  Reference,
} from '@medplum/fhirtypes';
import type { ExtractionCore, LabPanel, PanelResult } from '../types.js';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
export const US_CORE_LAB = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-observation-lab';

export interface FhirSource {
  /** What the results were read from (a file name, a job id): it seeds stable resource ids. */
  source: string;
  result: ExtractionCore;
}

export interface FhirOptions {
  /** A reference the caller holds for the person ("Patient/123"); never made up here. */
  subject?: string;
}

/** The system of a result row's id (PanelResult.id) as an Observation identifier. */
export const RESULT_ID_SYSTEM = 'urn:assay:result-id';

export function toFhirBundle(sources: readonly FhirSource[], opts: FhirOptions = {}): Bundle {
  const entry: BundleEntry[] = [];
  for (const { source, result } of sources) {
    result.panels.forEach((panel, p) => {
      const observations = panel.panelResults.map((r, i) => observation(r, panel, opts, uuid(source, p, i)));
      const report = diagnosticReport(panel, result, observations, opts, uuid(source, p, 'report'));
      entry.push(
        { fullUrl: `urn:uuid:${report.id}`, resource: report },
        ...observations.map((o) => ({ fullUrl: `urn:uuid:${o.id}`, resource: o })),
      );
    });
  }
  return { resourceType: 'Bundle', type: 'collection', entry };
}

function diagnosticReport(
  panel: LabPanel,
  result: ExtractionCore,
  observations: readonly Observation[],
  opts: FhirOptions,
  id: string,
): DiagnosticReport {
  return {
    resourceType: 'DiagnosticReport',
    id,
    status: 'final',
    category: [{ coding: [{ system: V2_0074, code: 'LAB', display: 'Laboratory' }] }],
    code: concept(panel.panelCode, panel.panelName),
    ...subjectOf(opts),
    ...(panel.dateCollected ? { effectiveDateTime: panel.dateCollected } : {}),
    ...(result.labName ? { performer: [{ display: result.labName }] } : {}),
    result: observations.map((o) => ({ reference: `urn:uuid:${o.id}` })),
  };
}

function observation(r: PanelResult, panel: LabPanel, opts: FhirOptions, id: string): Observation {
  const doubts = r.doubts ?? [];
  return {
    resourceType: 'Observation',
    id,
    ...(opts.subject ? { meta: { profile: [US_CORE_LAB] } } : {}),
    // A value extraction doubts is not final until a person has looked: preliminary, with a note per doubt.
    status: doubts.length > 0 ? 'preliminary' : 'final',
    ...(r.id ? { identifier: [{ system: RESULT_ID_SYSTEM, value: r.id }] } : {}),
    category: [
      {
        coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }],
        text: 'Laboratory',
      },
    ],
    code: concept(r.loincCode, r.biomarker),
    ...subjectOf(opts),
    ...(panel.dateCollected ? { effectiveDateTime: panel.dateCollected } : {}),
    ...resultValueOf(r),
    ...interpretationOf(r.flag),
    ...rangeOf(r),
    ...(doubts.length > 0 ? { note: doubts.map((d) => ({ text: `${d.code}: ${d.message}` })) } : {}),
  };
}

/** A LOINC coding when there is a code; the printed name as text always. */
function concept(code: string | null, text: string): CodeableConcept {
  return code ? { coding: [{ system: LOINC, code }], text } : { text };
}

function subjectOf(opts: FhirOptions): { subject?: Reference<Patient> } {
  return opts.subject ? { subject: { reference: opts.subject } } : {};
}

const BOUND = /^(<=|>=|<|>|≤|≥|<\s*or\s*=|>\s*or\s*=)\s*([+-]?\d+(?:\.\d+)?)$/i;

/**
 * A number as a Quantity with its UCUM code (and the unit as printed); a bound (`<0.2`) as a Quantity
 * with its comparator; anything else (NEGATIVE, an interval, `1+`) as a string; nothing read as
 * dataAbsentReason, which US Core asks for when there is no value.
 */
function resultValueOf(
  r: PanelResult,
): Pick<Observation, 'valueQuantity' | 'valueString' | 'dataAbsentReason'> {
  const text = r.resultValue?.trim() ?? '';
  if (text === '')
    return {
      dataAbsentReason: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/data-absent-reason', code: 'unknown' }],
      },
    };
  if (r.resultType === 'numeric') return { valueQuantity: quantity(Number(text.replace(/,/g, '')), r) };
  const bound = BOUND.exec(text.replace(/\s+/g, ' '));
  if (bound) {
    const comparator = comparatorOf(bound[1] ?? '');
    return { valueQuantity: { ...quantity(Number(bound[2]), r), comparator } };
  }
  return { valueString: text };
}

function comparatorOf(printed: string): Quantity['comparator'] {
  const p = printed.replace(/\s+/g, '').toLowerCase();
  if (p === '<') return '<';
  if (p === '>') return '>';
  if (p === '<=' || p === '≤' || p === '<or=') return '<=';
  return '>=';
}

function quantity(value: number, r: PanelResult): Quantity {
  return {
    value,
    ...(r.resultUnit ? { unit: r.resultUnit } : {}),
    ...(r.ucumCode ? { system: UCUM, code: r.ucumCode } : {}),
  };
}

function rangeOf(r: PanelResult): Pick<Observation, 'referenceRange'> {
  if (r.minRefRangeValue === null && r.maxRefRangeValue === null && !r.referenceRangeText) return {};
  const bound = (value: number | null) => (value === null ? {} : quantity(value, r));
  const range: ObservationReferenceRange = {
    ...(r.minRefRangeValue !== null ? { low: bound(r.minRefRangeValue) } : {}),
    ...(r.maxRefRangeValue !== null ? { high: bound(r.maxRefRangeValue) } : {}),
    ...(r.referenceRangeText ? { text: r.referenceRangeText } : {}),
  };
  return { referenceRange: [range] };
}

const FLAGS: Record<string, { code: string; display: string }> = {
  H: { code: 'H', display: 'High' },
  HIGH: { code: 'H', display: 'High' },
  HI: { code: 'H', display: 'High' },
  L: { code: 'L', display: 'Low' },
  LOW: { code: 'L', display: 'Low' },
  LO: { code: 'L', display: 'Low' },
  HH: { code: 'HH', display: 'Critical high' },
  LL: { code: 'LL', display: 'Critical low' },
  A: { code: 'A', display: 'Abnormal' },
  ABN: { code: 'A', display: 'Abnormal' },
  ABNORMAL: { code: 'A', display: 'Abnormal' },
  AA: { code: 'AA', display: 'Critical abnormal' },
  CRITICAL: { code: 'AA', display: 'Critical abnormal' },
};

function interpretationOf(flag: string | null | undefined): Pick<Observation, 'interpretation'> {
  const known = flag ? FLAGS[flag.replace(/\*/g, '').trim().toUpperCase()] : undefined;
  if (!known || !flag) return {};
  return { interpretation: [{ coding: [{ system: INTERPRETATION, ...known }], text: flag }] };
}

/** Ids stable for the same source and position, so a re-export of the same results is the same Bundle. */
function uuid(source: string, panel: number, item: number | string): string {
  const h = createHash('sha256').update(`${source}|${panel}|${item}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
