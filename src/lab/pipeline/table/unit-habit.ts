/**
 * A laboratory prints one unit one way: AST, ALT and ALP all in `IU/L`, or all in `U/L`. On a scan, a unit
 * one character short of (or longer than) the spelling the same page's other tests of that unit carry
 * (`U/L` for ALP beside AST and ALT in `IU/L`) is likelier a letter lost or gained than the laboratory's
 * habit, though it reads as a valid unit and no repair touches it. Such rows are doubted. Spellings further
 * apart are other units a name shares its usual one with (urine `/HPF` beside the blood count's
 * `Thousand/uL`, `% of total Hgb` beside `%`), and where the spellings are even neither is the odd one.
 */
import { distance } from 'fastest-levenshtein';
import type { ParsedRow } from '../../types.js';
import { usualUcum } from './ocr-units.js';

/** The odd spelling needs at least this many rows of the page's own spelling against it. */
const HABIT_ROWS = 2;

/** OCR'd rows whose unit is spelt unlike the page's other tests usually reported in the same unit. */
export function unitOutliers(rows: readonly ParsedRow[]): Set<ParsedRow> {
  const byUsual = new Map<string, ParsedRow[]>();
  for (const row of rows) {
    const usual = row.ocr && row.resultUnit ? usualUcum(row.biomarker) : null;
    if (!usual) continue;
    const key = `${row.pageNumber} ${usual}`;
    const group = byUsual.get(key);
    if (group) group.push(row);
    else byUsual.set(key, [row]);
  }
  const odd = new Set<ParsedRow>();
  for (const group of byUsual.values()) {
    const spellings = new Map<string, ParsedRow[]>();
    for (const row of group) {
      const spelt = (row.resultUnit as string).replace(/\s+/g, '');
      const alike = spellings.get(spelt);
      if (alike) alike.push(row);
      else spellings.set(spelt, [row]);
    }
    if (spellings.size < 2) continue;
    const [habit, habitRows] = [...spellings].reduce((a, b) => (b[1].length > a[1].length ? b : a));
    if (habitRows.length < HABIT_ROWS) continue;
    for (const [spelt, rows] of spellings)
      if (rows.length === 1 && oneCharacterApart(spelt, habit)) odd.add(rows[0] as ParsedRow);
  }
  return odd;
}

/** One spelling is the other with one character more. */
function oneCharacterApart(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) === 1 && distance(a, b) === 1;
}
