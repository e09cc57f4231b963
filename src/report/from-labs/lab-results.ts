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

/**
 * Every Observation in the Bundle as a LabResult; other resources (DiagnosticReport ...) are skipped. A
 * Bundle that is not FHIR where this reads it (a null entry, a value that is text, an object or deeply nested
 * arrays where a number belongs) is a usage error naming the entry and the field, never the value.
 */
export function resultsOfBundle(bundle: Bundle, source: string): LabResult[] {
  const entries: unknown = (bundle as { entry?: unknown }).entry ?? [];
  if (!Array.isArray(entries))
    throw new UsageError(`${source}: a FHIR Bundle needs an entry array of resources.`);
  return entries.flatMap((entry: unknown, i) => {
    const where = `${source}: entry ${i + 1}`;
    if (!isRecord(entry)) throw new UsageError(`${where} is not an object: a Bundle entry holds a resource.`);
    const resource = entry.resource;
    if (resource === undefined) return [];
    if (!isRecord(resource)) throw new UsageError(`${where}: resource must be an object.`);
    if (resource.resourceType !== 'Observation') return [];
    checkShape(resource, OBSERVATION, where, 'Observation');
    const o = resource as unknown as Observation;
    return withdrawn(o) ? [] : [resultOf(o, source)];
  });
}

/** The parts of an Observation read here, and what FHIR R4 says each is (JSON has no null in FHIR). */
type Shape = 'string' | 'number' | 'integer' | { [field: string]: Shape } | readonly [Shape];

const CODING = { system: 'string', code: 'string', display: 'string' } as const;
const OBSERVATION: Shape = {
  status: 'string',
  code: { text: 'string', coding: [CODING] },
  effectiveDateTime: 'string',
  effectivePeriod: { start: 'string' },
  effectiveInstant: 'string',
  valueQuantity: { value: 'number', comparator: 'string', unit: 'string', code: 'string', system: 'string' },
  valueInteger: 'integer',
  valueString: 'string',
  valueCodeableConcept: { text: 'string', coding: [CODING] },
  referenceRange: [{ low: { value: 'number' }, high: { value: 'number' } }],
  note: [{ text: 'string' }],
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Check `value` against `shape`, only as deep as the shape goes: however deeply the input nests, nothing
 * here recurses into more of it than the fields read.
 */
function checkShape(value: unknown, shape: Shape, where: string, path: string): void {
  if (value === undefined) return;
  const wrong = (what: string) => new UsageError(`${where}: ${path} must be ${what}.`);
  if (shape === 'string') {
    if (typeof value !== 'string') throw wrong('text');
    return;
  }
  if (shape === 'number' || shape === 'integer') {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong('a number');
    if (shape === 'integer' && !Number.isInteger(value)) throw wrong('a whole number');
    return;
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) throw wrong('a list');
    const item = (shape as readonly [Shape])[0];
    value.forEach((v: unknown, i) => {
      if (v === undefined || v === null) throw wrong('a list without empty items');
      checkShape(v, item, where, `${path}[${i}]`);
    });
    return;
  }
  if (!isRecord(value)) throw wrong('an object');
  for (const [field, inner] of Object.entries(shape as Record<string, Shape>)) {
    if (value[field] === null)
      throw new UsageError(`${where}: ${path}.${field} is null; leave it out instead.`);
    checkShape(value[field], inner, where, `${path}.${field}`);
  }
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
