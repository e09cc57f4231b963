/**
 * Rows read by OCR, put right against the catalogues once the table is read:
 *
 * - test names misread by a look-alike character ("Hemoglobin Alc" for A1c, "AIG Ratio" for A/G), where
 *   exactly one single-character swap gives a name the LOINC catalogue knows by its exact spelling, or
 *   with a footnote mark read into their last letter ("Phosphatase7"); each such row is flagged with its
 *   page;
 * - long names with a word no laboratory prints, read as the one printed name an edit or two away
 *   (ocr-names.ts); flagged;
 * - units the catalogue does not know that one look-alike swap makes known ("jul" for "/ul", "AIU/mL"),
 *   or, when the catalogue gives no reading, that the unit normaliser's rules know ("cellsfcumm" for
 *   "cells/cumm"), or "%" read as a look-alike on a row of per cent numbers; a unit nothing knows
 *   ("meg/db") read as the nearest of the units the document prints elsewhere and the test's usual unit
 *   (ocr-units.ts); flagged, but for the laboratory's own spelling of the test's usual unit one edit away;
 * - units the unit catalogue knows but for case and spacing ("X10E 3/uL", "Pg"), written as the catalogue
 *   spells them. The catalogue matches units without case or spaces, so the unit and its UCUM code are
 *   the same before and after: nothing is guessed, and nothing is flagged;
 * - Quest's bounds "< OR = 5" given back the spaces OCR loses between their narrow parts, a dash spaced on
 *   one side only ("8.5- 10.5") spaced on both, and a range whose dash was lost ("1.54.5") split into
 *   its bounds (flagged).
 *
 * Rows read from a text layer are never touched.
 */
import { loincCatalogue } from '../../../terminology/loinc-catalogue.js';
import type { ParsedPanel, ValidationFlag } from '../../types.js';
import { nearestPrintedName } from './ocr-names.js';
import {
  isCatalogued,
  isKnownUnit,
  nearestExpectedUnit,
  percentReading,
  spellUnits,
  swaps,
  unitReading,
  usualUcum,
} from './ocr-units.js';
import { ofAnotherKind } from './unit-kind.js';

export function repairOcrRows(panels: readonly ParsedPanel[]): ValidationFlag[] {
  // Names first: a unit's repair may rest on what the test is (percentReading).
  const names = repairNames(panels);
  const flags = repairUnits(panels);
  spellUnits(panels);
  spaceBounds(panels);
  return [...flags, ...repairDashes(panels), ...names];
}

/** Quest's "< OR = 5", which OCR reads with its narrow spaces lost ("<OR =5"). */
const OR_EQUAL = /^([<>])\s*(or)\s*=\s*(?=\d)/i;

/**
 * "8.5- 10.5": a dash spaced on one side only. Ranges are printed spaced on both sides or on neither; OCR
 * keeps the wider gap and closes the narrower, so one-sided spacing is a dash spaced on both.
 */
const ONE_SIDED_DASH = /^(\d+(?:\.\d+)?)(?:-\s+|\s+-)(\d+(?:\.\d+)?)$/;

function spaceBounds(panels: readonly ParsedPanel[]): void {
  for (const row of panels.flatMap((panel) => panel.rows)) {
    if (row.ocr && row.referenceRangeText !== null)
      row.referenceRangeText = row.referenceRangeText
        .replace(OR_EQUAL, '$1 $2 = ')
        .replace(ONE_SIDED_DASH, '$1 - $2');
  }
}

/** Two decimal numbers run together where the dash between them was lost ("1.54.5" for 1.5-4.5). */
const DASH_LOST = /^(\d+)\.(\d+)\.(\d+)$/;

/**
 * A range read as one number with two decimal points: the dash between its bounds was lost. Labs print
 * both bounds to the same places, so the second bound's decimals say where the first ends ("4.56.2" is
 * 4.5-6.2, "0.1000.500" is 0.100-0.500); kept only when the low bound is below the high one. Flagged.
 */
function repairDashes(panels: readonly ParsedPanel[]): ValidationFlag[] {
  const flags: ValidationFlag[] = [];
  for (const row of panels.flatMap((panel) => panel.rows)) {
    const range = row.ocr ? lostDash(row.referenceRangeText ?? '') : null;
    if (!range || !row.ocr) continue;
    row.referenceRangeText = range;
    row.ocr.repaired = true;
    flags.push(repairFlag(`The range of ${row.biomarker}`, row.pageNumber));
  }
  return flags;
}

export function lostDash(text: string): string | null {
  const match = DASH_LOST.exec(text.trim());
  if (!match) return null;
  const [, whole = '', middle = '', places = ''] = match;
  if (middle.length <= places.length) return null;
  const low = `${whole}.${middle.slice(0, places.length)}`;
  const high = `${middle.slice(places.length)}.${places}`;
  return Number(low) < Number(high) ? `${low}-${high}` : null;
}

/**
 * A unit the catalogue does not know, read across words ("x1OE 3/uL", "ulU/mL", "/npf", "jul"), becomes the
 * one unit it knows that a single look-alike swap gives; "%o" is "%" with a speck read after it. A unit no
 * rule knows at all ("meg/db") becomes the unit nearest it of those the row can mean (nearestExpectedUnit).
 * None or several: left as read. Flagged.
 */
function repairUnits(panels: readonly ParsedPanel[]): ValidationFlag[] {
  const flags: ValidationFlag[] = [];
  const rows = panels.flatMap((panel) => panel.rows);
  // Each row's usual unit looked up once per document, not once per garbled unit.
  const documentUnits = rows.flatMap((row) =>
    row.resultUnit !== null && isCatalogued(row.resultUnit)
      ? [{ unit: row.resultUnit, usual: usualUcum(row.biomarker) }]
      : [],
  );
  for (const row of rows) {
    if (!row.ocr || row.resultUnit === null || isCatalogued(row.resultUnit)) continue;
    const unit = row.resultUnit;
    // A swap that makes a unit of another kind than the test ("gid" -> g/d, grams a day, for
    // haemoglobin) is no reading of it: the nearest unit the row can mean is tried instead.
    const swap = unitReading(unit);
    const swapped =
      (swap !== null && ofAnotherKind(swap, row.biomarker) ? null : swap) ?? percentReading(row);
    const nearest =
      swapped === null && !isKnownUnit(unit) ? nearestExpectedUnit(unit, row.biomarker, documentUnits) : null;
    const reading = swapped ?? nearest?.unit ?? null;
    if (reading === null) continue;
    row.resultUnit = reading;
    if (nearest?.confirmed) continue;
    row.ocr.repaired = true;
    flags.push(repairFlag(`The unit of ${row.biomarker}`, row.pageNumber));
  }
  return flags;
}

function repairFlag(what: string, pageNumber: number): ValidationFlag {
  return {
    code: 'ocr_repaired',
    severity: 'warning',
    message: `${what} was repaired from an OCR misreading`,
    pageNumber,
  };
}

/** Characters OCR confuses in names: one occurrence swapped at a time. */
const NAME_LOOKALIKES: ReadonlyArray<readonly [string, string]> = [
  ['l', '1'],
  ['I', '1'],
  ['i', '1'],
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
