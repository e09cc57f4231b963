/**
 * The table walk on small hand-made layouts, one behaviour at a time; the fixtures' full reports are
 * scored in extract-accuracy.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { type CellSpec, doc, line, page, raised, scanned, withoutItems } from './support/hand-layout.js';

const QUEST_HEADER = line(
  190,
  [40, 'Test Name'],
  [168, 'In Range'],
  [232, 'Out Of Range'],
  [305, 'Reference Range'],
  [548, 'Lab'],
);

describe('parseReport: Quest', () => {
  const page1 = page(
    1,
    line(50, [36, 'Quest Diagnostics', 16]),
    line(90, [36, 'DOE, JANE Q'], [222, 'Specimen: AB123456C']),
    line(101, [36, 'DOB: 01/02/1980'], [222, 'Collected: 03/14/2025']),
    QUEST_HEADER,
    line(208, [40, 'LIPID PANEL, STANDARD']),
    line(219, [48, 'CHOLESTEROL, TOTAL'], [232, '231 H'], [305, '<200 mg/dL'], [548, 'Z4M']),
    line(230, [48, 'HDL CHOLESTEROL'], [168, '62'], [305, '> OR = 50 mg/dL'], [548, 'Z4M']),
    line(241, [48, 'LDL-CHOLESTEROL'], [168, '99'], [305, '<100 mg/dL (calc)'], [548, 'Z4M']),
    line(252, [64, 'Desirable range <100 mg/dL for primary prevention.', 7.5]),
    line(267, [40, 'CBC (INCLUDES DIFF/PLT)']),
    line(278, [48, 'WHITE BLOOD CELL'], [232, '13.0 H'], [305, '3.8-10.8 Thousand/uL'], [548, 'Z4M']),
    line(289, [56, 'COUNT']),
    line(300, [48, 'HEMOGLOBIN'], [232, '10.5 L'], [305, '11.7-15.5 g/dL'], [548, 'Z4M']),
    line(640, [36, 'PERFORMING SITE:']),
    line(650, [36, 'Z4M'], [60, 'QUEST DIAGNOSTICS EXAMPLE LABORATORY']),
    line(660, [60, 'Laboratory Director: SOMEONE, MD'], [203, 'CLIA: 00D0000000']),
    line(755, [36, 'DOE, JANE Q - AB123456C'], [520, 'Page 1 of 2']),
  );
  const page2 = page(
    2,
    line(45, [36, 'Quest Diagnostics', 16]),
    line(60, [36, 'Patient: DOE, JANE Q'], [172, 'DOB: 01/02/1980']),
    line(
      80,
      [40, 'Test Name'],
      [168, 'In Range'],
      [232, 'Out Of Range'],
      [305, 'Reference Range'],
      [548, 'Lab'],
    ),
    line(98, [48, 'NEUTROPHILS'], [168, '55.0'], [305, '%'], [548, 'Z4M']),
    line(109, [48, 'LYMPHOCYTES'], [168, '34.0'], [305, '%'], [548, 'Z4M']),
    line(124, [40, 'HEMOGLOBIN A1c'], [168, '5.2'], [305, '<5.7 % of total Hgb'], [548, 'Z4M']),
    line(135, [48, '(HBA1C)']),
    line(150, [40, 'URINALYSIS, COMPLETE']),
    line(161, [48, 'COLOR'], [168, 'YELLOW'], [305, 'YELLOW'], [548, 'Z4M']),
    line(172, [48, 'PROTEIN'], [232, 'TRACE A'], [305, 'NEGATIVE'], [548, 'Z4M']),
    line(183, [48, 'BACTERIA'], [168, 'NONE SEEN'], [305, 'NONE SEEN /HPF'], [548, 'Z4M']),
    line(755, [36, 'DOE, JANE Q - AB123456C'], [520, 'Page 2 of 2']),
  );
  const report = parseReport(doc(page1, page2), 'quest');

  it('reads panels, including single tests printed at the heading indent', () => {
    expect(report.panels.map((p) => [p.panelName, p.pageNumber, p.rows.length])).toEqual([
      ['LIPID PANEL, STANDARD', 1, 3],
      ['CBC (INCLUDES DIFF/PLT)', 1, 4],
      ['HEMOGLOBIN A1c (HBA1C)', 2, 1],
      ['URINALYSIS, COMPLETE', 2, 3],
    ]);
  });

  it('separates flags from values and units from ranges, dropping (calc)', () => {
    const lipid = report.panels[0]?.rows;
    expect(lipid?.[0]).toEqual({
      biomarker: 'CHOLESTEROL, TOTAL',
      resultValue: '231',
      resultUnit: 'mg/dL',
      referenceRangeText: '<200',
      flag: 'H',
      pageNumber: 1,
      id: 'p1-cholesterol-total-1',
      doubts: [],
      bbox: expect.objectContaining({ page: 1 }),
    });
    expect(lipid?.[2]).toMatchObject({ resultValue: '99', referenceRangeText: '<100', resultUnit: 'mg/dL' });
    const ua = report.panels[3]?.rows;
    expect(ua?.map((r) => [r.resultValue, r.flag, r.referenceRangeText, r.resultUnit])).toEqual([
      ['YELLOW', null, 'YELLOW', null],
      ['TRACE', 'A', 'NEGATIVE', null],
      ['NONE SEEN', null, 'NONE SEEN', '/HPF'],
    ]);
  });

  it('gives each row an id and the box it is printed in, wrapped name included', () => {
    // CHOLESTEROL, TOTAL: baseline 219 in 9 pt type, cells from x 48 to the lab code's end (548 + 3 x 4.5).
    expect(report.panels[0]?.rows[0]?.bbox).toEqual({ page: 1, x: 48, y: 210, width: 513.5, height: 11.3 });
    // WHITE BLOOD CELL / COUNT: the name's tail one line below widens the box down to it.
    const wbc = report.panels[1]?.rows[0];
    expect(wbc?.id).toBe('p1-white-blood-cell-count-1');
    expect(wbc?.bbox).toMatchObject({ page: 1, y: 269 });
    expect((wbc?.bbox?.y ?? 0) + (wbc?.bbox?.height ?? 0)).toBeCloseTo(289 + 0.25 * 9, 0);
    const ids = report.panels.flatMap((p) => p.rows.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('joins a wrapped test name and skips comments', () => {
    const names = report.panels.flatMap((p) => p.rows.map((r) => r.biomarker));
    expect(names).toContain('WHITE BLOOD CELL COUNT');
    expect(names.some((n) => n.includes('Desirable'))).toBe(false);
  });

  it('continues a panel on the next page, each row keeping its page, and records the merge', () => {
    const cbc = report.panels[1];
    expect(cbc?.rows.map((r) => [r.biomarker, r.pageNumber])).toEqual([
      ['WHITE BLOOD CELL COUNT', 1],
      ['HEMOGLOBIN', 1],
      ['NEUTROPHILS', 2],
      ['LYMPHOCYTES', 2],
    ]);
    expect(report.mergeActions).toEqual([
      {
        action: 'merge_continued_panel',
        panelName: 'CBC (INCLUDES DIFF/PLT)',
        panelCode: '',
        fromPage: 2,
        intoPage: 1,
        resultCount: 2,
      },
    ]);
  });

  it('reads nothing from the patient block, the performing site or the footer', () => {
    const text = JSON.stringify(report);
    for (const phi of ['DOE', 'AB123456C', '01/02/1980', 'SOMEONE', 'CLIA']) expect(text).not.toContain(phi);
    expect(report.validationFlags).toEqual([]);
  });

  it('reads the same without font information', () => {
    expect(withoutBoxes(parseReport(withoutItems(doc(page1, page2)), 'quest'))).toEqual(withoutBoxes(report));
  });
});

describe('parseReport: headings set above each table (Labcorp enterprise reports)', () => {
  // Each panel prints its heading at 12 pt at the page margin, then its own header at 8 pt, 18 pt lower.
  const header = (y: number) =>
    line(
      y,
      [36, 'Test', 8],
      [191, 'Current Result and Flag', 8],
      [325, 'Previous Result and Date', 8],
      [463, 'Units', 8],
      [521, 'Reference Interval', 8],
    );
  const row = (y: number, name: string, value: string, unit: string, range: string) =>
    line(y, [36, name], [195, value], [460, unit], [540, range]);
  const page1 = page(
    1,
    line(47, [18, 'Labcorp', 12]),
    line(185, [18, 'NMR LipoProfile+Lipids', 12]),
    header(203),
    line(217, [36, 'Lipids']),
    row(232, 'LDL-C (NIH Calc)', '113', 'mg/dL', '0-99'),
    row(247, 'HDL-C', '69', 'mg/dL', '>39'),
    line(467, [18, 'Apolipoprotein B', 12]),
    header(485),
    row(501, 'Apolipoprotein B', '77', 'mg/dL', '<90'),
    // An interpretive box opened by a rule of dashes and never closed: it ends at the next header.
    line(554, [259, '----------------------------', 8]),
    line(564, [283, 'ASCVD RISK', 8], [398, 'THERAPEUTIC TARGET', 8]),
    line(596, [273, 'High Risk', 8], [379, '<90', 8]),
    line(631, [18, 'Insulin', 12]),
    header(649),
    row(663, 'Insulin', '6.1', 'uIU/mL', '2.6-24.9'),
  );
  const page2 = page(
    2,
    line(101, [18, 'Thyroxine (T4) Free, Direct', 12]),
    header(119),
    row(133, 'T4,Free(Direct)', '1.28', 'ng/dL', '0.82-1.77'),
  );
  const report = parseReport(doc(page1, page2), 'labcorp');

  it("files every row under the heading printed above its table, the page's first one included", () => {
    expect(report.panels.map((p) => [p.panelName, p.rows.map((r) => r.biomarker)])).toEqual([
      ['NMR LipoProfile+Lipids', ['LDL-C (NIH Calc)', 'HDL-C']],
      ['Apolipoprotein B', ['Apolipoprotein B']],
      ['Insulin', ['Insulin']],
      ['Thyroxine (T4) Free, Direct', ['T4,Free(Direct)']],
    ]);
  });
});

describe('parseReport: an appendix set smaller than the report', () => {
  const header = (y: number, size: number) =>
    line(
      y,
      [43, 'Test Name', size],
      [248, 'In Range', size],
      [321, 'Out Of Range', size],
      [406, 'Reference Range', size],
      [568, 'Lab', size],
    );
  const page1 = page(
    1,
    line(50, [36, 'Quest Diagnostics', 16]),
    header(193, 9.7),
    line(210, [36, 'ZINC', 9.7]),
    line(222, [43, 'ZINC', 9.7], [248, '88', 9.7], [406, '60-130 mcg/dL', 9.7], [568, 'EN', 9.7]),
    line(234, [43, 'IRON, TOTAL', 9.7], [248, '95', 9.7], [406, '50-180 mcg/dL', 9.7], [568, 'EN', 9.7]),
  );
  // The appendix's table, headings and rows, all at 7.76 pt.
  const page2 = page(
    2,
    line(
      217,
      [121, 'Test Name', 7.76],
      [289, 'Result', 7.76],
      [359, 'Reference Range', 7.76],
      [563, 'Lab', 7.76],
    ),
    line(232, [40, 'ANA SCREEN, IFA, W/REFL TITER', 7.76], [566, 'EN', 7.76]),
    line(244, [47, 'ANA SCREEN, IFA', 7.76], [282, 'NEGATIVE', 7.76], [362, 'NEGATIVE', 7.76]),
  );

  it('takes a heading of the smaller table as a heading, measured against its own rows', () => {
    const report = parseReport(doc(page1, page2), 'quest');
    expect(report.panels.map((p) => [p.panelName, p.rows.map((r) => r.biomarker)])).toEqual([
      ['ZINC', ['ZINC', 'IRON, TOTAL']],
      ['ANA SCREEN, IFA, W/REFL TITER', ['ANA SCREEN, IFA']],
    ]);
  });
});

describe('parseReport: Labcorp', () => {
  const header = (y: number) =>
    line(
      y,
      [40, 'Test', 7.5],
      [150, 'Current Result and Flag', 7.5],
      [258, 'Previous Result and Date', 7.5],
      [372, 'Units', 7.5],
      [440, 'Reference Interval', 7.5],
    );
  const row = (y: number, name: string, cells: CellSpec[]) => [
    ...line(y, [40, name], ...cells),
    raised(40 + name.length * 4.5 + 1.5, y, '01'),
  ];
  const page1 = page(
    1,
    line(47, [36, 'Labcorp', 12]),
    line(100, [36, 'DOE, JANE']),
    line(126, [36, 'DOB: 01/02/1980'], [222, 'Date Collected: 04/07/2025']),
    header(265),
    line(285, [40, 'Comp. Metabolic Panel (14)', 9.5]),
    row(298, 'Glucose', [
      [150, '87'],
      [262, '91'],
      [296, '04/01/2024'],
      [372, 'mg/dL'],
      [440, '70-99'],
    ]),
    row(310, 'BUN/Creatinine Ratio', [
      [150, '30'],
      [198, 'High'],
      [262, '27'],
      [296, '04/01/2024'],
      [440, '9-20'],
    ]),
    line(328, [40, 'CBC With Differential/Platelet', 9.5]),
    row(342, 'WBC', [
      [150, '7.4'],
      [372, 'x10E3/uL'],
      [440, '3.4-10.8'],
    ]),
    line(749, [36, 'Date Issued: 04/09/25 0605 ET'], [520, 'Page 1 of 2']),
  );
  const page2 = page(
    2,
    line(43, [36, 'Labcorp', 12]),
    line(57, [36, 'Patient: DOE, JANE'], [176, 'DOB: 01/02/1980']),
    header(73),
    line(93, [40, 'CBC With Differential/Platelet (Cont.)', 9.5]),
    row(106, 'Neutrophils', [
      [150, '64'],
      [372, '%'],
      [440, 'Not Estab.'],
    ]),
    line(124, [40, 'Urinalysis, Complete', 9.5]),
    line(137, [40, 'Microscopic Examination'], [150, 'See below:']),
    line(148, [52, 'Microscopic was indicated and was performed.']),
    line(159, [40, 'Epithelial Cells (non'], [150, '0-10'], [372, '/hpf'], [440, '0-10']),
    line(171, [40, 'renal)']),
    raised(68.5, 171, '01'),
    row(183, 'Ketones', [
      [150, '1+'],
      [198, 'Abnormal'],
      [440, 'Negative'],
    ]),
    line(201, [40, 'Hemoglobin A1c', 9.5]),
    row(215, 'Hemoglobin A1c', [
      [150, '5.4'],
      [372, '%'],
      [440, '4.8-5.6'],
    ]),
    line(226, [52, 'Please Note:']),
    line(236, [52, 'Prediabetes: 5.7 - 6.4']),
    line(260, [36, 'Performing Labs']),
    line(270, [36, '01'], [52, 'Labcorp Example Site']),
  );
  const report = parseReport(doc(page1, page2), 'labcorp');

  it('reads names without the raised lab code and ignores previous results', () => {
    expect(report.panels[0]?.rows).toEqual([
      {
        biomarker: 'Glucose',
        resultValue: '87',
        resultUnit: 'mg/dL',
        referenceRangeText: '70-99',
        flag: null,
        pageNumber: 1,
        id: 'p1-glucose-1',
        doubts: [],
        bbox: expect.objectContaining({ page: 1 }),
      },
      {
        biomarker: 'BUN/Creatinine Ratio',
        resultValue: '30',
        resultUnit: null,
        referenceRangeText: '9-20',
        flag: 'High',
        pageNumber: 1,
        id: 'p1-bun-creatinine-ratio-1',
        doubts: [],
        bbox: expect.objectContaining({ page: 1 }),
      },
    ]);
  });

  it('merges a heading repeated with (Cont.) into the panel it continues', () => {
    expect(report.panels.map((p) => [p.panelName, p.pageNumber, p.rows.length])).toEqual([
      ['Comp. Metabolic Panel (14)', 1, 2],
      ['CBC With Differential/Platelet', 1, 2],
      ['Urinalysis, Complete', 2, 2],
      ['Hemoglobin A1c', 2, 1],
    ]);
    expect(report.mergeActions).toEqual([
      {
        action: 'merge_continued_panel',
        panelName: 'CBC With Differential/Platelet',
        panelCode: '',
        fromPage: 2,
        intoPage: 1,
        resultCount: 1,
      },
    ]);
  });

  it('joins wrapped names, skips "See below:" and comments', () => {
    expect(report.panels[2]?.rows.map((r) => [r.biomarker, r.resultValue, r.flag])).toEqual([
      ['Epithelial Cells (non renal)', '0-10', null],
      ['Ketones', '1+', 'Abnormal'],
    ]);
  });

  it('drops the lab code by its shape when the layout has no font information', () => {
    expect(withoutBoxes(parseReport(withoutItems(doc(page1, page2)), 'labcorp'))).toEqual(
      withoutBoxes(report),
    );
  });
});

describe('parseReport: generic tables', () => {
  const header = (y: number) =>
    line(y, [40, 'Test'], [230, 'Result'], [300, 'Flag'], [350, 'Units'], [440, 'Reference Range']);
  const layout = doc(
    page(
      1,
      line(46, [40, 'Cedar Valley Medical Laboratory', 14]),
      line(90, [40, 'Patient: Doe, Jane'], [310, 'DOB: 01/02/1980']),
      line(145, [40, 'CHEMISTRY']),
      header(157),
      line(171, [40, 'Glucose'], [230, '94'], [350, 'mg/dL'], [440, '70-99']),
      line(183, [40, 'Creatinine'], [230, '1.6'], [300, 'H'], [350, 'mg/dL'], [440, '0.57-1.00']),
      line(203, [40, 'LIPIDS']),
      header(215),
      line(229, [40, 'Cholesterol, Total'], [230, '212'], [300, 'H'], [350, 'mg/dL'], [440, '<200']),
      line(250, [40, 'Results flagged H or L fall outside the reference range for this laboratory.']),
      line(755, [40, 'Cedar Valley Medical Laboratory - Final Report'], [520, '1 / 1']),
    ),
  );

  it('finds the header by its words, with section headings above repeated headers', () => {
    const report = parseReport(layout, 'generic');
    expect(
      report.panels.map((p) => [p.panelName, p.rows.map((r) => [r.biomarker, r.resultValue, r.flag])]),
    ).toEqual([
      [
        'CHEMISTRY',
        [
          ['Glucose', '94', null],
          ['Creatinine', '1.6', 'H'],
        ],
      ],
      ['LIPIDS', [['Cholesterol, Total', '212', 'H']]],
    ]);
    expect(report.validationFlags).toEqual([]);
  });

  it('splits the unit off the range when no Units column is printed', () => {
    const report = parseReport(
      doc(
        page(
          1,
          line(100, [40, 'Analyte'], [200, 'Value'], [300, 'Normal Range']),
          line(112, [40, 'Sodium'], [200, '140'], [300, '136-145 mmol/L']),
        ),
      ),
      'generic',
    );
    expect(report.panels[0]?.rows[0]).toMatchObject({ referenceRangeText: '136-145', resultUnit: 'mmol/L' });
  });
});

describe('parseReport: doubts become validation flags', () => {
  const layout = doc(
    page(
      1,
      QUEST_HEADER,
      line(208, [40, 'COMPREHENSIVE METABOLIC PANEL']),
      line(219, [168, '4.2'], [305, '3.5-5.3 mmol/L']),
      line(230, [48, 'SODIUM'], [168, '1O4'], [305, '135-146 mmol/L']),
      line(241, [48, 'CALCIUM'], [168, '9.8'], [305, 'Adult 8.6-10.3; Child 8.8-10.8 mg/dL']),
      line(252, [48, 'ALBUMIN'], [305, '3.6-5.1 g/dL']),
    ),
  );
  const report = parseReport(layout, 'quest');

  it('flags a value without a name, a value mixing digits and letters, an unreadable range, a missing value', () => {
    expect(report.validationFlags.map((f) => [f.code, f.severity, f.pageNumber])).toEqual([
      ['result_without_name', 'warning', 1],
      ['suspicious_result_value', 'warning', 1],
      ['unparsed_reference_range', 'info', 1],
      ['missing_result_value', 'warning', 1],
    ]);
  });

  it('names at most the biomarker in messages, never the printed value', () => {
    const messages = report.validationFlags.map((f) => f.message).join(' ');
    for (const printed of ['4.2', '1O4', '8.6', 'Adult']) expect(messages).not.toContain(printed);
  });

  it('reports when no results table is found', () => {
    const empty = parseReport(doc(page(1, line(100, [40, 'Dear member, this is not a bill.']))), 'quest');
    expect(empty.panels).toEqual([]);
    expect(empty.validationFlags.map((f) => f.code)).toEqual(['no_results_table']);
  });
});

describe('parseReport: read off a scan', () => {
  /** A line as OCR gives it: each word an item with a confidence, so the scan-only rules apply. */
  const rowsOf = (layout: ReturnType<typeof doc>) =>
    parseReport(layout, 'labcorp').panels.flatMap((p) =>
      p.rows.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText]),
    );
  const LABCORP_HEADER = scanned(
    120,
    [40, 'Test'],
    [190, 'Current Result and Flag'],
    [380, 'Units'],
    [460, 'Reference Interval'],
  );

  it("drops Labcorp's out-of-range arrow read as a letter before the name", () => {
    const layout = doc(
      page(
        1,
        LABCORP_HEADER,
        scanned(140, [40, 'Lipid Panel']),
        scanned(
          155,
          [22, 'A'],
          [40, 'LDL Cholesterol'],
          [200, '131'],
          [250, 'High'],
          [380, 'mg/dL'],
          [460, '0-99'],
        ),
        scanned(
          170,
          [22, 'v'],
          [40, 'HDL Cholesterol'],
          [200, '38'],
          [250, 'Low'],
          [380, 'mg/dL'],
          [460, '>39'],
        ),
      ),
    );
    expect(rowsOf(layout)).toEqual([
      ['LDL Cholesterol', '131', 'mg/dL', '0-99'],
      ['HDL Cholesterol', '38', 'mg/dL', '>39'],
    ]);
  });

  it('drops (calc) from a unit printed in its own column', () => {
    const layout = doc(
      page(
        1,
        LABCORP_HEADER,
        scanned(140, [40, 'Comp. Metabolic Panel']),
        scanned(155, [40, 'Globulin, Total'], [200, '2.3'], [380, 'g/dL (calc)'], [460, '1.5-4.5']),
      ),
    );
    expect(rowsOf(layout)).toEqual([['Globulin, Total', '2.3', 'g/dL', '1.5-4.5']]);
  });

  it('joins the words of a phrase a scan measured a little over a cell gap apart', () => {
    // "Not" ends at 462 + 13.5; "Estab." starts 8 pt later, a cell gap at 9 pt, a space on a scan.
    const layout = doc(
      page(
        1,
        LABCORP_HEADER,
        scanned(140, [40, 'CBC With Differential']),
        scanned(155, [40, 'Neutrophils'], [200, '55'], [380, '%'], [462, 'Not'], [483.5, 'Estab.']),
      ),
    );
    expect(rowsOf(layout)).toEqual([['Neutrophils', '55', '%', 'Not Estab.']]);
  });
});

