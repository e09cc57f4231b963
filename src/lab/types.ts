import type { LoincMatchType, UcumMatchMethod } from '../terminology/types.js';

/** The supported vendors (SPEC.md B: "two supported laboratory vendors"). */
export type Vendor = 'quest' | 'labcorp';

export interface VendorDetection {
  vendor: Vendor | null;
  /** The laboratory name found in the document, or null when none was found. */
  labName: string | null;
  /** Pages carrying each supported vendor's signature (footer, letterhead, performing site ...). */
  signatures?: Record<Vendor, number>;
}

/**
 * Why a document was rejected, for a person: one sentence (`rejection_detail`) and the evidence behind it
 * (`--explain`): counts and names of laboratories only, never text of the document that could carry PHI.
 */
export interface RejectionExplained {
  rejection_detail: string;
  rejection_evidence: string[];
}

/** One result row as printed, before terminology: what the vendor parser reads off the page. */
export interface ParsedRow {
  biomarker: string;
  resultValue: string | null;
  resultUnit: string | null;
  referenceRangeText: string | null;
  /** H, L, A, High, Low, Abnormal ... as printed, kept out of resultValue. */
  flag: string | null;
  pageNumber: number;
  /** Read by OCR: whether a look-alike character was repaired, and the reader's lowest confidence. */
  ocr?: { repaired: boolean; confidence: number | null };
  /** The laboratory prints this test's ranges as a block under it (`Reference Range:` and a line each). */
  rangeBlockBelow?: boolean;
  /** Where the row is printed (the lines it was read from); absent when the layout gives no geometry. */
  bbox?: RowBox;
  /** Given once the rows are final (parse-report.ts): see PanelResult.id. */
  id?: string;
  /** The row's warnings, once the rows are final: see PanelResult.doubts. */
  doubts?: RowDoubt[];
}

export interface ParsedPanel {
  panelName: string;
  pageNumber: number;
  rows: ParsedRow[];
  /** No heading was printed above its first row: named after that row while it is read. */
  untitled?: boolean;
}

export interface MergeAction {
  action: 'merge_continued_panel';
  panelName: string;
  panelCode: string;
  fromPage: number;
  intoPage: number;
  resultCount: number;
}

export interface ValidationFlag {
  code: string;
  severity: 'info' | 'warning' | 'error';
  message: string;
  pageNumber?: number;
  /** Ours: the id of the result row the flag is about (PanelResult.id), when it is about one. */
  resultId?: string;
}

/** SPEC.md B3 PanelResult. */
export interface PanelResult {
  biomarker: string;
  resultValue: string | null;
  resultType: 'numeric' | 'string' | 'range';
  resultUnit: string | null;
  loincCode: string | null;
  loincMatchType: LoincMatchType | null;
  ucumCode: string | null;
  ucumMatchMethod: UcumMatchMethod | null;
  minRefRangeValue: number | null;
  maxRefRangeValue: number | null;
  referenceRangeText: string | null;
  pageNumber: number | null;
  /**
   * The abnormal flag as printed (H, L, A, High, Low, Abnormal ...), or null: this project's addition,
   * read by the FHIR (interpretation) and CSV outputs.
   */
  flag?: string | null;
  /**
   * Ours, beyond SPEC.md B3: the row's id, stable for the same document ('p2-albumin-1': page, name, and
   * the how-manieth row of that name on the page), which validation flags and review revisions name.
   */
  id?: string;
  /** Ours: what extraction doubts about this row (the warnings of validationFlags); empty when nothing. */
  doubts?: RowDoubt[];
  /** Ours: where the row is printed, in PDF points from the page's top-left corner; null when unknown. */
  bbox?: RowBox | null;
}

/** One doubt about one result row: a validation flag's code and message. */
export interface RowDoubt {
  code: string;
  message: string;
}

/** A row's box on its page: PDF points, origin at the page's top-left corner, y downwards. */
export interface RowBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** SPEC.md B3 LabPanel. */
export interface LabPanel {
  panelName: string;
  panelCode: string;
  dateCollected: string;
  pageNumber: number;
  panelResults: PanelResult[];
}

/**
 * How much of what looked like results was read: rows read, and rows read plus lines that look like a
 * result (a name, a number, a unit or range) but were not read. A pipeline can refuse a partial extraction.
 */
export interface Coverage {
  resultsRead: number;
  resultLikeRows: number;
  /** resultsRead / resultLikeRows, to three decimals; 0 when nothing looked like a result. */
  ratio: number;
}

/**
 * SPEC.md B3 ExtractionResults without the job's id and status, which the job engine adds; `coverage` is
 * this project's addition.
 */
export interface ExtractionCore {
  labName: string | null;
  dateCollected: string | null;
  verification: { dobFound: boolean; dobMatches: boolean | null };
  panels: LabPanel[];
  mergeActions: MergeAction[];
  validationFlags: ValidationFlag[];
  coverage: Coverage;
}

/** SPEC.md B5. */
export type RejectionReason =
  | 'non_supported_lab'
  | 'non_english_document'
  | 'multiple_collection_dates'
  | 'non_us_document'
  | 'non_lab_document';
