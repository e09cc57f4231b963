/**
 * What a row read from OCR'd cells carries for its doubts (doubts.ts): whether a word was repaired from a
 * look-alike, and the least sure word's confidence. Every reader that builds rows from cells gives it, so
 * that a row read by a layout's own reader (a band table, a titre grid) is doubted as the general reader's
 * rows are: a Boston Heart report printed as a scan read `101` as `109`, and `0.4` as `94` with no unit,
 * without a doubt, because its band-table rows carried no OCR reading at all.
 */
import type { ParsedRow } from '../../types.js';
import type { Cell } from '../pdf/layout.js';

/** The OCR reading of the cells a row was read from; undefined for cells of a text layer. */
export function ocrReadingOf(cells: readonly Cell[]): ParsedRow['ocr'] {
  const read = cells.filter((cell) => cell.confidence !== undefined);
  if (read.length === 0) return undefined;
  return {
    repaired: read.some((cell) => cell.repaired === true),
    confidence: Math.min(...read.map((cell) => cell.confidence as number)),
  };
}
