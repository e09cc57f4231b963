import { ocrLines } from '../../../src/lab/pipeline/ocr/hocr-page.js';
import { buildLines, type TextItem } from '../../../src/lab/pipeline/pdf/layout.js';
import type { DocumentLayout, PageLayout } from '../../../src/lab/pipeline/pdf/pdf-text.js';
import type { LineView } from '../../../src/lab/pipeline/table/line.js';

/** Cells of one line: [x, text] or [x, text, fontSize]. */
export type CellSpec = [number, string] | [number, string, number];

/** One printed line of cells at baseline y; glyphs half their font size wide. */
export function line(y: number, ...cells: CellSpec[]): TextItem[] {
  return cells.map(([x, str, size = 9]) => ({
    str,
    x,
    y,
    width: str.length * size * 0.5,
    height: size,
    fontSize: size,
  }));
}

/** A line as OCR gives it: each word an item with a confidence, so the scan-only rules apply. */
export function scanned(y: number, ...cells: CellSpec[]): TextItem[] {
  return line(y, ...cells).map((item) => ({ ...item, confidence: 95 }));
}

/** A small mark printed above the baseline of the line at y (Labcorp's performing-lab code). */
export function raised(x: number, y: number, str: string): TextItem {
  return { str, x, y: y - 2, width: str.length * 3, height: 5.5, fontSize: 5.5 };
}

export function page(pageNumber: number, ...lines: Array<TextItem[] | TextItem>): PageLayout {
  const items = lines.flat();
  return { pageNumber, width: 612, height: 792, items, lines: buildLines(items) };
}

/**
 * A page whose lines are built as a scan's reading builds them (ocr/hocr-page.ts), where ranges a scan
 * split or lost the dash of are put back together.
 */
export function ocrPage(pageNumber: number, ...lines: Array<TextItem[] | TextItem>): PageLayout {
  const built = page(pageNumber, ...lines);
  return { ...built, lines: ocrLines(built.items) };
}

export const doc = (...pages: PageLayout[]): DocumentLayout => ({ pages, hasTextLayer: true });

/** One line as the table readers see it: cells at [x, text], no font, no raised marks. */
export function lineView(...cells: Array<[number, string]>): LineView {
  return { pageNumber: 1, y: 100, font: 9, raised: [], cells: cells.map(([x, text]) => ({ x, text })) };
}

/** The same document as a layout rebuilt without text items (no font sizes, no raised marks). */
export function withoutItems(layout: DocumentLayout): DocumentLayout {
  return { ...layout, pages: layout.pages.map((p) => ({ ...p, items: [] })) };
}
