/**
 * Layouts of laboratories other than Quest and Labcorp that real reports showed us, drawn here with pdfkit
 * (made-up people, doctors and values): a doctors' signature grid under the results, a test name printed
 * smaller and higher than its value, and a one-test report headed "Test | Result" alone. Run through the
 * whole pipeline, in default mode (the verdict) and with anyLab (the rows).
 */
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import { isSignatureLine } from '../../src/lab/pipeline/table/table-lines.js';
import { drawPdf } from './support/draw-pdf.js';

/** The layouts these reports come in are A4. */
const pdf = (draw: (doc: PDFKit.PDFDocument) => void) => drawPdf(draw, 'A4');

const row = (doc: PDFKit.PDFDocument, y: number, cells: Array<[number, string]>, size = 9): void => {
  doc.fontSize(size);
  for (const [x, text] of cells) doc.text(text, x, y, { lineBreak: false });
};

/** An Indian in-house laboratory's header block: labels, a colon apart, values. */
function header(doc: PDFKit.PDFDocument, y = 60): void {
  doc.font('Helvetica');
  row(doc, y, [[160, 'Larkspur Diagnostic Laboratory']], 12);
  row(doc, y + 24, [
    [36, 'Name'],
    [130, ': Mr. Quentin Example'],
    [330, 'Sample Collected on'],
    [450, ': 22-Jul-2023'],
  ]);
  row(doc, y + 36, [
    [36, 'Age / Sex'],
    [130, ': 45-Years / M'],
    [330, 'Report Released on'],
    [450, ': 22-Jul-2023'],
  ]);
}

const namesOf = (outcome: Awaited<ReturnType<typeof runPipeline>>): string[] => {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
  return outcome.result.panels.flatMap((p) => p.panelResults.map((r) => r.biomarker));
};

