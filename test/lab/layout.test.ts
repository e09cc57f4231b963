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
