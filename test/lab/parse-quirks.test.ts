/**
 * The quirks genuine vendor PDFs show, one behaviour at a time on small hand-made layouts that reproduce
 * them (no real document's text): column words we never saw, marks printed as separate raised items,
 * interpretive boxes, names split from their values, portal printouts with the vendor's own copy appended,
 * a panel continued above the next page's header, and lines that look like results but are not read.
 */
import { describe, expect, it } from 'vitest';
import type { PageLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import { doc, line, page, raised } from './support/hand-layout.js';

const rowsOf = (report: ReturnType<typeof parseReport>) =>
  report.panels.flatMap((p) =>
    p.rows.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText]),
  );

describe('Labcorp "Enterprise Report Version 1.00" layout', () => {
  const header = line(
    100,
    [109, 'TESTS'],
    [234, 'RESULT'],
    [307, 'FLAG'],
    [373, 'UNITS'],
    [419, 'REFERENCE INTERVAL'],
    [551, 'LAB'],
  );
  const report = parseReport(
    doc(
      page(
        1,
        header,
        line(114, [36, 'Lipid Panel']),
        line(128, [42, 'HDL-C'], [273, '40'], [378, 'mg/dL'], [475, '>39'], [554, '01']),
        raised(74, 128, 'A'),
        line(
          142,
          [42, 'Triglycerides'],
          [266, '160'],
          [306, 'High'],
          [378, 'mg/dL'],
          [475, '0-149'],
          [554, '01'],
        ),
        line(156, [42, 'Cholesterol, Total'], [266, '171'], [378, 'mg/dL'], [462, '100-199'], [554, '01']),
        raised(130, 156, 'A'),
        line(170, [42, 'LDL and HDL Particles'], [554, '01']),
        line(
          184,
          [42, 'Small LDL-P'],
          [266, '531'],
          [306, 'High'],
          [375, 'nmol/L'],
          [435, '<=527'],
          [554, '01'],
        ),
        line(196, [76, '----------------------------------------------------------']),
        line(208, [181, '** INTERPRETATIVE INFORMATION**']),
        line(
          220,
          [82, 'Small LDL-P'],
          [221, 'Low'],
          [280, '25th'],
          [333, '50th'],
          [386, '75th'],
          [432, 'High'],
        ),
        line(232, [221, '<117'], [280, '117'], [333, '527'], [386, '839'], [432, '>839']),
        line(244, [82, 'High Risk'], [280, '<90']),
        line(256, [76, '----------------------------------------------------------']),
        line(270, [36, 'Hep B Surface Ab, Qual'], [228, 'Equivocal'], [554, '02']),
        line(284, [36, 'Sedimentation Rate-Westergren']),
        line(296, [273, '2'], [378, 'mm/hr'], [475, '0-30'], [554, '02']),
        line(760, [36, 'Date Issued: 06/04/25 1021 ET'], [276, 'FINAL REPORT'], [542, 'Page 1 of 1']),
        line(774, [394, '© 1995-2025 Laboratory Corporation of America® Holdings']),
      ),
    ),
    'labcorp',
  );

  it('reads its capitalised column words and a value printed just left of its column', () => {
    expect(rowsOf(report)).toEqual([
      ['HDL-C', '40', 'mg/dL', '>39'],
      ['Triglycerides', '160', 'mg/dL', '0-149'],
      ['Cholesterol, Total', '171', 'mg/dL', '100-199'],
      ['Small LDL-P', '531', 'nmol/L', '<=527'],
      ['Hep B Surface Ab, Qual', 'Equivocal', null, null],
      ['Sedimentation Rate-Westergren', '2', 'mm/hr', '0-30'],
    ]);
  });

  it('reads nothing inside a box of interpretive information, even what looks like a result', () => {
    const names = report.panels.flatMap((p) => p.rows.map((r) => r.biomarker));
    expect(names.filter((n) => n === 'Small LDL-P')).toHaveLength(1);
    expect(names).not.toContain('High Risk');
  });

  it('does not take a sub-heading under a row for the tail of its name', () => {
    const cholesterol = report.panels.flatMap((p) => p.rows).find((r) => r.resultValue === '171');
    expect(cholesterol?.biomarker).toBe('Cholesterol, Total');
  });
});

