/**
 * A white-cell differential printed with the per cent and the absolute count on one line, each with its
 * own range (hand-made layouts of the shape a Sri Lankan laboratory's typewritten report prints; no real
 * document's text).
 */
import { describe, expect, it } from 'vitest';
import type { HocrChar, HocrWord } from '../../src/lab/pipeline/ocr/hocr.js';
import { pageFromHocr } from '../../src/lab/pipeline/ocr/hocr-page.js';
import { cellKind } from '../../src/lab/pipeline/table/cell-kind.js';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { splitPercentAbsolute } from '../../src/lab/pipeline/table/percent-absolute.js';
import { matchLoinc } from '../../src/terminology/loinc-match.js';
import { doc, page, scanned } from './support/hand-layout.js';

const rowsOf = (report: ReturnType<typeof parseReport>) =>
  report.panels.flatMap((p) =>
    p.rows.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText]),
  );

const header = scanned(100, [50, 'TEST'], [300, 'RESULT'], [460, 'FLAG'], [500, 'REFERENCE VALUE']);

describe('a differential printed as per cent and absolute count on one line', () => {
  it('reads two results, each with its own range, the count under the name marked (abs)', () => {
    const report = parseReport(
      doc(
        page(
          1,
          header,
          scanned(120, [50, 'TOTAL WHITE CELL COUNT'], [300, '8.1'], [380, '10^9/L'], [500, '4.00 - 11.0']),
          scanned(135, [50, 'DIFFERENTIAL COUNT']),
          scanned(
            150,
            [60, 'NEUTROPHILS'],
            [300, '60.9'],
            [380, '%'],
            [405, '4.9'],
            [500, '40%-80%'],
            [560, '(2.0-7.0)'],
          ),
          scanned(
            165,
            [60, 'LYMPHOCYTES'],
            [300, '26.6'],
            [380, '% 2.1'],
            [500, '20%-40%'],
            [560, '(1.0-3.0)'],
          ),
          scanned(180, [60, 'MONOCYTES'], [300, '6.3'], [405, '0.5'], [500, '02%-10%'], [560, '(0.2-1.0)']),
        ),
      ),
      'generic',
    );
    expect(rowsOf(report)).toEqual([
      ['TOTAL WHITE CELL COUNT', '8.1', '10^9/L', '4.00 - 11.0'],
      ['NEUTROPHILS', '60.9', '%', '40%-80%'],
      ['NEUTROPHILS (abs)', '4.9', null, '2.0-7.0'],
      ['LYMPHOCYTES', '26.6', '%', '20%-40%'],
      ['LYMPHOCYTES (abs)', '2.1', null, '1.0-3.0'],
      // The sign lost by the scan: the range's per cent signs give the unit.
      ['MONOCYTES', '6.3', '%', '02%-10%'],
      ['MONOCYTES (abs)', '0.5', null, '0.2-1.0'],
    ]);
    expect(report.coverage).toEqual({ resultsRead: 7, resultLikeRows: 7, ratio: 1 });
    // The marked name finds the count's code, not the per cent's.
    expect(matchLoinc('NEUTROPHILS (abs)').loincCode).toBe('751-8');
    expect(matchLoinc('NEUTROPHILS').loincCode).toBe('770-8');
  });

  it('leaves a line alone unless a per-cent range is followed by a bracketed one', () => {
    const view = (...cells: Array<[number, string]>) => ({
      pageNumber: 1,
      y: 100,
      font: 9,
      raised: [],
      cells: cells.map(([x, text]) => ({ x, text })),
    });
    const lines = [
      // One range: an ordinary row.
      view([60, 'NEUTROPHILS'], [300, '60.9'], [380, '%'], [500, '40-80']),
      // Two plain ranges side by side: an interpretive table, as before.
      view([60, 'LDL'], [300, '120'], [500, '100-129'], [560, '(130-159)']),
      // No per cent can be over 100.
      view([60, 'PLATELETS'], [300, '268'], [500, '40%-80%'], [560, '(150-400)']),
      // No name.
      view([300, '60.9'], [500, '40%-80%'], [560, '(2.0-7.0)']),
    ];
    for (const line of lines) expect(splitPercentAbsolute(line)).toEqual([line]);
  });
});

describe('per-cent ranges with the sign on each bound', () => {
  it.each(['40%-80%', '02%-10%', '<0.1%-02%'])('%s is an interval', (text) => {
    expect(cellKind(text)).toBe('interval');
  });
});

describe('the first word of an OCR line', () => {
  /** A word at `left`, its letters 20 px wide and `height` px tall, their bottoms at `bottom`. */
  function word(text: string, left: number, bottom: number, height: number): HocrWord {
    const chars: HocrChar[] = [...text].map((ch, i) => ({
      text: ch,
      box: { left: left + i * 22, top: bottom - height, right: left + i * 22 + 20, bottom },
      conf: 90,
    }));
    const last = chars.at(-1) as HocrChar;
    return { chars, box: { left, top: bottom - height, right: last.box.right, bottom } };
  }

  it('is never a raised mark: a name set high on a photo bent upwards at its left is still the name', () => {
    // The name's letters sit 12 px above the line's baseline and are smaller than its 40 px font size.
    const name = word('LYMPHOCYTES', 140, 1188, 22);
    const value = word('26.6', 930, 1200, 30);
    const page = pageFromHocr(
      {
        width: 2000,
        height: 2800,
        lines: [
          {
            box: { ...name.box, right: value.box.right },
            size: 40,
            baselineAt: () => 1200,
            words: [name, value],
          },
        ],
      },
      1,
      200,
    );
    expect(page.items.map((item) => [item.str, item.raised === true])).toEqual([
      ['LYMPHOCYTES', false],
      ['26.6', false],
    ]);
  });
});
