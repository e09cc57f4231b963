/**
 * Rows read by OCR, put right against the catalogues once the table is read:
 *
 * - test names misread by a look-alike character ("Hemoglobin Alc" for A1c, "AIG Ratio" for A/G), where
 *   exactly one single-character swap gives a name the LOINC catalogue knows by its exact spelling, or
 *   with a footnote mark read into their last letter ("Phosphatase7"); each such row is flagged with its
 *   page;
 * - units the catalogue does not know that one look-alike swap makes known ("jul" for "/ul", "AIU/mL"),
 *   or, when the catalogue gives no reading, that the unit normaliser's rules know ("cellsfcumm" for
 *   "cells/cumm"), or "%" with a speck read after it ("%o"); each such row is flagged with its page;
 * - units the unit catalogue knows but for case and spacing ("X10E 3/uL", "Pg"), written as the catalogue
 *   spells them. The catalogue matches units without case or spaces, so the unit and its UCUM code are
 *   the same before and after: nothing is guessed, and nothing is flagged;
 * - Quest's bounds "< OR = 5" given back the spaces OCR loses between their narrow parts.
 *
 * Rows read from a text layer are never touched.
 */
import { loincCatalogue } from '../../../terminology/loinc-catalogue.js';
import { normaliseUnit } from '../../../terminology/ucum.js';
import { staticMapEntries, unitKey } from '../../../terminology/ucum-static-map.js';
import type { ParsedPanel, ParsedRow, ValidationFlag } from '../../types.js';
import { parseReferenceRange } from '../results/ranges.js';
import { nearestPrintedName } from './ocr-names.js';

export function repairOcrRows(panels: readonly ParsedPanel[]): ValidationFlag[] {
  // Names first: a unit's repair may rest on what the test is (percentReading).
  const names = repairNames(panels);
  const flags = repairUnits(panels);
  spellUnits(panels);
  spaceBounds(panels);
  return [...flags, ...names];
}

/** Quest's "< OR = 5", which OCR reads with its narrow spaces lost ("<OR =5"). */
const OR_EQUAL = /^([<>])\s*(or)\s*=\s*(?=\d)/i;

function spaceBounds(panels: readonly ParsedPanel[]): void {
  for (const row of panels.flatMap((panel) => panel.rows)) {
    if (row.ocr && row.referenceRangeText !== null)
      row.referenceRangeText = row.referenceRangeText.replace(OR_EQUAL, '$1 $2 = ');
  }
}

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
];

const DEGREE_POWER = /°(?=\d)/g;