describe('Labcorp "Enterprise Report Version 2.00" layout', () => {
  const header = (y: number) =>
    line(
      y,
      [36, 'Test'],
      [191, 'Current Result and Flag'],
      [325, 'Previous Result and Date'],
      [463, 'Units'],
      [521, 'Reference Interval'],
    );
  const pages: PageLayout[] = [
    page(
      1,
      line(30, [18, 'Patient banner line'], [313, 'Patient Report']),
      line(185, [18, 'CBC With Differential/Platelet']),
      header(203),
      line(
        232,
        [36, 'WBC'],
        [193, '6.2'],
        [331, '7.0'],
        [385, '10/24/2024'],
        [459, 'x10E3/uL'],
        [541, '3.4-10.8'],
      ),
      raised(55, 232, '02'),
      line(
        246,
        [36, 'LDL-P'],
        [193, '1258'],
        [261, 'High'],
        [331, '961'],
        [385, '02/27/2025'],
        [459, 'nmol/L'],
        [541, '<1000'],
      ),
      raised(60, 246, 'A,'),
      raised(66, 246, '01'),
      line(756, [18, '©2025 Laboratory Corporation of America® Holdings']),
    ),
    page(
      2,
      line(30, [18, 'Patient banner line'], [313, 'Patient Report']),
      line(101, [18, 'CBC With Differential/Platelet (Cont.)']),
      line(
        118,
        [36, 'Platelets'],
        [197, '301'],
        [332, '254'],
        [385, '10/24/2024'],
        [459, 'x10E3/uL'],
        [539, '150-450'],
      ),
      raised(70, 118, '02'),
      line(210, [18, 'Vitamin B12']),
      header(228),
      line(
        244,
        [36, 'Vitamin B12'],
        [194, '1082'],
        [326, '>2000'],
        [385, '02/27/2025'],
        [460, 'pg/mL'],
        [535, '232-1245'],
      ),
      line(756, [18, '©2025 Laboratory Corporation of America® Holdings']),
    ),
  ];
  const report = parseReport(doc(...pages), 'labcorp');

  it('drops raised footnote and lab marks from names, and never reads the previous result', () => {
    expect(rowsOf(report).slice(0, 2)).toEqual([
      ['WBC', '6.2', 'x10E3/uL', '3.4-10.8'],
      ['LDL-P', '1258', 'nmol/L', '<1000'],
    ]);
    expect(report.panels[0]?.rows[1]?.flag).toBe('High');
  });

  it("reads a panel continued above the next page's header with the previous page's columns", () => {
    const cbc = report.panels.find((p) => p.panelName === 'CBC With Differential/Platelet');
    expect(cbc?.rows.map((r) => [r.biomarker, r.resultValue, r.pageNumber])).toEqual([
      ['WBC', '6.2', 1],
      ['LDL-P', '1258', 1],
      ['Platelets', '301', 2],
    ]);
    expect(JSON.stringify(report)).not.toContain('banner');
  });

  it('reads a labelled genotype as a result, and no genotype beside an interpretation', () => {
    const report = parseReport(
      doc(
        page(
          1,
          line(100, [18, "APOE Alzheimer's Risk", 12]),
          header(118),
          line(132, [36, 'Vitamin B12'], [194, '1082'], [460, 'pg/mL'], [535, '232-1245']),
          line(146, [36, 'APO E Genotyping Result:'], [192, 'E3/E3']),
          line(160, [36, 'Myopathy'], [192, 'T/T'], [300, 'Consider recommending standard doses']),
        ),
      ),
      'labcorp',
    );
    expect(rowsOf(report).map((r) => r.slice(0, 2))).toEqual([
      ['Vitamin B12', '1082'],
      ['APO E Genotyping Result', 'E3/E3'],
    ]);
  });

  it('joins a name wrapped at the row indent to the line of its values, marks carried there or not', () => {
    const wrapped = parseReport(
      doc(
        page(
          1,
          line(311, [18, 'Vitamin E', 12]),
          header(329),
          line(342, [36, 'Vitamin E(Alpha Tocopherol)']),
          // Its marks carried to the start of the values' line, a hair above its baseline.
          { str: 'A,', x: 36, y: 349, width: 5, height: 5.2, fontSize: 5.2 },
          { str: '04', x: 42, y: 349, width: 5, height: 5.2, fontSize: 5.2 },
          line(350, [196, '6.8'], [262, 'Low'], [462, 'mg/L'], [537, '7.0-25.1']),
          line(363, [36, 'Vitamin E(Gamma']),
          line(374, [36, 'Tocopherol)'], [196, '0.4'], [262, 'Low'], [462, 'mg/L'], [539, '0.5-5.5']),
          line(570, [18, 'Sex Horm Binding Glob, Serum', 12]),
          header(587),
          line(601, [36, 'Sex Horm Binding Glob,']),
          line(612, [36, 'Serum'], [195, '32.6'], [459, 'nmol/L'], [535, '19.3-76.4']),
        ),
      ),
      'labcorp',
    );
    expect(rowsOf(wrapped).map((r) => r.slice(0, 2))).toEqual([
      ['Vitamin E(Alpha Tocopherol)', '6.8'],
      ['Vitamin E(Gamma Tocopherol)', '0.4'],
      ['Sex Horm Binding Glob, Serum', '32.6'],
    ]);
  });
});