describe('parseReport: risk bands', () => {
  it('never reads a row of risk bands as a result, when no header says it is a risk summary', () => {
    // Quest's Cardio IQ summary as a scan reads it: its header garbled, the results drawn as graphics.
    const layout = doc(
      page(
        1,
        line(100, [36, 'Quest Diagnostics', 16]),
        line(
          120,
          [37, 'Test Name'],
          [182, 'Splat crown'],
          [334, 'Moderate'],
          [444, 'Units'],
          [509, 'Result Risk'],
        ),
        line(140, [37, 'CHOLESTEROL, TOTAL'], [298, '<200'], [351, 'N/A'], [394, '>=200'], [446, 'mg/dL']),
        line(155, [37, 'TRIGLYCERIDES'], [298, '<150'], [342, '150-199»'], [394, '>=200~—'], [446, 'mg/dL']),
        line(170, [37, 'LDL MEDIUM'], [298, '215'], [342, '215-301'], [397, '~—S->301'], [445, 'nmol/L']),
        line(185, [37, 'LDL-CHOLESTEROL'], [191, '94'], [298, '<100'], [342, '100-129'], [397, '>129']),
      ),
    );
    expect(parseReport(layout, 'quest').panels.flatMap((p) => p.rows)).toEqual([]);
  });

  it('still reads a bound result beside its interval range', () => {
    const layout = doc(
      page(
        1,
        QUEST_HEADER,
        line(208, [40, 'GLUCOSE'], [232, '<70 L'], [305, '70-99 mg/dL'], [548, 'Z4M']),
        line(219, [40, 'LP-IR SCORE'], [168, '<25'], [305, '<=45'], [548, 'Z4M']),
      ),
    );
    expect(
      parseReport(layout, 'quest').panels.flatMap((p) => p.rows.map((r) => [r.biomarker, r.resultValue])),
    ).toEqual([
      ['GLUCOSE', '<70'],
      ['LP-IR SCORE', '<25'],
    ]);
  });
});

