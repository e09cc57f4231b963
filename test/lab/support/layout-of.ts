import { buildLines, type TextItem } from '../../../src/lab/pipeline/pdf/layout.js';
import type { DocumentLayout } from '../../../src/lab/pipeline/pdf/pdf-text.js';

/**
 * A one-page layout made by hand: each row is a line of cells, rows 12 pt apart from y = 40 down, cells
 * `columnGap` pt apart from x = 36. Glyphs are `charWidth` wide and `fontSize` tall.
 */
export function layoutOf(
  rows: string[][],
  opts: { columnGap: number; charWidth?: number; fontSize?: number },
): DocumentLayout {
  const fontSize = opts.fontSize ?? 8;
  const items: TextItem[] = rows.flatMap((cells, r) =>
    cells.map((str, c) => ({
      str,
      x: 36 + c * opts.columnGap,
      y: 40 + r * 12,
      width: str.length * (opts.charWidth ?? 4),
      height: fontSize,
      fontSize,
    })),
  );
  return {
    pages: [{ pageNumber: 1, width: 612, height: 792, items, lines: buildLines(items) }],
    hasTextLayer: true,
  };
}
