/**
 * One result, one row. A report printed from a results portal carries the vendor's own copy after the
 * portal's (Quest's "Enhanced PDF Report" appended as an appendix), and a page read without a header may
 * repeat rows of a table (a graphical summary). Rows repeated on a page that does not carry the vendor's
 * signature, and strict-mode rows repeating a table row, are dropped, so each result is reported once and
 * on the page of the vendor's own copy. Rows the vendor's copy lacks are kept: nothing is lost.
 */
import type { DocumentLayout } from '../pdf-text.js';
import type { ParsedPanel, ParsedRow, Vendor } from '../types.js';
import { signaturesOn } from '../vendor-detect.js';
import { sharesWord } from './words.js';

export function dropRepeatedCopies(
  panels: readonly ParsedPanel[],
  layout: DocumentLayout,
  vendor: Vendor | 'generic',
  strictRows: ReadonlySet<ParsedRow>,
): ParsedPanel[] {
  const own = vendor === 'generic' ? new Set<number>() : ownCopyPages(layout, vendor);
  const rows = panels.flatMap((panel) => panel.rows);
  const keep = (row: ParsedRow): boolean => {
    if (strictRows.has(row))
      return !rows.some((other) => other !== row && !strictRows.has(other) && same(row, other));
    if (own.size === 0 || own.has(row.pageNumber)) return true;
    return !rows.some((other) => own.has(other.pageNumber) && same(row, other));
  };
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

/** The same result: the same value, and the same name or the same unit and range under a similar name. */
function same(a: ParsedRow, b: ParsedRow): boolean {
  if (norm(a.resultValue) !== norm(b.resultValue)) return false;
  if (norm(a.biomarker) === norm(b.biomarker)) return true;
  return (
    norm(a.resultUnit) === norm(b.resultUnit) &&
    norm(a.referenceRangeText) === norm(b.referenceRangeText) &&
    sharesWord(a.biomarker, b.biomarker, 3)
  );
}

function norm(text: string | null): string {
  return (text ?? '').toUpperCase().replace(/[^A-Z0-9<>=.%/]+/g, '');
}

/** A panel whose first rows were dropped starts where its first remaining row is printed. */
function restartAtFirstRow(panel: ParsedPanel): ParsedPanel {
  const first = panel.rows[0];
  return first && first.pageNumber > panel.pageNumber ? { ...panel, pageNumber: first.pageNumber } : panel;
}