/** "%o", "%0", "%." for "%": a speck or the cell's rule read after the sign. */
const PERCENT_SPECK = /^%[o0°.,'`’]$/;

/** What tesseract makes of a per cent sign set in a bold or small face: "Yo", "Jo", "*o", "°o", "9%". */
const PERCENT_LOOKALIKE = /^(?:[YyJj*°]o|9%|%%)$/;

/** A mark after the unit: the cell's rule or a speck ("9%,", "of,"). */
const TRAILING_MARK = /[,.'`’]+$/;

/**
 * "%" for a per-cent look-alike, only on a row whose value and both bounds of its range are percentages
 * (0 to 100): the shape alone is no proof, the row's numbers make it one. A sign read as one or two
 * letters no unit is ("My", "of") is taken for one only on a test the catalogue knows as reported in per
 * cent (Lymphocytes, Polymorphs), with the same numbers.
 */
function percentReading(row: ParsedRow): string | null {
  const read = (row.resultUnit ?? '').replace(/\s+/g, '').replace(TRAILING_MARK, '');
  if (!PERCENT_LOOKALIKE.test(read) && !(read.length <= 2 && reportedInPercent(row.biomarker))) return null;
  const { min, max } = parseReferenceRange(row.referenceRangeText);
  const value = Number(row.resultValue);
  if (min === null || max === null || !Number.isFinite(value) || row.resultValue === null) return null;
  return [value, min, max].every((n) => n >= 0 && n <= 100) ? '%' : null;
}

/**
 * A unit the catalogue does not know, read across words ("x1OE 3/uL", "ulU/mL", "/npf", "jul"), becomes the
 * one unit it knows that a single look-alike swap gives; none or several: left as read. "%o" is "%" with a
 * speck read after it. Flagged.
 */
function repairUnits(panels: readonly ParsedPanel[]): ValidationFlag[] {
  const flags: ValidationFlag[] = [];
  for (const row of panels.flatMap((panel) => panel.rows)) {
    if (!row.ocr || row.resultUnit === null || isCatalogued(row.resultUnit)) continue;
    const reading = unitReading(row.resultUnit) ?? percentReading(row);
    if (reading === null) continue;
    row.resultUnit = reading;
    row.ocr.repaired = true;
    flags.push(repairFlag(`The unit of ${row.biomarker}`, row.pageNumber));
  }
  return flags;
}

/** The test the name usually means is reported in per cent. */
function reportedInPercent(name: string): boolean {
  return loincCatalogue().lookupName(name)[0]?.exampleUcum === '%';
}

function isCatalogued(unit: string): boolean {
  spellings ??= new Map(staticMapEntries().map((e) => [unitKey(e.printed), e.printed]));
  return spellings.has(unitKey(unit));
}

/** The unit's normaliser knows it, by the catalogue or by its rules for counts ("cells/cumm"). */
function isKnownUnit(unit: string): boolean {
  return isCatalogued(unit) || normaliseUnit(unit).ucumMatchMethod !== 'not_found';
}

/**
 * The one known unit a look-alike swap makes of an OCR'd unit: one the catalogue spells, else (when the
 * catalogue gives none) one the normaliser's rules know; none or several: null.
 */
export function unitReading(unit: string): string | null {
  const read = unit.replace(/\s+/g, '');
  if (PERCENT_SPECK.test(read)) return '%';
  // A degree sign before a digit is a caret ("10°9/l"): no unit prints one there (°C has a letter).
  const printed = unit.trim().replace(DEGREE_POWER, '^');
  // Swapped as printed, spaces kept ("Lakhs /omm" is "Lakhs /cmm"); the catalogue matches without them.
  const candidates = [
    ...(printed !== unit.trim() ? [printed] : []),
    ...swaps(printed, UNIT_LOOKALIKES),
    ...slashesLost(read),
  ];
  let readings = candidates.filter(isCatalogued);
  if (readings.length === 0) readings = candidates.filter(isKnownUnit);
  const [reading] = readings;
  if (reading === undefined || new Set(readings.map(unitKey)).size !== 1) return null;
  return reading;
}

/**
 * "milcumm" for "mill/cumm": a slash lost between two letters of a unit that has none. Every place is
 * tried; unitReading keeps the result only where exactly one known unit comes of it.
 */
function slashesLost(read: string): string[] {
  if (read.includes('/') || !/^\p{L}{6,}$/u.test(read)) return [];
  return [...read].slice(1).map((_, i) => `${read.slice(0, i + 1)}/${read.slice(i + 1)}`);
}

/**
 * A unit wrapped onto the next line ("cellsfcum" + "m"): the two read as one make a known unit (as read or
 * by one look-alike swap), the first alone does not.
 */
export function joinsUnit(unit: string, fragment: string): boolean {
  const known = (text: string) => isKnownUnit(text) || unitReading(text) !== null;
  return !known(unit) && known(`${unit}${fragment}`);
}

function repairFlag(what: string, pageNumber: number): ValidationFlag {
  return {
    code: 'ocr_repaired',
    severity: 'warning',
    message: `${what} was repaired from an OCR misreading`,
    pageNumber,
  };
}

let spellings: Map<string, string> | undefined;

/** Letters whose capital is their small letter enlarged, which OCR tells apart by size alone. */
const SAME_SHAPE = new Set('cosuvwxzkp');

/**
 * A small l where the catalogue spells L ("fl", "g/dl") is respelt only on a document whose units read
 * elsewhere show the capital ("mg/dL", "fL"): there the laboratory prints L, and tesseract, which leans to
 * a small letter after small ones, lost it. A laboratory that prints "fl" and "g/dl" throughout (common in
 * India and Pakistan) shows no capital L, and its units stay as read.
 */
function spellUnits(panels: readonly ParsedPanel[]): void {
  spellings ??= new Map(staticMapEntries().map((e) => [unitKey(e.printed), e.printed]));
  const rows = panels.flatMap((panel) => panel.rows).filter((row) => row.ocr && row.resultUnit !== null);
  const capitalL = rows.some((row) => /[a-z/]L/.test(row.resultUnit ?? ''));
  for (const row of rows) {
    const unit = row.resultUnit as string;
    const spelt = spellings.get(unitKey(unit));
    if (spelt && sameShape(unit.replace(/\s+/g, ''), spelt, capitalL)) row.resultUnit = spelt;
  }
}

/** Equal but for the case of same-shape letters: "X10E3/uL" is "x10E3/uL"; "MG/DL" stays as printed. */
function sameShape(read: string, spelt: string, capitalL: boolean): boolean {
  if (read.length !== spelt.length) return false;
  return [...read].every(
    (ch, i) =>
      ch === spelt[i] || SAME_SHAPE.has(ch.toLowerCase()) || (capitalL && ch === 'l' && spelt[i] === 'L'),
  );
}

/** Characters OCR confuses in names: one occurrence swapped at a time. */
const NAME_LOOKALIKES: ReadonlyArray<readonly [string, string]> = [
  ['l', '1'],
  ['I', '1'],
  ['I', '/'],
  ['1', 'l'],
  ['O', '0'],
  ['0', 'O'],
  ['J', 'l'],
  // Initials of a dotted abbreviation read as their look-alikes ("W.6.C.", "M.P.¥.").
  ['6', 'B'],
  ['8', 'B'],
  ['¥', 'V'],
];

function repairNames(panels: readonly ParsedPanel[]): ValidationFlag[] {
  const catalogue = loincCatalogue();
  const known = (name: string) => catalogue.lookupName(name).length > 0;
  const flags: ValidationFlag[] = [];
  for (const panel of panels) {
    for (const row of panel.rows) {
      if (!row.ocr || known(row.biomarker)) continue;
      const unmarked = withoutGluedMark(row.biomarker);
      const readings = new Set(
        unmarked !== null && known(unmarked)
          ? [unmarked]
          : swaps(row.biomarker, NAME_LOOKALIKES).filter(known),
      );
      const nearest = readings.size === 0 ? nearestPrintedName(row.biomarker) : null;
      if (nearest !== null) readings.add(nearest);
      if (readings.size !== 1) continue;
      const [repaired] = readings as Set<string>;
      if (panel.panelName === row.biomarker) panel.panelName = repaired as string;
      row.biomarker = repaired as string;
      // The name is a guess like a repaired unit: the row carries the doubt (doubts.ts).
      row.ocr.repaired = true;
      flags.push(repairFlag(`The name ${row.biomarker}`, row.pageNumber));
    }
  }
  return flags;
}

/** A footnote mark read into the name's last letter ("Phosphatase7", "25-Hydroxy”"). */
const GLUED_MARK = /(?<=\p{L})[\d"'\u201c\u201d*%]{1,2}$/u;

function withoutGluedMark(name: string): string | null {
  return GLUED_MARK.test(name) ? name.replace(GLUED_MARK, '') : null;
}

/** Every spelling one look-alike swap away. */
function swaps(text: string, lookalikes: ReadonlyArray<readonly [string, string]>): string[] {
  const out: string[] = [];
  for (const [from, to] of lookalikes) {
    for (let i = text.indexOf(from); i >= 0; i = text.indexOf(from, i + 1))
      out.push(text.slice(0, i) + to + text.slice(i + from.length));
  }
  return out;
}