describe('Quest report printed from a portal, with the vendor copy appended', () => {
  const portal = page(
    1,
    line(177, [42, 'Test'], [264, 'In Range'], [352, 'Out Of Range'], [450, 'Reference Range'], [548, 'Lab']),
    line(301, [42, 'THYROID ANTIBODIES'], [338, 'Collected: 11/13/2024 03:32 PM UTC'], [512, 'Received: 11']),
    line(313, [42, '/13/2024 03:33 PM UTC']),
    line(326, [46, 'THYROID PEROXIDASE'], [398, '225 H'], [450, '<9 IU/mL'], [554, 'EN']),
    line(338, [46, 'ANTIBODIES']),
    line(366, [42, 'HOMOCYSTEINE'], [132, 'Collected: 11/13/2024 03:32 PM UTC']),
    line(379, [46, 'HOMOCYSTEINE'], [287, '11.2'], [450, '<11.4 umol/L'], [554, 'UL']),
    line(760, [100, 'Printed from Example Portal. Copyright © 2024 Example Portal Inc.']),
  );
  const appendix = page(
    2,
    line(12, [355, 'Appendix 1 [Enhanced PDF Report XX000000X-1.pdf] - Page 1 of 1']),
    line(
      219,
      [43, 'Test Name'],
      [248, 'In Range'],
      [321, 'Out Of Range'],
      [406, 'Reference Range'],
      [568, 'Lab'],
    ),
    line(229, [43, 'HOMOCYSTEINE'], [248, '11.2'], [406, '<11.4 umol/L'], [568, 'UL']),
    line(239, [43, 'PSA (FREE AND TOTAL)'], [568, 'EN']),
    line(249, [53, 'PSA, TOTAL'], [248, '0.2'], [406, '< OR = 4.0 ng/mL']),
    line(259, [53, 'PSA, FREE'], [248, '0.1'], [406, 'ng/mL']),
    line(269, [43, 'THYROID PEROXIDASE'], [568, 'EN']),
    line(279, [53, 'ANTIBODIES'], [321, '225 H'], [406, '<9 IU/mL']),
    line(289, [43, 'LEPTIN'], [248, '0.6'], [406, 'ng/mL'], [568, 'EZ']),
    line(770, [32, 'CLIENT SERVICES: 866.000.0000'], [531, 'PAGE 1 OF 1']),
    line(782, [
      32,
      'Quest, Quest Diagnostics, the associated logo and all associated Quest Diagnostics marks are the trademarks of Quest Diagnostics.',
    ]),
  );
  const report = parseReport(doc(portal, appendix), 'quest');
  const rows = report.panels.flatMap((p) => p.rows);

  it('reports each result once, on the page of the vendor copy', () => {
    expect(rows.map((r) => [r.biomarker, r.resultValue, r.pageNumber])).toEqual([
      ['HOMOCYSTEINE', '11.2', 2],
      ['PSA, TOTAL', '0.2', 2],
      ['PSA, FREE', '0.1', 2],
      ['THYROID PEROXIDASE ANTIBODIES', '225', 2],
      ['LEPTIN', '0.6', 2],
    ]);
  });

  it('joins a name printed over its values one indent in, but not a heading over its tests', () => {
    const tpo = rows.find((r) => r.biomarker.startsWith('THYROID'));
    expect(tpo).toMatchObject({ flag: 'H', referenceRangeText: '<9', resultUnit: 'IU/mL' });
    expect(report.panels.map((p) => p.panelName)).toContain('PSA (FREE AND TOTAL)');
  });
});

describe('seen but not read', () => {
  const report = parseReport(
    doc(
      page(
        1,
        line(100, [40, 'Analyte'], [200, 'Value'], [300, 'Units'], [400, 'Standard Range']),
        line(112, [40, 'Sodium'], [200, '140'], [300, 'mmol/L'], [400, '136-145']),
        line(124, [40, 'Potassium'], [200, '4.1'], [300, 'mmol/L'], [400, '3.5-5.1']),
        line(150, [40, 'Page 1 of 2']),
        // Printed below the page footer, where no table is read.
        line(170, [40, 'Chloride'], [200, '101'], [300, 'mmol/L'], [400, '98-107']),
      ),
      // No header on this page: only unmistakable rows are read.
      page(
        2,
        line(100, [40, 'Calcium'], [120, '9.1'], [200, 'mg/dL'], [300, '8.6-10.3']),
        line(112, [40, 'Fasting'], [120, 'Yes']),
      ),
    ),
    'generic',
  );

  it('reads unmistakable result rows on a page without a header', () => {
    expect(rowsOf(report)).toContainEqual(['Calcium', '9.1', 'mg/dL', '8.6-10.3']);
    expect(rowsOf(report).map((r) => r[0])).not.toContain('Fasting');
  });

  it('flags each unread result-like line with its page, and says how much was read', () => {
    const unread = report.validationFlags.filter((f) => f.code === 'unread_row');
    expect(unread.map((f) => f.pageNumber)).toEqual([1]);
    expect(unread[0]?.message).not.toMatch(/Chloride|101/);
    expect(report.coverage).toEqual({ resultsRead: 3, resultLikeRows: 4, ratio: 0.75 });
  });
});
