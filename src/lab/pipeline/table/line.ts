import type { Cell } from '../pdf/layout.js';

/** One printed line of a page as the table reader sees it (built by line-view.ts). */
export interface LineView {
  pageNumber: number;
  y: number;
  cells: Cell[];
  /** Size of the line's largest text; null when the layout carries no text items (e.g. rebuilt by OCR). */
  font: number | null;
  /** Text of small marks printed above the baseline, in reading order. */
  raised: string[];
}
