/**
 * Raised marks on text-layer lines (src/lab/pipeline/table/line-view.ts): a small mark set high just after
 * a name is a mark, kept apart from the cells; text a size smaller set a little high in a column of its
 * own is that column's cell (an Indian in-house layout prints its units so).
 */
import { describe, expect, it } from 'vitest';
import { buildLines, type TextItem } from '../../src/lab/pipeline/pdf/layout.js';
import type { PageLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { viewLines } from '../../src/lab/pipeline/table/line-view.js';

/** A text item at x on the baseline y (PDF points, y down), in a font of `size`. */
function item(str: string, x: number, y: number, size = 10): TextItem {
  return { str, x, y, width: str.length * size * 0.5, height: size, fontSize: size };
}

function page(items: TextItem[]): PageLayout {
  return { pageNumber: 1, width: 612, height: 792, items, lines: buildLines(items) };
}

describe('raised marks on a text layer', () => {
  it("keeps a site code set small and high right after a name apart from the line's cells", () => {
    const [view] = viewLines(page([item('Glucose', 40, 300), item('01', 76, 297, 6), item('87', 280, 300)]));
    expect(view?.cells.map((c) => c.text)).toEqual(['Glucose', '87']);
    expect(view?.raised).toEqual(['01']);
  });

  it('reads a unit a size smaller, set a little high in its own column, as a cell', () => {
    const [view] = viewLines(
      page([
        item('HEMOGLOBIN (HB)', 36, 300),
        item('15.6', 282, 300),
        item('13.5 - 18.5', 344, 300),
        item('gm/dL', 528, 298, 7.5),
      ]),
    );
    expect(view?.cells.map((c) => c.text)).toEqual(['HEMOGLOBIN (HB)', '15.6', '13.5 - 18.5', 'gm/dL']);
    expect(view?.raised).toEqual([]);
  });
});
