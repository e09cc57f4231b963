/**
 * One result, one row. A report printed from a results portal carries the vendor's own copy after the
 * portal's (Quest's "Enhanced PDF Report" appended as an appendix), and a page read without a header may
 * repeat rows of a table (a graphical summary). Rows repeated on a page that does not carry the vendor's
 * signature, and strict-mode rows repeating a table row, are dropped, so each result is reported once and
 * on the page of the vendor's own copy. Rows the vendor's copy lacks are kept: nothing is lost.
 */

import type { ParsedPanel, ParsedRow, Vendor } from '../../types.js';
import type { DocumentLayout } from '../pdf/pdf-text.js';
import { signaturesOn } from '../screen/vendor-detect.js';
import { sharesWord } from './words.js';

export function dropRepeatedCopies(
  panels: readonly ParsedPanel[],
  layout: DocumentLayout,
  vendor: Vendor | 'generic',
  strictRows: ReadonlySet<ParsedRow>,
): ParsedPanel[] {
  const own = vendor === 'generic' ? new Set<number>() : ownCopyPages(layout, vendor);
  const rows = panels.flatMap((panel) => panel.rows);
  const keepTableRow = (row: ParsedRow): boolean =>
    own.size === 0 || own.has(row.pageNumber) || !rows.some((o) => own.has(o.pageNumber) && same(row, o));
  // A strict-mode row gives way only to a table row that stays: when the table row is the portal's copy
  // and the strict row the vendor's, dropping both would lose the result.
  const keptTableRows = new Set(rows.filter((row) => !strictRows.has(row) && keepTableRow(row)));
  const keep = (row: ParsedRow): boolean =>
    strictRows.has(row) ? ![...keptTableRows].some((other) => same(row, other)) : keptTableRows.has(row);
  return panels
    .map((panel) => {
      const kept = panel.rows.filter(keep);
      return kept.length === panel.rows.length ? panel : restartAtFirstRow({ ...panel, rows: kept });
    })
    .filter((panel) => panel.rows.length > 0);
}

/** Pages that carry the vendor's signature, when some pages do not (a portal printout); else none. */
function ownCopyPages(layout: DocumentLayout, vendor: Vendor): Set<number> {
  const own = new Set(
    layout.pages.filter((page) => signaturesOn(page).has(vendor)).map((page) => page.pageNumber),
  );
  return own.size === layout.pages.length ? new Set() : own;
}

/** `copy` repeats `kept`: the same value, and the same name or the same unit and range under a similar name. */
function same(copy: ParsedRow, kept: ParsedRow): boolean {
  if (!sameValue(copy, kept)) return false;
  if (norm(copy.biomarker) === norm(kept.biomarker)) return true;
  return (
    norm(copy.resultUnit) === norm(kept.resultUnit) &&
    norm(copy.referenceRangeText) === norm(kept.referenceRangeText) &&
    sharesWord(copy.biomarker, kept.biomarker, 3)
  );
}

/**
 * Equal values; on a scan, also the kept copy's value with the decimal point this copy lost ("45" beside
 * 4.5): the portal's copy is set smaller than the vendor's, and points are the first thing a scan drops.
 * Never the other way round: a copy is not dropped for one that lost the point.
 */
function sameValue(copy: ParsedRow, kept: ParsedRow): boolean {
  const [x, y] = [norm(copy.resultValue), norm(kept.resultValue)];
  if (x === y) return true;
  if (copy.ocr === undefined || kept.ocr === undefined) return false;
  return !x.includes('.') && y.includes('.') && x === y.replace('.', '');
}

function norm(text: string | null): string {
  return (text ?? '').toUpperCase().replace(/[^A-Z0-9<>=.%/]+/g, '');
}

/** A panel whose first rows were dropped starts where its first remaining row is printed. */
function restartAtFirstRow(panel: ParsedPanel): ParsedPanel {
  const first = panel.rows[0];
  return first && first.pageNumber > panel.pageNumber ? { ...panel, pageNumber: first.pageNumber } : panel;
}