describe("parseReport: a portal's copy beside the vendor's", () => {
  const rowsOf = (layout: ReturnType<typeof doc>) =>
    parseReport(layout, 'quest').panels.flatMap((p) =>
      p.rows.map((r) => [r.biomarker, r.resultValue, r.pageNumber]),
    );
  const portal = (...rows: Array<ReturnType<typeof line>>) => page(1, QUEST_HEADER, ...rows);
  const vendor = (...rows: Array<ReturnType<typeof line>>) =>
    page(2, line(50, [36, 'Quest Diagnostics', 16]), QUEST_HEADER, ...rows);
  const ocr = (items: ReturnType<typeof line>) => items.map((item) => ({ ...item, confidence: 95 }));
  const potassium = (y: number, value: string) =>
    ocr(line(y, [40, 'POTASSIUM'], [168, value], [305, '3.5-5.3 mmol/L'], [548, 'Z4M']));

  it("keeps the vendor's row when its table row is read in strict mode after the portal's", () => {
    const layout = doc(
      portal(line(208, [40, 'VITAMIN D,25-OH,TOTAL,IA'], [168, '30'], [305, '30-100 ng/mL'])),
      // The vendor's page repeats no header: its rows are read with the portal page's columns.
      page(
        2,
        line(50, [36, 'Quest Diagnostics', 16]),
        line(208, [40, 'VITAMIN D,25-OH,TOTAL,IA'], [168, '30'], [305, '30-100 ng/mL']),
      ),
    );
    expect(rowsOf(layout)).toEqual([['VITAMIN D,25-OH,TOTAL,IA', '30', 2]]);
  });

  it("drops a scanned portal copy that lost the decimal point the vendor's copy has", () => {
    expect(rowsOf(doc(portal(potassium(208, '45')), vendor(potassium(208, '4.5'))))).toEqual([
      ['POTASSIUM', '4.5', 2],
    ]);
  });

  it("keeps both when it is the vendor's copy that lost the point: the right value is not dropped", () => {
    expect(rowsOf(doc(portal(potassium(208, '4.5')), vendor(potassium(208, '45'))))).toEqual([
      ['POTASSIUM', '4.5', 1],
      ['POTASSIUM', '45', 2],
    ]);
  });
});