describe("other laboratories' layouts", () => {
  it('reads no row from the doctors\u2019 signature grid under the results', async () => {
    const bytes = await pdf((doc) => {
      header(doc);
      row(doc, 130, [
        [36, 'Test Name'],
        [260, 'Results'],
        [360, 'Units'],
        [450, 'Bio. Ref. Interval'],
      ]);
      row(doc, 150, [[36, 'COMPLETE BLOOD COUNT']]);
      const rows: Array<[string, string, string, string]> = [
        ['Hemoglobin', '14.20', 'g/dL', '13.00 - 17.00'],
        ['RBC Count', '4.80', 'mill/mm3', '4.50 - 5.50'],
        ['Platelet Count', '250', 'thou/mm3', '150 - 410'],
      ];
      rows.forEach(([name, value, unit, range], i) => {
        row(doc, 168 + i * 14, [
          [36, name],
          [260, value],
          [360, unit],
          [450, range],
        ]);
      });
      // The signature grid: four doctors' names, degrees and titles in columns that fall under the
      // table's name, result and unit columns.
      const grid: string[][] = [
        ['Dr Alder Pinecrest', 'Dr Bryony Whitfield', 'Dr Cosmo Ravensworth', 'Dr Dunstan Marlowe'],
        ['MD, Pathology', 'DM(Hematopathology), MD,', 'MD, Biochemistry', 'MD, Pathology'],
        [
          'Technical Director - Hematology &',
          'DNB,MNAMS',
          'Sr. Consultant Biochemist',
          'Consultant Pathologist',
        ],
        ['Immunology', 'Consultant & Technical Lead', 'Larkspur Diagnostic Laboratory', 'Larkspur Ltd'],
      ];
      grid.forEach((line, i) => {
        row(
          doc,
          300 + i * 12,
          line.map((text, j): [number, string] => [[36, 150, 262, 400][j] as number, text]),
        );
      });
    });
    const names = namesOf(await runPipeline(bytes, { anyLab: true }));
    expect(names).toEqual(['Hemoglobin', 'RBC Count', 'Platelet Count']);
  });

  it('tells a signature line from a result row', () => {
    const cells = (...texts: string[]) => ({ cells: texts.map((text, i) => ({ x: i * 100, text })) });
    expect(isSignatureLine(cells('MD, Pathology', 'MD, Biochemistry'))).toBe(true);
    expect(isSignatureLine(cells('Consultant Pathologist'))).toBe(true);
    expect(isSignatureLine(cells('Dr Alder Pinecrest', 'Dr Bryony Whitfield'))).toBe(true);
    expect(isSignatureLine(cells('Hemoglobin', '14.2', 'g/dL'))).toBe(false);
    expect(isSignatureLine(cells('DRVVT Screen', '38', 'sec'))).toBe(false);
    expect(isSignatureLine(cells('MDMA', 'Negative'))).toBe(false);
  });

  it('reads a one-result report whose test name is printed smaller and higher than its value', async () => {
    const bytes = await pdf((doc) => {
      header(doc);
      row(doc, 120, [[250, 'BIOCHEMISTRY']], 10);
      row(doc, 140, [
        [36, 'Test Report Status'],
        [290, 'Result'],
        [386, 'Unit'],
        [493, 'Normal Range'],
      ]);
      // The name at 8 pt, its baseline a little above the value's at 10 pt.
      row(doc, 160, [[36, 'CRP(QUANTITATIVE)']], 8);
      row(doc, 161.5, [[297, '5.6']], 10);
      row(doc, 161.5, [[392, 'mg/L']], 10.25);
      row(doc, 161.5, [[510, '0.00 - 6.00']], 10);
      row(doc, 190, [
        [36, 'A c-reactive protein test measures the level of c-reactive protein in your blood.'],
      ]);
    });
    const rejected = await runPipeline(bytes);
    expect(rejected).toMatchObject({
      status: 'invalid_document',
      rejection_reason: 'non_supported_lab',
      detected_lab: 'Larkspur Diagnostic Laboratory',
    });
    expect(namesOf(await runPipeline(bytes, { anyLab: true }))).toEqual(['CRP(QUANTITATIVE)']);
  });

  it('takes "Test | Result" alone for the header of a qualitative one-test report', async () => {
    const bytes = await pdf((doc) => {
      header(doc);
      row(doc, 120, [[250, 'SEROLOGY / IMMUNOLOGY']], 10);
      row(doc, 140, [
        [36, 'Test Report Status'],
        [290, 'Result'],
      ]);
      row(doc, 160, [
        [36, 'CRP(QUALITATIVE)'],
        [297, 'Negative'],
      ]);
      row(doc, 190, [
        [36, 'C-reactive protein (CRP) is a serum protein, which is synthesized in the liver.'],
      ]);
    });
    expect(await runPipeline(bytes)).toMatchObject({
      status: 'invalid_document',
      rejection_reason: 'non_supported_lab',
    });
    const outcome = await runPipeline(bytes, { anyLab: true });
    expect(namesOf(outcome)).toEqual(['CRP(QUALITATIVE)']);
  });

  /** A hospital laboratory's CBC under the given letterhead lines. */
  const hospitalReport = (letterhead: string[]) =>
    pdf((doc) => {
      doc.font('Helvetica');
      letterhead.forEach((text, i) => {
        row(doc, 40 + i * 16, [[170, text]], 12);
      });
      row(doc, 110, [
        [36, 'Patient Name'],
        [130, ': Quentin Example'],
        [330, 'Age/Sex'],
        [420, ': 49 Yr/F'],
      ]);
      row(doc, 140, [
        [36, 'Investigation'],
        [200, 'Result'],
        [360, 'Unit'],
        [450, 'Ref. Range'],
      ]);
      row(doc, 158, [[36, 'Complete Blood count']]);
      const rows: Array<[string, string, string, string]> = [
        ['Haemoglobin', '11.1', 'g/dL', '12 - 15'],
        ['Hematocrit', '34.9', '%', '36 - 46'],
        ['Platelet Count', '177', 'x10^9/L', '150 - 410'],
      ];
      rows.forEach(([name, value, unit, range], i) => {
        row(doc, 174 + i * 14, [
          [36, name],
          [200, value],
          [360, unit],
          [450, range],
        ]);
      });
    });

  it('does not take a department for the laboratory', async () => {
    const bytes = await hospitalReport(['Department of Pathology And Lab Medicine', 'Clinical Pathology']);
    expect(await runPipeline(bytes)).toMatchObject({
      status: 'invalid_document',
      rejection_reason: 'non_supported_lab',
      detected_lab: null,
    });
  });

  it("names a hospital's laboratory by the hospital its letterhead prints", async () => {
    const bytes = await hospitalReport([
      'Riverbend General Hospital',
      'Department of Pathology And Lab Medicine',
    ]);
    expect(await runPipeline(bytes)).toMatchObject({
      status: 'invalid_document',
      rejection_reason: 'non_supported_lab',
      detected_lab: 'Riverbend General Hospital',
    });
    const outcome = await runPipeline(bytes, { anyLab: true });
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    expect(outcome.result.labName).toBe('Riverbend General Hospital');
  });

  it('keeps the method printed in parentheses under each row out of the names and the panels', async () => {
    const bytes = await pdf((doc) => {
      header(doc);
      row(doc, 130, [
        [36, 'Test Name'],
        [260, 'Results'],
        [360, 'Units'],
        [450, 'Bio. Ref. Interval'],
      ]);
      row(doc, 150, [[36, 'COMPLETE BLOOD COUNT;CBC']]);
      let y = 170;
      const rows: Array<[string, string, string, string, string | null]> = [
        ['Hemoglobin', '15.00', 'g/dL', '13.00 - 17.00', '(Photometry)'],
        ['Packed Cell Volume (PCV)', '45.00', '%', '40.00 - 50.00', '(Calculated)'],
        ['RBC Count', '4.50', 'mill/mm3', '4.50 - 5.50', '(Electrical Impedence)'],
        ['MCV', '90.00', 'fL', '83.00 - 101.00', null],
        ['MCH', '30.00', 'pg', '27.00 - 32.00', null],
        ['Platelet Count', '250', 'thou/mm3', '150 - 410', '(Electrical Impedence)'],
      ];
      for (const [name, value, unit, range, method] of rows) {
        row(doc, y, [
          [36, name],
          [260, value],
          [360, unit],
          [450, range],
        ]);
        if (method) {
          row(doc, y + 11.3, [[36, method]]);
          y += 25.6;
        } else y += 12;
      }
    });
    const outcome = await runPipeline(bytes, { anyLab: true });
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    expect(outcome.result.panels.map((p) => p.panelName)).toEqual(['COMPLETE BLOOD COUNT;CBC']);
    expect(namesOf(outcome)).toEqual([
      'Hemoglobin',
      'Packed Cell Volume (PCV)',
      'RBC Count',
      'MCV',
      'MCH',
      'Platelet Count',
    ]);
  });

  it('keeps a method note out of the names where too few rows show the habit; reads A : G Ratio and G2', async () => {
    const bytes = await pdf((doc) => {
      header(doc);
      row(doc, 130, [
        [36, 'Test Name'],
        [260, 'Results'],
        [360, 'Units'],
        [450, 'Bio. Ref. Interval'],
      ]);
      row(doc, 150, [[36, 'LIVER PANEL']]);
      row(doc, 170, [
        [36, 'Albumin'],
        [260, '4.00'],
        [360, 'g/dL'],
        [450, '3.20 - 4.80'],
      ]);
      row(doc, 181.3, [[36, '(BCG)']]);
      row(doc, 194, [
        [36, 'A : G Ratio'],
        [260, '1.33'],
        [450, '0.90 - 2.00'],
      ]);
      row(doc, 214, [
        [36, 'Glucose Fasting, Plasma'],
        [260, '83.50'],
        [360, 'mg/dL'],
        [450, '70.00 - 100.00'],
      ]);
      row(doc, 225.3, [[36, '(Hexokinase)']]);
      // A KDIGO category is a result printed as a word.
      row(doc, 240, [
        [36, 'GFR Category'],
        [260, 'G2'],
      ]);
      // An interpretation's bulleted list: no row, the bullet is no value.
      row(doc, 270, [[36, 'Decreased Levels']]);
      row(doc, 286, [
        [54, '·'],
        [72, 'Inadequate exposure to sunlight'],
      ]);
      row(doc, 302, [
        [54, '·'],
        [72, 'Dietary deficiency'],
      ]);
    });
    const outcome = await runPipeline(bytes, { anyLab: true });
    expect(namesOf(outcome)).toEqual(['Albumin', 'A : G Ratio', 'Glucose Fasting, Plasma', 'GFR Category']);
    if (outcome.status !== 'completed') throw new Error('not completed');
    // G2 mixes a letter and a digit as a category does, not as a misread number does.
    expect(outcome.result.panels.flatMap((p) => p.panelResults.flatMap((r) => r.doubts ?? []))).toEqual([]);
  });

  it('keeps a group label out of its first row where notes follow that row (DLC over its counts)', async () => {
    const bytes = await pdf((doc) => {
      header(doc);
      const at = (y: number, cells: Array<[number, string]>, size = 9.6) => row(doc, y - 120, cells, size);
      at(241, [
        [35, 'Test Name'],
        [281, 'Result'],
        [344, 'Biological Ref. Interval'],
        [528, 'Unit'],
      ]);
      at(283, [[36, 'COMPLETE BLOOD COUNT, EDTA WHOLE BLOOD']]);
      at(298, [
        [36, 'HEMOGLOBIN (HB)'],
        [282, '15.6'],
        [344, '13.5 - 18.5'],
        [528, 'gm/dL'],
      ]);
      at(309, [[36, 'Sample: Whole Blood EDTA']], 6.5);
      at(325, [
        [36, 'TOTAL LEUCOCYTE COUNT (TLC)'],
        [282, '9300'],
        [344, '4000 - 11000'],
      ]);
      at(338, [[36, 'Sample: Whole Blood EDTA']], 8.4);
      at(354, [[36, 'DIFFERENTIAL LEUCOCYTE COUNT (DLC)']]);
      at(369, [
        [48, 'NEUTROPHILS'],
        [282, '60'],
        [344, '40 - 70'],
        [528, '%'],
      ]);
      at(381, [[36, 'Sample: Whole Blood EDTA']], 8.4);
      at(393, [[36, 'Method: VCS Technology & Microscopy']], 8.4);
      at(
        411,
        [
          [48, 'LYMPHOCYTES'],
          [282, '30'],
          [344, '20 - 45'],
          [528, '%'],
        ],
        10.1,
      );
      at(421, [[36, 'Sample: Whole Blood EDTA']], 6.5);
      at(429, [[36, 'Method: VCS Technology & Microscopy']], 6.5);
      const more: Array<[number, string, string, string]> = [
        [448, 'EOSINOPHILS', '4', '1 - 6'],
        [484, 'MONOCYTES', '5', '1 - 8'],
        [521, 'BASOPHILS', '1', '0 - 1'],
      ];
      for (const [y, name, value, range] of more) {
        at(
          y,
          [
            [48, name],
            [282, value],
            [344, range],
            [528, '%'],
          ],
          10.1,
        );
        at(y + 9, [[36, 'Sample: Whole Blood EDTA']], 6.5);
        at(y + 18, [[36, 'Method: VCS Technology & Microscopy']], 6.5);
      }
      at(556, [
        [36, 'RBC COUNT'],
        [282, '4.8'],
        [344, '4.0 - 6.0'],
        [528, 'mill/cumm'],
      ]);
      at(567, [[36, 'Sample: Whole Blood EDTA']], 6.5);
    });
    const outcome = await runPipeline(bytes, { anyLab: true });
    expect(namesOf(outcome)).toEqual([
      'HEMOGLOBIN (HB)',
      'TOTAL LEUCOCYTE COUNT (TLC)',
      'NEUTROPHILS',
      'LYMPHOCYTES',
      'EOSINOPHILS',
      'MONOCYTES',
      'BASOPHILS',
      'RBC COUNT',
    ]);
  });

  it('files the first rows under the label above them, though it is set a little smaller than they are', async () => {
    const bytes = await pdf((doc) => {
      header(doc);
      row(doc, 130, [
        [36, 'TEST DESCRIPTION'],
        [260, 'RESULT'],
        [360, 'UNITS'],
        [450, 'REFERENCE RANGE'],
      ]);
      row(doc, 150, [[36, 'LIPID PROFILE']], 9.75);
      const rows: Array<[string, string, string, string]> = [
        ['S. CHOLESTEROL', '185', 'mg/dL', '0 - 200'],
        ['SERUM TRIGLYCERIDE', '145', 'mg/dL', '0 - 190'],
        ['HDL CHOLESTEROL', '55', 'mg/dL', '35 - 65'],
      ];
      rows.forEach(([name, value, unit, range], i) => {
        row(
          doc,
          165 + i * 14,
          [
            [36, name],
            [260, value],
            [360, unit],
            [450, range],
          ],
          10.25,
        );
      });
    });
    const outcome = await runPipeline(bytes, { anyLab: true });
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    expect(outcome.result.panels.map((p) => [p.panelName, p.panelResults.length])).toEqual([
      ['LIPID PROFILE', 3],
    ]);
  });

  it('takes no range for a result whose cell was left empty, under a header whose range label is clipped', async () => {
    // A US hospital's "Normal | Abnormal" columns, with the range's label clipped to "Refer" by its cell,
    // as a scan reads it; the abnormal results sit in shaded cells that a scan can lose entirely.
    const bytes = await pdf((doc) => {
      header(doc);
      row(doc, 130, [
        [36, 'Test'],
        [220, 'Normal'],
        [270, 'Abnormal'],
        [345, 'Flag'],
        [405, 'Units'],
        [480, 'Refer'],
      ]);
      row(doc, 150, [[36, 'COMPLETE BLOOD COUNT']]);
      const rows: Array<[string, string, string, string]> = [
        ['White Blood Cell (WBC)', '6.9', 'K/mcL', '4.8-10.8'],
        ['Red Blood Cell (RBC)', '', 'M/mcL', '4.7-6.1'],
        ['Platelet count', '180', 'K/mcL', '150-450'],
        ['Hematocrit (HCT)', '', '%', '42-52'],
      ];
      rows.forEach(([name, value, unit, range], i) => {
        row(doc, 168 + i * 14, [
          [36, name],
          [220, value],
          [405, unit],
          [480, range],
        ]);
      });
    });
    const outcome = await runPipeline(bytes, { anyLab: true });
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    const rows = outcome.result.panels.flatMap((p) => p.panelResults);
    expect(rows.map((r) => [r.biomarker, r.resultValue, r.referenceRangeText])).toEqual([
      ['White Blood Cell (WBC)', '6.9', '4.8-10.8'],
      ['Red Blood Cell (RBC)', null, '4.7-6.1'],
      ['Platelet count', '180', '150-450'],
      ['Hematocrit (HCT)', null, '42-52'],
    ]);
    // Said, on each row: a result not read is no result read wrong.
    expect(
      outcome.result.validationFlags.filter((f) => f.code === 'missing_result_value').map((f) => f.resultId),
    ).toEqual(['p1-red-blood-cell-rbc-1', 'p1-hematocrit-hct-1']);
  });
});
