import { ConversionError, convert, molarMass, normaliseUnit } from '../terminology/ucum.js';

/** How a model input is expressed: its UCUM unit and what is needed to reach it from another unit. */
export interface UnitSpec {
  /** Target UCUM code. */
  unit: string;
  /** Analyte name of data/ucum/molar-masses.json, for mass <-> substance conversions. */
  analyte?: string;
  /** Extra UCUM code -> factor pairs ucum-lhc cannot convert (arbitrary units: [IU] vs U). */
  equivalents?: Record<string, number>;
  /** When true, a value printed without a unit is taken to be in the target unit. */
  acceptUnitless?: boolean;
  /**
   * UCUM code -> value x factor + offset, for a quantity on another scale rather than in another unit (HbA1c
   * IFCC mmol/mol -> NGSP %). Checked before UCUM, which would read mmol/mol as 0.1 %.
   */
  affine?: Record<string, { factor: number; offset: number }>;
}

/** From a printed value to the spec's unit: value x factor + offset (offset 0 but for affine scales). */
export type ValueConversion =
  | { factor: number; offset: number }
  | { error: 'unit_missing' | 'unit_unknown' | 'unit_not_convertible' };

/**
 * How to read a printed value in the spec's unit, affine scales included. Callers that scale reference
 * limits or values by a factor alone use conversionFactor, which refuses an affine scale.
 */
export function valueConversion(printed: string, spec: UnitSpec): ValueConversion {
  if (spec.affine) {
    const ucum = normaliseUnit(printed).ucumCode;
    const affine = ucum === null ? undefined : spec.affine[ucum];
    if (affine) return { factor: affine.factor, offset: affine.offset };
  }
  const found = conversionFactor(printed, spec);
  return 'error' in found ? found : { factor: found.factor, offset: 0 };
}

export type UnitConversion =
  | { factor: number }
  | { error: 'unit_missing' | 'unit_unknown' | 'unit_not_convertible' };

/**
 * Multiplicative factor from a printed unit to the spec's unit. Every unit scoring reads converts through
 * zero (no temperatures), so one factor per (printed unit, target) is enough; it is cached, because
 * ucum-lhc costs microseconds per call and a benchmark scores tens of thousands of events per second.
 */
const cache = new Map<string, UnitConversion>();

export function conversionFactor(printed: string, spec: UnitSpec): UnitConversion {
  const key = `${spec.unit}\u0000${spec.analyte ?? ''}\u0000${printed}`;
  let found = cache.get(key);
  if (!found) {
    found = resolve(printed, spec);
    if (cache.size > 10_000) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/** Factor between two UCUM codes for an analyte (used for model-specific units, e.g. creatinine umol/L). */
export function ucumFactor(fromUcum: string, toUcum: string, analyte?: string): number {
  const spec: UnitSpec = analyte === undefined ? { unit: toUcum } : { unit: toUcum, analyte };
  const found = conversionFactor(`\u0001${fromUcum}`, spec);
  if ('factor' in found) return found.factor;
  throw new ConversionError(`${fromUcum} cannot be converted to ${toUcum}`);
}

function resolve(printed: string, spec: UnitSpec): UnitConversion {
  // A leading \u0001 marks a key that already is a UCUM code (ucumFactor), not a printed unit.
  const ucum = printed.startsWith('\u0001') ? printed.slice(1) : normaliseUnit(printed).ucumCode;
  if (printed.trim() === '') return spec.acceptUnitless ? { factor: 1 } : { error: 'unit_missing' };
  if (ucum === null) return { error: 'unit_unknown' };
  if (ucum === spec.unit) return { factor: 1 };
  // A value on another scale is no multiple of the target (valueConversion reads it).
  if (spec.affine?.[ucum]) return { error: 'unit_not_convertible' };
  const equivalent = spec.equivalents?.[ucum];
  if (equivalent !== undefined) return { factor: equivalent };
  try {
    const mm = spec.analyte === undefined ? undefined : molarMass(spec.analyte);
    return { factor: convert(1, ucum, spec.unit, mm) };
  } catch (err) {
    if (err instanceof ConversionError) return { error: 'unit_not_convertible' };
    throw err;
  }
}
