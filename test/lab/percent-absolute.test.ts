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
import { doc, lineView, page, scanned } from './support/hand-layout.js';

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
    const lines = [
      // One range: an ordinary row.
      lineView([60, 'NEUTROPHILS'], [300, '60.9'], [380, '%'], [500, '40-80']),
      // Two plain ranges side by side: an interpretive table, as before.
      lineView([60, 'LDL'], [300, '120'], [500, '100-129'], [560, '(130-159)']),
      // No per cent can be over 100.
      lineView([60, 'PLATELETS'], [300, '268'], [500, '40%-80%'], [560, '(150-400)']),
      // No name.
      lineView([300, '60.9'], [500, '40%-80%'], [560, '(2.0-7.0)']),
    ];
    for (const line of lines) expect(splitPercentAbsolute(line)).toEqual([line]);
  });
});

describe('a differential with the absolute count in a second set of columns', () => {
  it('reads the per cent and the count as two results, each with its unit and range', () => {
    const report = parseReport(
      doc(
        page(
          1,
          scanned(100, [30, 'Test'], [150, 'Result'], [200, 'Unit'], [250, 'Ref. Range'], [340, 'Absolute']),
          scanned(115, [30, 'Haemoglobin'], [150, '13.2'], [200, 'g/dL'], [250, '13.0 - 17.0']),
          scanned(
            130,
            [30, 'Neutrophils'],
            [150, '62'],
            [200, '%'],
            [250, '40 - 80'],
            [340, '4464'],
            [400, '/cumm'],
            [460, '2000 - 7000'],
          ),
          // The sign as tesseract reads a small bold one.
          scanned(
            145,
            [30, 'Lymphocytes'],
            [150, '30'],
            [200, 'Yo'],
            [250, '20 - 40'],
            [340, '2.16'],
            [400, '10^3/uL'],
            [460, '1.0 - 3.0'],
          ),
          scanned(160, [30, 'Platelet Count'], [150, '2.5'], [200, 'lakh/cumm'], [250, '1.5 - 4.5']),
        ),
      ),
      'generic',
    );
    expect(rowsOf(report)).toEqual([
      ['Haemoglobin', '13.2', 'g/dL', '13.0 - 17.0'],
      ['Neutrophils', '62', '%', '40 - 80'],
      ['Neutrophils (abs)', '4464', '/cumm', '2000 - 7000'],
      ['Lymphocytes', '30', '%', '20 - 40'],
      ['Lymphocytes (abs)', '2.16', '10^3/uL', '1.0 - 3.0'],
      ['Platelet Count', '2.5', 'lakh/cumm', '1.5 - 4.5'],
    ]);
    expect(report.coverage).toEqual({ resultsRead: 6, resultLikeRows: 6, ratio: 1 });
  });

  it('leaves alone a result beside a previous one, and a range with no value before it', () => {
    const lines = [
      // Both sets in per cent: this visit and the last.
      lineView(
        [30, 'Neutrophils'],
        [150, '62'],
        [200, '%'],
        [250, '40 - 80'],
        [340, '58'],
        [400, '%'],
        [460, '40 - 80'],
      ),
      // Neither set in per cent.
      lineView(
        [30, 'Glucose'],
        [150, '92'],
        [200, 'mg/dL'],
        [250, '70 - 99'],
        [340, '5.1'],
        [400, 'mmol/L'],
        [460, '3.9 - 5.5'],
      ),
      // Two ranges and one value: an interpretive table.
      lineView([30, 'HbA1c'], [150, '5.6'], [200, '%'], [250, '4.0 - 5.6'], [340, '5.7 - 6.4']),
      // A per cent over 100 is no per cent.
      lineView(
        [30, 'Platelets'],
        [150, '268'],
        [200, '%'],
        [250, '150 - 400'],
        [340, '4464'],
        [400, '/cumm'],
        [460, '2000 - 7000'],
      ),
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