/** Without text items a line's type size is unknown, so its box is estimated: compare everything else. */
function withoutBoxes(report: ReturnType<typeof parseReport>) {
  return {
    ...report,
    panels: report.panels.map((p) => ({ ...p, rows: p.rows.map(({ bbox: _bbox, ...row }) => row) })),
  };
}

describe('parseReport: a scanned report of another laboratory', () => {
  const layout = doc(
    page(
      1,
      // An identifier's label whose colon a scan dropped, beside a date label: no row.
      line(80, [40, 'Sample No'], [150, 'XX0000001Z'], [340, 'Collec.Date'], [425, 'QQ 4s']),
      line(100, [40, 'Test'], [230, 'Result'], [330, 'Unit'], [430, 'Biological Ref. Range']),
      line(112, [40, 'Total R.B.C. Count'], [230, '3.19 [LJ'], [330, 'mill/cmm'], [430, '4.5-5.5']),
      line(124, [40, 'Haematocrit'], [230, '27.20 [L]'], [330, '%'], [430, '40.0-50.0']),
      line(136, [40, 'Total W.B.C. Count'], [230, '10560 (H)'], [330, '/uL'], [430, '4000-10000']),
      line(148, [40, 'Basophils'], [230, '9'], [250, '(L)'], [330, '%'], [430, '0-1']),
      line(160, [40, 'RBC MORPHOLOGY'], [230, 'Normocytic Normochromic']),
      line(172, [40, 'PLATELETS'], [230, 'Adequate']),
      line(184, [40, 'HEMOPARASITES'], [230, 'Nil']),
      line(196, [40, 'WBC MORPHOLOGY'], [230, 'Neutrophilia']),
      line(208, [40, 'ABNORMAL CELLS'], [230, 'Nil']),
    ),
  );

  it('reads bracketed flags apart from the value, and the words a blood smear is reported in', () => {
    const report = parseReport(layout, 'generic');
    expect(report.panels.flatMap((p) => p.rows.map((r) => [r.biomarker, r.resultValue, r.flag]))).toEqual([
      ['Total R.B.C. Count', '3.19', 'L'],
      ['Haematocrit', '27.20', 'L'],
      ['Total W.B.C. Count', '10560', 'H'],
      ['Basophils', '9', 'L'],
      ['RBC MORPHOLOGY', 'Normocytic Normochromic', null],
      ['PLATELETS', 'Adequate', null],
      ['HEMOPARASITES', 'Nil', null],
      ['WBC MORPHOLOGY', 'Neutrophilia', null],
      ['ABNORMAL CELLS', 'Nil', null],
    ]);
  });

  it("joins a unit's end wrapped alone under the unit column to the unit above, only when that makes a unit", () => {
    /** A line as OCR gives it: every word with tesseract's confidence. */
    const read = (y: number, ...cells: CellSpec[]) =>
      line(y, ...cells).map((item) => ({ ...item, confidence: 95 }));
    const scanned = {
      ...doc(
        page(
          1,
          read(100, [40, 'Test'], [230, 'Result'], [330, 'Unit'], [430, 'Reference Range']),
          read(112, [40, 'ABSOLUTE MONOCYTE COUNT'], [230, '436'], [330, 'cellsfcum'], [430, '200 - 1000']),
          read(124, [40, 'Method Calculated'], [330, 'm']),
          read(136, [40, 'ABSOLUTE BASOPHIL COUNT'], [230, '9'], [330, 'cells/cumm'], [430, '20 - 100']),
          read(148, [40, 'Method Calculated'], [330, 'm']),
          read(160, [40, 'PLATELET COUNT'], [230, '233'], [330, 'mg/dL'], [430, '150 - 410']),
          read(172, [40, 'Method Impedance'], [330, 'dL']),
        ),
      ),
      hasTextLayer: false,
    };
    const report = parseReport(scanned, 'generic');
    expect(report.panels.flatMap((p) => p.rows.map((r) => [r.biomarker, r.resultUnit]))).toEqual([
      ['ABSOLUTE MONOCYTE COUNT', 'cells/cumm'],
      // A unit already whole takes nothing from the line under it.
      ['ABSOLUTE BASOPHIL COUNT', 'cells/cumm'],
      ['PLATELET COUNT', 'mg/dL'],
    ]);
  });
});

