import { describe, expect, it } from 'vitest';
import { buildLines, type TextItem } from '../../src/lab/pipeline/pdf/layout.js';

const item = (
  str: string,
  x: number,
  y: number,
  fontSize = 9,
  width = str.length * fontSize * 0.55,
): TextItem => ({
  str,
  x,
  y,
  width,
  height: fontSize,
  fontSize,
});

describe('buildLines', () => {
  /** An OCR'd word: a text item with the reader's confidence. */
  const read = (str: string, x: number, y: number, fontSize: number, width: number): TextItem => ({
    ...item(str, x, y, fontSize, width),
    confidence: 95,
  });

  it("splits a scan's two stacked lines (a name in display type, a slogan under it) that share a baseline band", () => {
    const lines = buildLines([
      read('Korvan', 60, 75, 20, 70),
      read('Diagnostics', 136, 75, 20, 120),
      read('Centre', 262, 75, 20, 70),
      read('Modern,', 140, 84, 7, 30),
      read('Reliable', 174, 84, 7, 30),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Korvan Diagnostics Centre', 'Modern, Reliable']);
  });

  it("never glues two OCR'd words that overlap, and leaves a text layer's overlapping pieces on one line", () => {
    const [ocr] = buildLines([read('LABORATOR', 100, 100, 12, 80), read('IES', 176, 101, 12, 30)]);
    expect(ocr?.text).toBe('LABORATOR IES');
    // A bold face faked by drawing the word twice, a hair apart.
    const bold = buildLines([item('GLUCOSE', 48, 100), item('GLUCOSE', 48.3, 100.2), item('89', 168, 100)]);
    expect(bold).toHaveLength(1);
  });

  it('groups items by baseline and orders lines top to bottom', () => {
    const lines = buildLines([item('SODIUM', 48, 120), item('GLUCOSE', 48, 100), item('89', 168, 100.4)]);
    expect(lines.map((l) => l.text)).toEqual(['GLUCOSE 89', 'SODIUM']);
    expect(lines[0]?.y).toBe(100);
  });

  it('splits a line into cells at column gaps, in x order', () => {
    const [line] = buildLines([
      item('65-99 mg/dL', 305, 100),
      item('GLUCOSE', 48, 100),
      item('89', 168, 100),
    ]);
    expect(line?.cells.map(({ x, text }) => ({ x, text }))).toEqual([
      { x: 48, text: 'GLUCOSE' },
      { x: 168, text: '89' },
      { x: 305, text: '65-99 mg/dL' },
    ]);
    // Each cell knows where it ends, so columns can be told by overlap.
    expect(line?.cells.map((c) => c.right)).toEqual([82.65, 177.9, 359.45]);
  });

  it('keeps a small raised mark on its line and the line on the main baseline', () => {
    const name = item('Glucose', 40, 100);
    const code = item('01', 40 + name.width + 1.5, 98, 5.5);
    const lines = buildLines([name, code, item('89', 150, 100)]);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.y).toBe(100);
    expect(lines[0]?.cells.map((c) => c.text)).toEqual(['Glucose 01', '89']);
  });

  it('glues pieces of one word and spaces pieces of one phrase', () => {
    const first = item('HEMO', 40, 100);
    const rest = item('GLOBIN', 40 + first.width, 100);
    const phrase = item('A1c', 40 + first.width + rest.width + 2.5, 100);
    const [line] = buildLines([first, rest, phrase]);
    expect(line?.cells.map((c) => c.text)).toEqual(['HEMOGLOBIN A1c']);
  });

  it('drops whitespace-only items', () => {
    const lines = buildLines([item('   ', 40, 100), item('TSH', 40, 120)]);
    expect(lines.map((l) => l.text)).toEqual(['TSH']);
  });

  it('keeps lines a normal line-height apart separate', () => {
    const lines = buildLines([item('WHITE BLOOD CELL', 48, 100, 8.5), item('COUNT', 56, 111, 8.5)]);
    expect(lines).toHaveLength(2);
  });

  it('honours custom tolerances', () => {
    const items = [item('A', 40, 100), item('B', 60, 100)];
    expect(buildLines(items)[0]?.cells).toHaveLength(2);
    expect(buildLines(items, { cellGap: 5 })[0]?.cells).toHaveLength(1);
  });
});
