/**
 * Units as OCR reads them, put right against the unit catalogue: one look-alike character swapped ("jul"
 * for "/ul", "gidl" for "g/dl"), a slash lost between letters ("milcumm"), a caret read as a degree sign,
 * a per cent sign read as letters on a row whose numbers are per cent, a unit nothing knows read as the
 * nearest unit the row can mean, and spellings the catalogue knows but for case and spacing. ocr-rows.ts
 * applies them to a document's rows and flags each repair.
 */
import { loincCatalogue } from '../../../terminology/loinc-catalogue.js';
import { normaliseUnit } from '../../../terminology/ucum.js';
import { lookupStatic, staticMapEntries, unitKey } from '../../../terminology/ucum-static-map.js';
import type { ParsedPanel, ParsedRow } from '../../types.js';
import { parseReferenceRange } from '../results/ranges.js';

/** Characters OCR confuses in units: one occurrence swapped at a time. */
const UNIT_LOOKALIKES: ReadonlyArray<readonly [string, string]> = [
  ['O', '0'],
  ['0', 'O'],
  ['l', '1'],
  ['1', 'l'],
  ['l', 'I'],
  ['I', 'l'],
  ['n', 'h'],
  ['t', 'L'],
  ['0', 'd'],
  ['O', 'd'],
  // A slash read as the letter its stroke looks like ("jul", "Jul", "ful" for "/ul").
  ['j', '/'],
  ['J', '/'],
  ['f', '/'],
  // ... or as an i ("gidl", "millicumm"); c read as the round letters beside it ("Lakhs /omm", "/emm").
  ['i', '/'],
  ['o', 'c'],
  ['e', 'c'],
  // A micro sign read as the y its tail looks like ("yIU/mL", "yg/dL").
  ['y', 'µ'],
];

const DEGREE_POWER = /°(?=\d)/g;

