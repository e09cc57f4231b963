/**
 * Lab results as the report builder reads them, from a FHIR R4 Bundle of Observations: what
 * `lab extract --format fhir` writes, and what `report from-labs` makes of every PDF and extraction JSON it
 * is given (through the same Bundle writer), so every input reaches the A1 builder by one road.
 */
import type { Bundle, Observation, Quantity } from '@medplum/fhirtypes';
import { UsageError } from '../../errors.js';
import { LOINC, UCUM } from '../../lab/output/fhir.js';
import type { PredictorDoubt } from '../../scoring/types.js';

export interface LabResult {
  /** The file it came from, for the listings of conflicts and unusable results. */
  source: string;
  /** Collection date, YYYY-MM-DD; null when the result carries none. */
  date: string | null;
  /** LOINC code, or null when the result was not mapped to one. */
  code: string | null;
  /** The name as printed on the report. */
  name: string;
  /** The value: a number written plainly ('97', '<0.2'), or the printed text; null when there is none. */
  value: string | null;
  /** The UCUM code for a quantity (the printed unit when it has no UCUM code); '' for text values. */
  unit: string;
  /** The lab's reference range, in `unit`; absent when none was printed. */
  range?: { low: number | null; high: number | null };
  /** Why extraction doubts the value (its validation flags); absent or empty when it does not. */
  doubts?: PredictorDoubt[];
}

export function isFhirBundle(json: unknown): json is Bundle {
  return (
    typeof json === 'object' &&
    json !== null &&
    (json as { resourceType?: unknown }).resourceType === 'Bundle'
  );
}

/** Every Observation in the Bundle as a LabResult; other resources (DiagnosticReport ...) are skipped. */
export function resultsOfBundle(bundle: Bundle, source: string): LabResult[] {
  if (!Array.isArray(bundle.entry ?? []))
    throw new UsageError(`${source}: a FHIR Bundle needs an entry array of resources.`);
  return (bundle.entry ?? []).flatMap((entry) => {
    const resource = entry.resource;
    return resource?.resourceType === 'Observation' && !withdrawn(resource)
      ? [resultOf(resource, source)]
      : [];
  });
}

/** An Observation its sender has taken back is not a result. */
function withdrawn(o: Observation): boolean {
  return o.status === 'entered-in-error' || o.status === 'cancelled';
}

function resultOf(o: Observation, source: string): LabResult {
  const loinc = o.code?.coding?.find((c) => c.system === LOINC && c.code);
  const range = rangeOf(o);
  const doubts = doubtsOf(o);
  return {
    source,
    date: dateOf(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant),
    code: loinc?.code ?? null,
    name: o.code?.text ?? loinc?.display ?? loinc?.code ?? '(unnamed)',
    ...readingOf(o),
    ...(range ? { range } : {}),
    ...(doubts.length > 0 ? { doubts } : {}),
  };
}

/** The first reference range's numeric bounds, when it has any. */
function rangeOf(o: Observation): LabResult['range'] | null {
  const r = o.referenceRange?.[0];
  const low = r?.low?.value ?? null;
  const high = r?.high?.value ?? null;
  return low === null && high === null ? null : { low, high };
}

/**
 * A sender that doubts an Observation marks it preliminary (what `lab extract --format fhir` does for a
 * row with doubts), with a note per doubt.
 */
function doubtsOf(o: Observation): PredictorDoubt[] {
  if (o.status !== 'preliminary') return [];
  const notes = (o.note ?? []).map((n) => n.text).filter((t): t is string => Boolean(t));
  // `lab extract --format fhir` writes each doubt as '<code>: <message>'.
  const doubts = notes.map((text) => {
    const m = /^([a-z][a-z0-9_]*): (.+)$/s.exec(text);
    return m ? { code: m[1] as string, message: m[2] as string } : { code: 'preliminary', message: text };
  });
  return doubts.length > 0
    ? doubts
    : [{ code: 'preliminary', message: 'The source marks this result preliminary.' }];
}

/** The calendar date as written (a dateTime's own offset, never shifted to this machine's zone). */
function dateOf(text: string | undefined): string | null {
  const m = text ? /^(\d{4}-\d{2}-\d{2})/.exec(text) : null;
  return m?.[1] ?? null;
}

function readingOf(o: Observation): Pick<LabResult, 'value' | 'unit'> {
  if (o.valueQuantity?.value !== undefined) return quantityOf(o.valueQuantity);
  if (o.valueInteger !== undefined) return { value: String(o.valueInteger), unit: '' };
  const text = o.valueString ?? o.valueCodeableConcept?.text ?? o.valueCodeableConcept?.coding?.[0]?.code;
  return { value: text?.trim() || null, unit: '' };
}

function quantityOf(q: Quantity): Pick<LabResult, 'value' | 'unit'> {
  const comparator = q.comparator ?? '';
  const unit = q.system === UCUM && q.code ? q.code : (q.unit ?? q.code ?? '');
  return { value: `${comparator}${plainNumber(q.value as number)}`, unit };
}

/** 97, 5.4, 0.0001 written without exponent or trailing zeros, as the A1 value string. */
function plainNumber(n: number): string {
  return Number.isInteger(n) || Math.abs(n) >= 1e-6 ? String(n) : n.toFixed(12).replace(/0+$/, '');
}
