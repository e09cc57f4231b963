import { describe, expect, it } from 'vitest';
import { alignDriftingColumns, pageDrifts } from '../../src/lab/pipeline/ocr/drift.js';
import type { HocrPage } from '../../src/lab/pipeline/ocr/hocr.js';
import type { TextItem } from '../../src/lab/pipeline/pdf/layout.js';

const item = (str: string, x: number, y: number): TextItem => ({
  str,
  x,
  y,
  width: str.length * 4,
  height: 8,
  fontSize: 8,
});

const NAMES = [
  'Haemoglobin',
  'WBC',
  'Neutrophils',
  'Lymphocytes',
  'Monocytes',
  'Eosinophils',
  'RBC',
  'PCV',
  'MCV',
  'MCH',
];
const VALUES = ['13.9', '5.9', '57', '34', '05', '04', '4.91', '42.5', '86.6', '28.3'];

/**
 * A photographed table: names 12 pt apart under a heading, values `pitch` apart, in register with the
 * names halfway down (where the page's slant, taken out, leaves a photo's table).
 */
function photo(pitch: number): TextItem[] {
  return [
    item('Complete Blood Count', 40, 100),
    ...NAMES.map((name, i) => item(name, 40, 112 + 12 * i)),
    ...VALUES.map((value, i) => item(value, 200, 166 + pitch * (i - 4.5))),
  ];
}

const rowOf = (items: readonly TextItem[], str: string): number | undefined =>
  items.find((i) => i.str === str)?.y;

describe('columns of a photographed table that drift apart', () => {
  it("puts each value on its own name's row, not the row above it under a heading", () => {
    const aligned = alignDriftingColumns(photo(10.7));
    expect(aligned).not.toBeNull();
    const items = aligned ?? [];
    for (const [i, value] of VALUES.entries())
      expect(rowOf(items, value)).toBe(rowOf(items, NAMES[i] as string));
  });

  it('moves nothing where the columns keep one pitch', () => {
    expect(alignDriftingColumns(photo(12))).toBeNull();
  });

  /** The same table as tesseract's words, in pixels, rows `pitch` apart in the value column. */
  function hocrPage(pitch: number): HocrPage {
    const word = (text: string, left: number, bottom: number) => ({
      box: { left, top: bottom - 40, right: left + 25 * text.length, bottom },
      chars: [...text].map((ch, i) => ({
        text: ch,
        box: { left: left + 25 * i, top: bottom - 40, right: left + 25 * i + 22, bottom },
        conf: 95,
      })),
    });
    const line = (words: ReturnType<typeof word>[]) => {
      const left = Math.min(...words.map((w) => w.box.left));
      const bottom = Math.max(...words.map((w) => w.box.bottom));
      return {
        box: { left, top: bottom - 40, right: Math.max(...words.map((w) => w.box.right)), bottom },
        size: 40,
        baselineAt: () => bottom,
        words,
      };
    };
    // tesseract joins each name to the value beside it, whichever row that value was printed on.
    const lines = NAMES.map((name, i) =>
      line([word(name, 100, 500 + 57 * i), word(VALUES[i] as string, 1000, 500 + pitch * i)]),
    );
    return { width: 2550, height: 3300, lines };
  }

  it("sees the drift on the words' own boxes", () => {
    expect(pageDrifts(hocrPage(51))).toBe(true);
    expect(pageDrifts(hocrPage(57))).toBe(false);
    // 2% apart, as flat scans measure: the last row is still beside its name.
    expect(pageDrifts(hocrPage(56))).toBe(false);
  });
});