describe('parseReport: the patient block above a table without a header', () => {
  // A scanned CBC whose header line OCR garbled: the columns are inferred from the rows.
  const rows = [
    line(160, [40, 'HEMOGLOBIN'], [230, '12.9'], [330, 'g/dl'], [430, '13.5-17.5']),
    line(172, [40, 'Total R.B.C.'], [230, '4.75'], [330, 'mill/cumm'], [430, '4.5-6.2']),
    line(184, [40, 'Lymphocytes'], [230, '41'], [330, '%'], [430, '20-45']),
    line(196, [40, 'Monocytes'], [230, '2'], [330, '%'], [430, '2-8']),
  ];
  // The patient block's "Patient ID  2025001" looks like a row, so the inferred table starts there.
  const block = (...second: CellSpec[]) =>
    page(
      1,
      line(90, [40, 'Patient ID'], [130, '2025001'], [430, 'Collection Date:']),
      line(100, ...second),
      ...rows,
    );

  it('is not ended by a day and month cut short by a redaction box ("22/04")', () => {
    const report = parseReport(doc(block([40, 'Reporting Date'], [130, '22/04'])), 'generic');
    expect(report.panels.flatMap((p) => p.rows.map((r) => r.biomarker))).toEqual([
      'HEMOGLOBIN',
      'Total R.B.C.',
      'Lymphocytes',
      'Monocytes',
    ]);
  });

  it('reads no row from a patient label, whatever follows it', () => {
    // A referrer's line with the report date beside it: a label and a day/month look like a unit and range.
    const report = parseReport(
      doc(block([40, 'Ref. Dr.Example Clinic'], [330, 'Reporting Date'], [430, '22/04'])),
      'generic',
    );
    const names = report.panels.flatMap((p) => [p.panelName, ...p.rows.map((r) => r.biomarker)]);
    expect(names.filter((n) => /Ref\.|Example/.test(n))).toEqual([]);
    expect(report.panels.flatMap((p) => p.rows)).toHaveLength(4);
  });

  it('still ends at a page number', () => {
    const report = parseReport(doc(block([40, 'Report'], [500, 'Page 1 of 2'])), 'generic');
    expect(report.panels.flatMap((p) => p.rows)).toHaveLength(0);
  });

  it('never names a panel after a patient label whose value a redaction box hid ("Patient\'s Name")', () => {
    // OCR reads the box's edge as a stray letter in the flag column.
    const report = parseReport(doc(block([40, "Patient's Name"], [380, 'a'])), 'generic');
    expect(report.panels.map((p) => p.panelName)).not.toContain("Patient's Name");
    expect(report.panels.flatMap((p) => p.rows)).toHaveLength(4);
  });
});

