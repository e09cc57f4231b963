/**
 * What the review page reads: every row of the extraction as extracted and as reviewed, doubtful rows
 * first, with the revision log. Built from the original and the revisions each time, so the page never
 * holds a state the files or blobs do not.
 */
import type { RowBox, RowDoubt } from '../lab/types.js';
import { REVIEW_DPI } from './page-image.js';
import type { ReviewDoc } from './review-doc.js';
import {
  type AnyResult,
  applyRevisions,
  type ReviewedPanelResult,
  type Revision,
  type RowReview,
  withRowIds,
} from './revisions.js';

export interface ReviewRow {
  id: string;
  panelName: string;
  page: number | null;
  biomarker: string;
  resultValue: string | null;
  resultUnit: string | null;
  referenceRangeText: string | null;
  flag: string | null;
  loincCode: string | null;
  ucumCode: string | null;
  /** What extraction doubted about the row, kept after the doubt is resolved so the page can say so. */
  doubts: RowDoubt[];
  /** Doubts not answered by a review yet. */
  open: boolean;
  bbox: RowBox | null;
  reviewed: RowReview | null;
  removed: boolean;
}

export interface ReviewState {
  doc: { id: string; label: string; reviewedPath: string | null };
  /** The resolution page images are rendered at: a bbox in points times dpi/72 is pixels. */
  dpi: number;
  images: boolean;
  /** No PDF at hand, but the reviewer may give it (PUT .../api/pdf) to see the pages. */
  canAttachPdf: boolean;
  rows: ReviewRow[];
  revisions: Revision[];
}

export function reviewRows(original: AnyResult, revisions: readonly Revision[]): ReviewRow[] {
  const base = withRowIds(original);
  const reviewed = new Map<string, ReviewedPanelResult>();
  for (const panel of applyRevisions(base, revisions).panels)
    for (const row of panel.panelResults) reviewed.set(row.id ?? '', row);
  const rows = base.panels.flatMap((panel) =>
    panel.panelResults.map((extracted): ReviewRow => {
      const id = extracted.id ?? '';
      const now = reviewed.get(id);
      const row = now ?? extracted;
      const doubts = extracted.doubts ?? [];
      return {
        id,
        panelName: panel.panelName,
        page: row.pageNumber ?? row.bbox?.page ?? null,
        biomarker: row.biomarker,
        resultValue: row.resultValue,
        resultUnit: row.resultUnit,
        referenceRangeText: row.referenceRangeText,
        flag: row.flag ?? null,
        loincCode: row.loincCode,
        ucumCode: row.ucumCode,
        doubts,
        open: doubts.length > 0 && !now?.reviewed && now !== undefined,
        bbox: extracted.bbox ?? null,
        reviewed: now?.reviewed ?? null,
        removed: now === undefined,
      };
    }),
  );
  // Doubtful rows first, each group in document order; the order depends on the extraction alone, so
  // rows do not jump around while they are being reviewed.
  return [...rows.filter((r) => r.doubts.length > 0), ...rows.filter((r) => r.doubts.length === 0)];
}

export async function reviewState(doc: ReviewDoc): Promise<ReviewState> {
  const [original, revisions] = await Promise.all([doc.original(), doc.revisions()]);
  return {
    doc: { id: doc.id, label: doc.label, reviewedPath: doc.reviewedPath },
    dpi: REVIEW_DPI,
    images: doc.pdf !== null,
    canAttachPdf: doc.pdf === null && doc.attachPdf !== undefined,
    rows: reviewRows(original, revisions),
    revisions,
  };
}

/** The pages a review may show: those holding a row. Any other page number is not served. */
export function reviewPages(original: AnyResult): Set<number> {
  const pages = new Set<number>();
  for (const panel of original.panels)
    for (const row of panel.panelResults) {
      if (row.pageNumber) pages.add(row.pageNumber);
      if (row.bbox) pages.add(row.bbox.page);
    }
  return pages;
}
