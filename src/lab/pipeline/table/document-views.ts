/**
 * A document's line views and what the own readers make of them, computed once per layout. Validation
 * counts the own readers' rows (twice when the letterhead is read) and the parse reads the same tables:
 * each used to build the views and run the readers again, a fifth of the parse's time. Kept by the
 * layout object, so a layout no longer referenced takes its views with it.
 */
import type { DocumentLayout } from '../pdf/pdf-text.js';
import { withBareRanges } from './bracketed-ranges.js';
import { withGluedCellsCut } from './glued-cells.js';
import type { LineView } from './line.js';
import { viewLines } from './line-view.js';
import { type OwnReaderTables, readOwnTables } from './own-readers.js';
import { splitPercentAbsolute } from './percent-absolute.js';
import { withSideBySideApart } from './side-by-side.js';

export interface DocumentViews {
  pages: LineView[][];
  own: OwnReaderTables;
}

const kept = new WeakMap<DocumentLayout, DocumentViews>();

function build(layout: DocumentLayout): DocumentViews {
  const pages = layout.pages.map((page) =>
    withSideBySideApart(viewLines(page).map(withGluedCellsCut))
      .flatMap(splitPercentAbsolute)
      .map(withBareRanges),
  );
  return { pages, own: readOwnTables(pages) };
}

/** The views to look at, not to change: kept for the next reader of the same layout. */
export function documentViews(layout: DocumentLayout): DocumentViews {
  const found = kept.get(layout);
  if (found) return found;
  const views = build(layout);
  kept.set(layout, views);
  return views;
}

/**
 * The views for the parse, which changes the own readers' panels as it goes (codes stripped, OCR repairs,
 * row ids): handed over and forgotten, so a later reader of the layout starts from fresh ones.
 */
export function takeDocumentViews(layout: DocumentLayout): DocumentViews {
  const views = kept.get(layout) ?? build(layout);
  kept.delete(layout);
  return views;
}