describe('parseReport: a department heading centred over its table', () => {
  /** A page with a line alone over a table's header, and one row under it. */
  const headed = (n: number, heading: [number, string], ...row: CellSpec[]) =>
    page(
      n,
      line(100, heading),
      line(112, [40, 'Test Report Status'], [300, 'Result'], [380, 'Unit'], [460, 'Normal Range']),
      line(130, ...row),
    );
  const crp: CellSpec[] = [
    [40, 'CRP(QUANTITATIVE)'],
    [300, '5.6'],
    [380, 'mg/L'],
    [460, '0.00 - 6.00'],
  ];

  it('names the panel of the rows under it, page by page, never after the first row', () => {
    const report = parseReport(
      doc(
        headed(1, [250, 'BIOCHEMISTRY'], ...crp),
        headed(
          2,
          [230, 'SEROLOGY / IMMUNOLOGY'],
          [40, 'RA FACTOR'],
          [300, '8.1'],
          [380, 'IU/mL'],
          [460, '0 - 14'],
        ),
      ),
      'generic',
    );
    expect(report.panels.map((p) => [p.panelName, p.rows.map((r) => r.biomarker)])).toEqual([
      ['BIOCHEMISTRY', ['CRP(QUANTITATIVE)']],
      ['SEROLOGY / IMMUNOLOGY', ['RA FACTOR']],
    ]);
  });

  it('calls results printed under no heading Results, never after the first of them', () => {
    const untitled = page(
      1,
      line(112, [40, 'Test Report Status'], [300, 'Result'], [380, 'Unit'], [460, 'Normal Range']),
      line(130, ...crp),
      line(142, [40, 'RA FACTOR'], [300, '8.1'], [380, 'IU/mL'], [460, '0 - 14']),
    );
    const report = parseReport(doc(untitled), 'generic');
    expect(report.panels.map((p) => [p.panelName, p.rows.length])).toEqual([['Results', 2]]);
    // One test alone is its own panel, as labs print a single test.
    const single = page(
      1,
      line(112, [40, 'Test Report Status'], [300, 'Result'], [380, 'Unit'], [460, 'Normal Range']),
      line(130, ...crp),
    );
    expect(parseReport(doc(single), 'generic').panels.map((p) => p.panelName)).toEqual(['CRP(QUANTITATIVE)']);
  });

  it('splits a range run into the unit cell before it, glued or after a space', () => {
    for (const [cell, unit, range] of [
      ['mg/dl13.5-17.5', 'mg/dl', '13.5-17.5'],
      ['mg/dl 13.5-17.5', 'mg/dl', '13.5-17.5'],
      ['%20-45', '%', '20-45'],
      // Not a unit before the number: left whole, for the unit check to doubt.
      ['Lakhs1.5-4.5', 'Lakhs1.5-4.5', null],
    ]) {
      const report = parseReport(
        doc(
          page(
            1,
            line(100, [250, 'HAEMATOLOGY']),
            line(112, [40, 'Test'], [300, 'Result'], [380, 'Unit'], [460, 'Reference Range']),
            line(130, [40, 'HEMOGLOBIN'], [300, '12.2'], [380, cell as string]),
            line(142, [40, 'MCV'], [300, '90.1'], [380, 'fl'], [460, '84-96']),
          ),
        ),
        'generic',
      );
      const [row] = report.panels.flatMap((p) => p.rows);
      expect([row?.resultUnit, row?.referenceRangeText], cell as string).toEqual([unit, range]);
    }
  });

  it('keeps a method note printed under a name out of the name', () => {
    const report = parseReport(
      doc(
        page(
          1,
          line(100, [250, 'HAEMATOLOGY']),
          line(112, [40, 'Test Report Status'], [300, 'Result'], [380, 'Unit'], [460, 'Normal Range']),
          line(130, [40, 'MCV'], [300, '99.3'], [380, 'fl'], [460, '83-101']),
          line(140, [40, 'Method Derived from RBC Histogram']),
          line(152, [40, 'MCH'], [300, '32.8'], [380, 'pg'], [460, '27-32']),
        ),
      ),
      'generic',
    );
    expect(report.panels.flatMap((p) => p.rows.map((r) => r.biomarker))).toEqual(['MCV', 'MCH']);
  });

  it("takes the document's own title over the table for no panel's name", () => {
    const report = parseReport(doc(headed(1, [250, 'Test Report'], ...crp)), 'generic');
    expect(report.panels.map((p) => p.panelName)).not.toContain('Test Report');
  });
});
