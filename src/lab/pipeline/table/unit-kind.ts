/**
 * Whether a unit can be what a test is reported in, by the kind of quantity each is: a fraction (PCV in
 * %) is no entitic volume (MCV in fL), a count no concentration. Used to doubt a row whose unit belongs to
 * a neighbouring row (doubt-cells.ts) and to refuse a unit reading of the wrong kind (ocr-rows.ts).
 */
import { type LoincEntry, loincCatalogue } from '../../../terminology/loinc-catalogue.js';
import { unitPropertyFamily } from '../../../terminology/unit-property.js';

/**
 * Kinds of quantity no laboratory reports one test in two of: the LOINC properties a unit can carry
 * (terminology/unit-property.ts), grouped so that a test printed in SI units (SCnc for MCnc) or as an
 * index stays of its kind.
 */
const KIND_OF_PROPERTY: Readonly<Record<string, string>> = {
  MCnc: 'concentration',
  SCnc: 'concentration',
  ACnc: 'concentration',
  CCnc: 'concentration',
  NCnc: 'count',
  NFr: 'fraction',
  MFr: 'fraction',
  VFr: 'fraction',
  SFr: 'fraction',
  RelRto: 'fraction',
  Ratio: 'fraction',
  EntVol: 'entitic volume',
  EntMass: 'entitic mass',
  Time: 'time',
  RelTime: 'time',
  Vel: 'velocity',
  MRat: 'amount a day',
  SRat: 'amount a day',
};

const kindsOf = (properties: readonly string[]): Set<string> =>
  new Set(properties.flatMap((property) => KIND_OF_PROPERTY[property] ?? []));

/** The tests a name can mean; a name of two spellings ("PCV/HCT") means what either does. */
function testsNamed(name: string): readonly LoincEntry[] {
  const catalogue = loincCatalogue();
  const whole = catalogue.lookupName(name);
  if (whole.length > 0 || !name.includes('/')) return whole;
  return name.split('/').flatMap((part) => catalogue.lookupName(part));
}

/**
 * The unit is of another kind than every test the name can mean. False where either is of no kind listed
 * above (an unknown test, an index): no evidence either way.
 */
export function ofAnotherKind(unit: string, test: string): boolean {
  const unitKinds = kindsOf(unitPropertyFamily(unit) ?? []);
  const testKinds = kindsOf(testsNamed(test).map((entry) => entry.property));
  if (unitKinds.size === 0 || testKinds.size === 0) return false;
  return ![...unitKinds].some((kind) => testKinds.has(kind));
}