/** "%o", "%0", "%." for "%": a speck or the cell's rule read after the sign. */
const PERCENT_SPECK = /^%[o0°.,'`’]$/;

/** What tesseract makes of a per cent sign set in a bold or small face: "Yo", "Jo", "*o", "°o", "9%". */
const PERCENT_LOOKALIKE = /^(?:[YyJj*°]o|9%|%%)$/;

/** A per cent sign as printed or as tesseract may read it. */
export function looksLikePercentSign(text: string): boolean {
  const read = text.replace(/\s+/g, '').replace(TRAILING_MARK, '');
  return read === '%' || PERCENT_SPECK.test(read) || PERCENT_LOOKALIKE.test(read);
}

/** A mark after the unit: the cell's rule or a speck ("9%,", "of,"). */
const TRAILING_MARK = /[,.'`’]+$/;

/**
 * "%" for a per-cent look-alike, only on a row whose value and both bounds of its range are percentages
 * (0 to 100): the shape alone is no proof, the row's numbers make it one. A sign read as one or two
 * letters no unit is ("My", "of") is taken for one only on a test the catalogue knows as reported in per
 * cent (Lymphocytes, Polymorphs), with the same numbers.
 */
export function percentReading(row: ParsedRow): string | null {
  const read = (row.resultUnit ?? '').replace(/\s+/g, '').replace(TRAILING_MARK, '');
  if (!PERCENT_LOOKALIKE.test(read) && !(read.length <= 2 && reportedInPercent(row.biomarker))) return null;
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  const value = Number(row.resultValue);
  if (min === null || max === null || !Number.isFinite(value) || row.resultValue === null) return null;
  return [value, min, max].every((n) => n >= 0 && n <= 100) ? '%' : null;
}

/** The test the name usually means is reported in per cent. */
function reportedInPercent(name: string): boolean {
  return usualUcum(name) === '%';
}

export function isCatalogued(unit: string): boolean {
  spellings ??= new Map(staticMapEntries().map((e) => [unitKey(e.printed), e.printed]));
  return spellings.has(unitKey(unit));
}

/** The unit's normaliser knows it, by the catalogue or by its rules for counts ("cells/cumm"). */
export function isKnownUnit(unit: string): boolean {
  return isCatalogued(unit) || normaliseUnit(unit).ucumMatchMethod !== 'not_found';
}

/**
 * The one known unit a look-alike swap makes of an OCR'd unit: one the catalogue spells, else (when the
 * catalogue gives none) one the normaliser's rules know; none or several: null.
 */
export function unitReading(unit: string): string | null {
  const read = unit.replace(/\s+/g, '');
  if (PERCENT_SPECK.test(read)) return '%';
  // One character says too little to swap ("0" is no day, "d"): the per cent rule may still read it.
  if (read.length < 2) return null;
  // A degree sign before a digit is a caret ("10°9/l"): no unit prints one there (°C has a letter).
  const printed = unit.trim().replace(DEGREE_POWER, '^');
  // Swapped as printed, spaces kept ("Lakhs /omm" is "Lakhs /cmm"); the catalogue matches without them.
  const candidates = [
    ...(printed !== unit.trim() ? [printed] : []),
    ...swaps(printed, UNIT_LOOKALIKES),
    ...slashesLost(read),
    ...caretLost(read),
  ];
  let readings = candidates.filter(isCatalogued);
  if (readings.length === 0) readings = candidates.filter(isKnownUnit);
  const [reading] = readings;
  if (reading === undefined || new Set(readings.map(unitKey)).size !== 1) return null;
  return reading;
}

/** Edits allowed between a misread unit and the unit it stands for: one on a unit of 3 characters or fewer. */
const unitEdits = (unit: string): number => (unit.length <= 3 ? 1 : 2);

/**
 * Look-alikes OCR swaps in units, in lower case, read then meant: each such swap costs half an edit. A y
 * is a micro sign (both have a tail below the line), not a u.
 */
const UNIT_SHAPES = new Set('1i i1 1l l1 il li 0o o0 yµ uµ µu ji fi'.split(' '));

/**
 * Edits from what was read to a candidate, a look-alike swap counting half: "1U/L" is nearer IU/L than
 * U/L, "yg/dL" nearer µg/dL than mg/dL. Units are a few characters, so the whole table is cheap.
 */
function shapeDistance(read: string, unit: string): number {
  let previous = Array.from({ length: unit.length + 1 }, (_, j) => j);
  for (let i = 1; i <= read.length; i++) {
    const current = [i];
    for (let j = 1; j <= unit.length; j++) {
      const [a, b] = [read[i - 1] as string, unit[j - 1] as string];
      const swap = a === b ? 0 : UNIT_SHAPES.has(a + b) ? 0.5 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + swap,
      );
    }
    previous = current;
  }
  return previous[unit.length] as number;
}

/**
 * The unit a garbled one stands for, by what the row can mean rather than by one look-alike letter
 * ("meg/db", "g/di", "1U/L", "yg/dL" for mg/dL, g/dL, IU/L, µg/dL): the nearest of the units read whole on
 * the document's other rows (a laboratory prints a unit the same way throughout) and the catalogue's
 * spellings of the unit the test is usually reported in. Within two edits (one for a unit of three
 * characters or fewer), compared without case or spaces, a look-alike swap counting half; where units of
 * several meanings lie as near, the test's usual one, else none. The caller flags the repair: it is a
 * reading, not a certainty.
 */
export function nearestExpectedUnit(
  read: string,
  test: string,
  document: readonly PrintedUnit[],
): UnitReading | null {
  const key = unitKey(read);
  if (key.length < 2) return null;
  const usual = usualUcum(test);
  const usualSpellings = usual
    ? staticMapEntries()
        .filter((entry) => entry.ucum === usual)
        .map((entry) => entry.printed)
    : [];
  const meaning = (unit: string) => lookupStatic(unit) ?? unitKey(unit);
  let nearest: string[] = [];
  let least = Number.POSITIVE_INFINITY;
  for (const candidate of new Set([...document.map((printed) => printed.unit), ...usualSpellings])) {
    const d = shapeDistance(key, unitKey(candidate));
    if (d === 0 || d > unitEdits(unitKey(candidate)) || d > least) continue;
    if (d < least) [nearest, least] = [[], d];
    nearest.push(candidate);
  }
  if (new Set(nearest.map(meaning)).size > 1) nearest = nearest.filter((unit) => meaning(unit) === usual);
  const [unit] = nearest;
  if (unit === undefined || new Set(nearest.map(meaning)).size !== 1) return null;
  // The laboratory's habit: another test usually reported in this unit printed in another (IU/L for U/L).
  const otherHabit = document.some(
    (printed) => usual !== null && printed.usual === usual && meaning(printed.unit) !== usual,
  );
  return { unit, confirmed: least <= 1 && meaning(unit) === usual && !otherHabit };
}

/** A unit read whole on a row of the document, and the unit the row's test is usually reported in. */
export interface PrintedUnit {
  unit: string;
  usual: string | null;
}

/** The UCUM code the catalogue says the test is usually reported in. */
export const usualUcum = (test: string): string | null =>
  loincCatalogue().lookupName(test)[0]?.exampleUcum ?? null;

/**
 * A garbled unit's reading, and whether it is confirmed: one edit from a spelling of the unit the
 * catalogue says the test is reported in ("ng/di" on free T4, "ULL" on ALT). The unit then means what the
 * test is reported in whichever way it was spelt, and the value is as read: a spelling put right, as
 * spellUnits puts one right, with no doubt. Any other reading (two edits, another unit than the test's
 * usual, a test the catalogue does not know, a laboratory that prints another test of the same usual
 * unit in another: "UL" for ALP on a Labcorp page whose AST is in IU/L) is a guess and is flagged. Measured on the graded fixture
 * scans: doubting every reading took the right rows carrying a doubt past 5% (36 of 696).
 */
export interface UnitReading {
  unit: string;
  confirmed: boolean;
}

/**
 * "milcumm" for "mill/cumm": a slash lost between two letters of a unit that has none. Every place is
 * tried; unitReading keeps the result only where exactly one known unit comes of it.
 */
function slashesLost(read: string): string[] {
  if (read.includes('/') || !/^\p{L}{6,}$/u.test(read)) return [];
  return [...read].slice(1).map((_, i) => `${read.slice(0, i + 1)}/${read.slice(i + 1)}`);
}

/** A count's power of ten whose caret was lost ("106/uL") or read as a 7 ("1073/uL"): `10^6/uL`, `10^3/uL`. */
const POWER_CARET = /^([x×*]?10)7?(\d{1,2})(\/.+)$/;

function caretLost(read: string): string[] {
  const found = POWER_CARET.exec(read);
  return found ? [`${found[1]}^${found[2]}${found[3]}`] : [];
}

/**
 * A unit wrapped onto the next line ("cellsfcum" + "m"): the two read as one make a known unit (as read or
 * by one look-alike swap), the first alone does not.
 */
export function joinsUnit(unit: string, fragment: string): boolean {
  const known = (text: string) => isKnownUnit(text) || unitReading(text) !== null;
  return !known(unit) && known(`${unit}${fragment}`);
}

let spellings: Map<string, string> | undefined;

/**
 * A unit written in words cased as words are (`Seconds`, `Gms %`, `Million Cells/cumm`): each run of
 * letters small, or a capital and two or more small ones, at least one capitalised. OCR reads that case
 * right by its place; a capital it misread stands alone or before one letter (`Pg`, `X10E3/uL`).
 */
export function isWordCased(unit: string): boolean {
  const words = unit.match(/\p{L}+/gu) ?? [];
  return (
    words.some((word) => /^\p{Lu}\p{Ll}{2,}$/u.test(word)) &&
    words.every((word) => /^\p{Lu}?\p{Ll}+$/u.test(word) && (word.length >= 3 || word === word.toLowerCase()))
  );
}

/** Letters whose capital is their small letter enlarged, which OCR tells apart by size alone. */
const SAME_SHAPE = new Set('cosuvwxzkp');

/**
 * A small l where the catalogue spells L ("fl", "g/dl") is respelt only on a document whose units read
 * elsewhere show the capital ("mg/dL", "fL"): there the laboratory prints L, and tesseract, which leans to
 * a small letter after small ones, lost it. A laboratory that prints "fl" and "g/dl" throughout (common in
 * India and Pakistan) shows no capital L, and its units stay as read.
 */
export function spellUnits(panels: readonly ParsedPanel[]): void {
  spellings ??= new Map(staticMapEntries().map((e) => [unitKey(e.printed), e.printed]));
  const rows = panels.flatMap((panel) => panel.rows).filter((row) => row.ocr && row.resultUnit !== null);
  // "mmol/L", "U/L", "10^9/L" are spelt with a capital by every laboratory: only a small letter before
  // the L ("mg/dL", "fL", "uL") says which way this one prints.
  const capitalL = rows.some((row) => /[a-z]L/.test(row.resultUnit ?? ''));
  for (const row of rows) {
    const unit = row.resultUnit as string;
    const spelt = spellings.get(unitKey(unit));
    if (spelt && !isWordCased(unit) && sameShape(unit.replace(/\s+/g, ''), spelt, capitalL)) {
      row.resultUnit = spelt;
    }
  }
}

/**
 * Equal but for the case of same-shape letters: "X10E3/uL" is "x10E3/uL"; "MG/DL" stays as printed, and so
 * does a word capitalised as a word is ("Seconds"), which OCR reads right by its place.
 */
function sameShape(read: string, spelt: string, capitalL: boolean): boolean {
  if (read.length !== spelt.length) return false;
  return [...read].every(
    (ch, i) =>
      ch === spelt[i] || SAME_SHAPE.has(ch.toLowerCase()) || (capitalL && ch === 'l' && spelt[i] === 'L'),
  );
}

/** Every spelling one look-alike swap away. */
export function swaps(text: string, lookalikes: ReadonlyArray<readonly [string, string]>): string[] {
  const out: string[] = [];
  for (const [from, to] of lookalikes) {
    for (let i = text.indexOf(from); i >= 0; i = text.indexOf(from, i + 1))
      out.push(text.slice(0, i) + to + text.slice(i + from.length));
  }
  return out;
}
