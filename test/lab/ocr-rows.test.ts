import { describe, expect, it } from 'vitest';
import { lostDash, repairOcrRows } from '../../src/lab/pipeline/table/ocr-rows.js';
import { joinsUnit, unitReading } from '../../src/lab/pipeline/table/ocr-units.js';
import type { ParsedPanel, ParsedRow } from '../../src/lab/types.js';

const row = (biomarker: string, ocr = true): ParsedRow => ({
  biomarker,
  resultValue: '6.9',
  resultUnit: '%',
  referenceRangeText: '4.8-5.6',
  flag: null,
  pageNumber: 2,
  ...(ocr ? { ocr: { repaired: false, confidence: 99 } } : {}),
});

describe('OCR rows put right against the catalogues', () => {
  it('reads a per cent look-alike as "%" only on a row whose value and range are percentages, flagged', () => {
    const pct = (unit: string, value: string, range: string): ParsedRow => ({
      ...row('Neutrophils'),
      resultUnit: unit,
      resultValue: value,
      referenceRangeText: range,
    });
    const panels: ParsedPanel[] = [
      {
        panelName: 'P',
        pageNumber: 1,
        rows: [
          pct('Yo', '78.3', '40-80'),
          pct('*o', '18.7', '11.6-14'),
          pct('Yo', '250', '150-400'),
          pct('Yo', '78.3', ''),
        ],
      },
    ];
    const flags = repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => r.resultUnit)).toEqual(['%', '%', 'Yo', 'Yo']);
    expect(flags.map((f) => f.code)).toEqual(['ocr_repaired', 'ocr_repaired']);
  });

  it('reads a sign read as a letter or two as "%" only on a test reported in per cent, with per cent numbers', () => {
    const rows: ParsedRow[] = [
      { ...row('Lymphocytes'), resultUnit: 'My', resultValue: '13.7', referenceRangeText: '20-40' },
      { ...row('olymorphs'), resultUnit: 'of,', resultValue: '83', referenceRangeText: '40-75' },
      { ...row('Eosinophils'), resultUnit: '9%,', resultValue: '2', referenceRangeText: '1-6' },
      // Not a per cent test, or not per cent numbers: left as read.
      { ...row('Platelet Count'), resultUnit: 'My', resultValue: '250', referenceRangeText: '150-400' },
      { ...row('Lymphocytes'), resultUnit: 'My', resultValue: '1.6', referenceRangeText: '1-300' },
    ];
    const panels: ParsedPanel[] = [{ panelName: 'P', pageNumber: 1, rows }];
    repairOcrRows(panels);
    expect(rows.map((r) => [r.biomarker, r.resultUnit])).toEqual([
      ['Lymphocytes', '%'],
      ['Polymorphs', '%'],
      ['Eosinophils', '%'],
      ['Platelet Count', 'My'],
      ['Lymphocytes', 'My'],
    ]);
  });

  it('puts back the one reading the catalogue knows, in the row and its single-test panel, and flags it', () => {
    const panels: ParsedPanel[] = [
      { panelName: 'HEMOGLOBIN Alc', pageNumber: 2, rows: [row('HEMOGLOBIN Alc')] },
      { panelName: 'Comp. Metabolic Panel (14)', pageNumber: 1, rows: [row('AIG Ratio')] },
      { panelName: 'GLYCOSYLATED HEMOGLOBIN', pageNumber: 3, rows: [row('HbAic')] },
    ];
    const flags = repairOcrRows(panels);
    expect(panels.map((p) => [p.panelName, p.rows[0]?.biomarker])).toEqual([
      ['HEMOGLOBIN A1c', 'HEMOGLOBIN A1c'],
      ['Comp. Metabolic Panel (14)', 'A/G Ratio'],
      ['GLYCOSYLATED HEMOGLOBIN', 'HbA1c'],
    ]);
    expect(flags).toEqual([
      expect.objectContaining({ code: 'ocr_repaired', pageNumber: 2 }),
      expect.objectContaining({ code: 'ocr_repaired', pageNumber: 2 }),
      expect.objectContaining({ code: 'ocr_repaired', message: expect.stringContaining('HbA1c') }),
    ]);
  });

  it('reads a dotted abbreviation whose initial OCR took for a look-alike ("W.6.C.Count", "M.P.¥."), flagged', () => {
    const panels: ParsedPanel[] = [
      {
        panelName: 'HAEMOGRAM',
        pageNumber: 1,
        rows: [row('W.6.C.Count'), row('M.P.¥.'), row('Omega-6 Index')],
      },
    ];
    const flags = repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => r.biomarker)).toEqual(['W.B.C.Count', 'M.P.V.', 'Omega-6 Index']);
    expect(flags.map((f) => f.code)).toEqual(['ocr_repaired', 'ocr_repaired']);
  });

  it('takes a footnote mark read into the last letter off a name, when that gives a known name, flagged', () => {
    const panels: ParsedPanel[] = [
      {
        panelName: 'P',
        pageNumber: 2,
        rows: [row('Alkaline Phosphatase7'), row('Apolipoprotein A1'), row('Zorblax7')],
      },
    ];
    const flags = repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => r.biomarker)).toEqual([
      'Alkaline Phosphatase',
      'Apolipoprotein A1',
      'Zorblax7',
    ]);
    expect(flags.map((f) => [f.code, f.pageNumber])).toEqual([['ocr_repaired', 2]]);
  });

  it('leaves known names, names read from a text layer, and names no swap makes known', () => {
    const panels: ParsedPanel[] = [
      { panelName: 'P', pageNumber: 1, rows: [row('Glucose'), row('Hemoglobin Alc', false), row('Zorblax')] },
    ];
    expect(repairOcrRows(panels)).toEqual([]);
    expect(panels[0]?.rows.map((r) => r.biomarker)).toEqual(['Glucose', 'Hemoglobin Alc', 'Zorblax']);
  });

  it('spells an OCR unit as the unit catalogue does where only spacing or same-shape case differ, unflagged', () => {
    const unit = (resultUnit: string, ocr = true): ParsedRow => ({ ...row('WBC', ocr), resultUnit });
    const panels: ParsedPanel[] = [
      {
        panelName: 'CBC',
        pageNumber: 1,
        rows: [
          unit('X10E 3/uL'),
          unit('Pg'),
          unit('fl'),
          unit('MG/DL'),
          unit('widgets/uL'),
          unit('X10E 3/uL', false),
        ],
      },
    ];
    expect(repairOcrRows(panels)).toEqual([]);
    expect(panels[0]?.rows.map((r) => r.resultUnit)).toEqual([
      'x10E3/uL',
      'pg',
      // The document's other units show a capital L ("X10E 3/uL"): the laboratory prints L.
      'fL',
      'MG/DL',
      'widgets/uL',
      'X10E 3/uL',
    ]);
  });

  it('repairs a unit the catalogue does not know to the one it knows a look-alike swap away, flagged', () => {
    // A test of no known kind: every unit is a reading it could have.
    const unit = (resultUnit: string): ParsedRow => ({ ...row('Widget Index'), resultUnit });
    const panels: ParsedPanel[] = [
      {
        panelName: 'P',
        pageNumber: 2,
        rows: [unit('ulU/mL'), unit('x1OE 3/uL'), unit('/npf'), unit('qq/zz')],
      },
    ];
    const flags = repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => [r.resultUnit, r.ocr?.repaired])).toEqual([
      ['uIU/mL', true],
      ['x10E3/uL', true],
      ['/hpf', true],
      ['qq/zz', false],
    ]);
    expect(flags.map((f) => [f.code, f.pageNumber])).toEqual([
      ['ocr_repaired', 2],
      ['ocr_repaired', 2],
      ['ocr_repaired', 2],
    ]);
  });

  it('respells a small l as L only on a document whose other units show the capital', () => {
    const unit = (resultUnit: string): ParsedRow => ({ ...row('MPV'), resultUnit });
    const printsL: ParsedPanel[] = [{ panelName: 'CBC', pageNumber: 1, rows: [unit('fl'), unit('mg/dL')] }];
    const printsSmall: ParsedPanel[] = [
      { panelName: 'CBC', pageNumber: 1, rows: [unit('fl'), unit('g/dl')] },
    ];
    repairOcrRows(printsL);
    repairOcrRows(printsSmall);
    expect(printsL[0]?.rows.map((r) => r.resultUnit)).toEqual(['fL', 'mg/dL']);
    expect(printsSmall[0]?.rows.map((r) => r.resultUnit)).toEqual(['fl', 'g/dl']);
    // Every laboratory spells mmol/L with a capital: it says nothing of how this one prints dL.
    const mixed: ParsedPanel[] = [{ panelName: 'P', pageNumber: 1, rows: [unit('mmol/L'), unit('mg/dl')] }];
    repairOcrRows(mixed);
    expect(mixed[0]?.rows.map((r) => r.resultUnit)).toEqual(['mmol/L', 'mg/dl']);
  });

  it('keeps a unit capitalised as a word is ("Seconds"), where a small unit\'s case is respelt ("Pg")', () => {
    const unit = (resultUnit: string): ParsedRow => ({ ...row('Widget Index'), resultUnit });
    const panels: ParsedPanel[] = [{ panelName: 'P', pageNumber: 1, rows: [unit('Seconds'), unit('Pg')] }];
    repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => r.resultUnit)).toEqual(['Seconds', 'pg']);
  });

  it('reads a slash read as a letter ("jul", "ful") and "%" with a speck after it ("%o"), flagged', () => {
    const unit = (resultUnit: string, ocr = true): ParsedRow => ({ ...row('Widget Index', ocr), resultUnit });
    const panels: ParsedPanel[] = [
      {
        panelName: 'P',
        pageNumber: 2,
        rows: [
          unit('jul'),
          unit('Jul'),
          unit('ful'),
          unit('%o'),
          unit('fL'),
          unit('jul', false),
          unit('%oo'),
        ],
      },
    ];
    const flags = repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => [r.resultUnit, r.ocr?.repaired])).toEqual([
      // The slash put back; the L as the document's other units ("fL") print it.
      ['/uL', true],
      ['/uL', true],
      ['/uL', true],
      ['%', true],
      ['fL', false],
      ['jul', undefined],
      ['%oo', false],
    ]);
    expect(flags.map((f) => [f.code, f.pageNumber])).toEqual(Array(4).fill(['ocr_repaired', 2]));
  });

  it("gives Quest's '< OR = 5' bounds back the spaces OCR drops", () => {
    const bound = (referenceRangeText: string, ocr = true): ParsedRow => ({
      ...row('WBC', ocr),
      referenceRangeText,
    });
    const panels: ParsedPanel[] = [
      {
        panelName: 'P',
        pageNumber: 1,
        rows: [bound('<OR =5'), bound('>or=60'), bound('3.4-10.8'), bound('<OR =5', false)],
      },
    ];
    repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => r.referenceRangeText)).toEqual([
      '< OR = 5',
      '> or = 60',
      '3.4-10.8',
      '<OR =5',
    ]);
  });

  it("puts right without a doubt a unit one edit from a spelling of the test's usual unit", () => {
    const rows: ParsedRow[] = [
      { ...row('Cholesterol, Total'), resultUnit: 'mg/dL' },
      // One edit from mg/dL, glucose's usual unit: a spelling put right.
      { ...row('Glucose'), resultUnit: 'mq/dL' },
      { ...row('T4, Free'), resultUnit: 'ng/di' },
      // Two edits, a test the catalogue does not know, or the document printing a unit of another
      // meaning within reach ("UL" is U/L, ALP's usual unit, or the IU/L the page prints): flagged.
      { ...row('Glucose'), resultUnit: 'meg/db' },
      { ...row('Zonulin'), resultUnit: 'mq/dL' },
      { ...row('AST (SGOT)'), resultUnit: 'IU/L' },
      { ...row('Alkaline Phosphatase'), resultUnit: 'UL' },
    ];
    const flags = repairOcrRows([{ panelName: 'P', pageNumber: 2, rows }]);
    expect(rows.map((r) => [r.resultUnit, r.ocr?.repaired])).toEqual([
      ['mg/dL', false],
      ['mg/dL', false],
      ['ng/dL', false],
      ['mg/dL', true],
      ['mg/dL', true],
      ['IU/L', false],
      ['U/L', true],
    ]);
    expect(flags).toHaveLength(3);
  });

  it('takes no look-alike reading of another kind than the test: "gid" on haemoglobin is no g/d', () => {
    const rows: ParsedRow[] = [
      { ...row('Hemoglobin'), resultUnit: 'gid' },
      // A test of no known kind keeps the swap's reading.
      { ...row('Widget Index'), resultUnit: 'gid' },
    ];
    repairOcrRows([{ panelName: 'P', pageNumber: 1, rows }]);
    expect(rows.map((r) => [r.resultUnit, r.ocr?.repaired])).toEqual([
      ['g/dL', true],
      ['g/d', true],
    ]);
  });

  it('spaces a dash OCR spaced on one side only on both, and leaves dashes spaced alike', () => {
    const ranges = ['8.5- 10.5', '3.5 -5.5', '90-105', '13.5 - 18.5', '4000- 11000'];
    const rows = ranges.map((referenceRangeText) => ({ ...row('WBC'), referenceRangeText }));
    const text = { ...row('WBC', false), referenceRangeText: '8.5- 10.5' };
    repairOcrRows([{ panelName: 'P', pageNumber: 1, rows: [...rows, text] }]);
    expect([...rows, text].map((r) => r.referenceRangeText)).toEqual([
      '8.5 - 10.5',
      '3.5 - 5.5',
      '90-105',
      '13.5 - 18.5',
      '4000 - 11000',
      '8.5- 10.5',
    ]);
  });

  it("reads a garbled unit as the nearest unit the document prints elsewhere or the test's usual unit", () => {
    const rows: ParsedRow[] = [
      // Read whole elsewhere on the document: the laboratory's own spellings.
      { ...row('Cholesterol, Total'), resultUnit: 'mg/dL' },
      { ...row('AST (SGOT)'), resultUnit: 'IU/L' },
      { ...row('Albumin'), resultUnit: 'g/dL' },
      { ...row('HDL Cholesterol'), resultUnit: 'meg/db' },
      { ...row('Protein, Total'), resultUnit: 'g/di' },
      { ...row('ALT (SGPT)'), resultUnit: 'W/L' },
      // A look-alike swap is half an edit: IU/L as the document prints it, not U/L; µg/dL, not mg/dL.
      { ...row('Alkaline Phosphatase'), resultUnit: '1U/L' },
      { ...row('T4, Total'), resultUnit: 'yg/dL' },
      // Nothing near on the document: the catalogue's spellings of the test's usual unit.
      { ...row('MCH'), resultUnit: 'Ps' },
      // Too far from anything, as near two units of which neither is the test's usual one, or a unit in
      // its own right (g/d, grams a day): left as read.
      { ...row('Ferritin'), resultUnit: 'qq/zzz' },
      { ...row('Zonulin'), resultUnit: 'xg/dL' },
      { ...row('Protein, Total'), resultUnit: 'g/d' },
    ];
    const panels: ParsedPanel[] = [{ panelName: 'P', pageNumber: 3, rows }];
    const flags = repairOcrRows(panels);
    expect(rows.map((r) => [r.resultUnit, r.ocr?.repaired])).toEqual([
      ['mg/dL', false],
      ['IU/L', false],
      ['g/dL', false],
      // Two edits: flagged. One edit from the test's usual unit: put right, unflagged, unless the page
      // prints another test of that usual unit otherwise (AST in IU/L, ALT's W/L read U/L).
      ['mg/dL', true],
      ['g/dL', false],
      ['U/L', true],
      // The document's spelling, not the test's usual unit (U/L): flagged.
      ['IU/L', true],
      // Read by the micro sign's look-alike (y), a swap: flagged as every swap is.
      ['µg/dL', true],
      ['pg', false],
      ['qq/zzz', false],
      ['xg/dL', false],
      ['g/d', false],
    ]);
    expect(flags.filter((f) => f.code === 'ocr_repaired')).toHaveLength(4);
  });

  it('reads a unit the catalogue lacks but the normaliser knows only when the catalogue gives no reading', () => {
    expect(unitReading('cellsfcumm')).toBe('cells/cumm');
    expect(unitReading('jul')).toBe('/ul');
    expect(unitReading('zzz')).toBeNull();
  });

  it('reads a slash read as an i or lost between letters, and a c read as o or e, keeping the spaces', () => {
    expect(unitReading('gidl')).toBe('g/dl');
    expect(unitReading('millicumm')).toBe('mill/cumm');
    expect(unitReading('milcumm')).toBe('mil/cumm');
    expect(unitReading('Lakhs /omm')).toBe('Lakhs /cmm');
    expect(unitReading('Lakhs /emm')).toBe('Lakhs /cmm');
    // A micro sign read as a y (a real Indian clinic's scan: thyroid and iron units).
    expect(unitReading('yIU/mL')).toBe('µIU/mL');
    expect(unitReading('yg/dL')).toBe('µg/dL');
    // A caret read as a degree sign, alone or with a look-alike beside it.
    expect(unitReading('*10°9/l')).toBe('*10^9/l');
    expect(unitReading('10°9/1')).toBe('10^9/l');
    // Too short to place a lost slash in: a wrapped unit's first part must stay unknown (joinsUnit).
    expect(unitReading('mill')).toBeNull();
    // One character says too little: "0" is not taken for "d" (day).
    expect(unitReading('0')).toBeNull();
    expect(joinsUnit('mill', '/cumm')).toBe(true);
  });

  it('reads a long misread name as the one printed name an edit or two away, cased as read, flagged', () => {
    const panels: ParsedPanel[] = [
      {
        panelName: 'P',
        pageNumber: 1,
        rows: [
          row('olymorphs'),
          row('o1ymorphs'),
          row('Haemoglobn'),
          row('ABSOLUTE EOSINOPHIL CUNT'),
          row('ymphs'),
          row('xyzzyq'),
        ],
      },
    ];
    const flags = repairOcrRows(panels);
    expect(panels[0]?.rows.map((r) => [r.biomarker, r.ocr?.repaired])).toEqual([
      ['Polymorphs', true],
      ['Polymorphs', true],
      // Nearest to HAEMOGLOBIN (one edit); HEMOGLOBIN, also a spelling of another test, is two away.
      ['Haemoglobin', true],
      ['ABSOLUTE EOSINOPHIL COUNT', true],
      // Too short to tell from other names ("Lymphs" is one edit away): left as read.
      ['ymphs', false],
      ['xyzzyq', false],
    ]);
    expect(flags.map((f) => f.code)).toEqual(Array(4).fill('ocr_repaired'));
  });

  it('leaves a name as read where two tests lie as near, none near enough, or its words are all known', () => {
    // "eutrophils" is an edit from NEUTROPHILS, a spelling of both the per cent and the absolute count.
    // "Epithelial Cells (non": three edits from EPITHELIAL CELLS and from EPITHELIAL CELLS (UA), too far.
    // "Platelets Count": one edit from PLATELET COUNT, but every word of it is one laboratories print.
    const names = ['eutrophils', 'Epithelial Cells (non', 'Platelets Count'];
    const panels: ParsedPanel[] = [{ panelName: 'P', pageNumber: 1, rows: names.map((name) => row(name)) }];
    expect(repairOcrRows(panels)).toEqual([]);
    expect(panels[0]?.rows.map((r) => r.biomarker)).toEqual(names);
  });

  it('splits a range read as one number with two decimal points where its dash was lost', () => {
    expect(lostDash('1.54.5')).toBe('1.5-4.5');
    expect(lostDash('4.56.2')).toBe('4.5-6.2');
    expect(lostDash('0.1000.500')).toBe('0.100-0.500');
    // The low bound must come first, and a plain number or a range as printed is left alone.
    expect(lostDash('9.51.2')).toBeNull();
    expect(lostDash('12.5')).toBeNull();
    expect(lostDash('1.5-4.5')).toBeNull();
    const panels: ParsedPanel[] = [
      { panelName: 'P', pageNumber: 1, rows: [{ ...row('Platelet Count'), referenceRangeText: '1.54.5' }] },
    ];
    expect(repairOcrRows(panels).map((f) => f.code)).toEqual(['ocr_repaired']);
    expect(panels[0]?.rows[0]?.referenceRangeText).toBe('1.5-4.5');
  });

  it('joins a wrapped unit only when the first part alone is no unit and the two together are', () => {
    expect(joinsUnit('cellsfcum', 'm')).toBe(true);
    expect(joinsUnit('cells/cumm', 'm')).toBe(false);
    expect(joinsUnit('mg/dL', 'dL')).toBe(false);
    expect(joinsUnit('zz', 'q')).toBe(false);
  });
});
