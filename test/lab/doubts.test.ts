/**
 * Row doubts (src/lab/pipeline/table/doubts.ts, doubt-cells.ts, doubt-words.ts): each detector on synthetic rows,
 * what it must catch and the clean shapes it must leave alone, and the committed text-layer fixtures,
 * which must come out (nearly) free of doubts.
 */
import { describe, expect, it } from 'vitest';
import { extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { detectVendor } from '../../src/lab/pipeline/screen/vendor-detect.js';
import {
  isCutResultWord,
  isQualitativeRange,
  isResultWord,
} from '../../src/lab/pipeline/table/doubt-words.js';
import { documentStyle, ROW_DOUBT_CODES, rowDoubts } from '../../src/lab/pipeline/table/doubts.js';
import { parseReport } from '../../src/lab/pipeline/table/parse-report.js';
import type { ParsedRow } from '../../src/lab/types.js';
import { manifest, pdfBytes } from './fixture-files.js';
import { parsedRow } from './support/parsed-row.js';

const OCR = { repaired: false, confidence: 96 } as const;

const row = parsedRow;

/** The codes of the row's doubts: warnings and errors only, as PanelResult.doubts carries them. */
const doubts = (over: Partial<ParsedRow>): string[] =>
  rowDoubts(row(over))
    .filter((f) => f.severity !== 'info')
    .map((f) => f.code);
const ocr = (over: Partial<ParsedRow>): string[] => doubts({ ...over, ocr: OCR });

describe('unit_unrecognised', () => {
  it('doubts a unit that is neither UCUM nor a known lab unit, on any row', () => {
    for (const unit of ['me/db', 'g/dc', 'UL', 'celis/uL', 'x1LOE 3/uL', 'mg/di']) {
      expect(doubts({ resultUnit: unit }), unit).toEqual(['unit_unrecognised']);
      expect(ocr({ resultUnit: unit }), unit).toEqual(['unit_unrecognised']);
    }
  });

  it('doubts, on OCR rows, a unit only rewriting makes out, and a one-letter unit', () => {
    // A test the catalogue does not know: whether the unit's kind fits it is no question here.
    for (const unit of ['mmol/L.', 'G/L.', 'Million/uL.', 'mg/d', 's'])
      expect(ocr({ biomarker: 'Widget Index', resultUnit: unit }), unit).toEqual(['unit_unrecognised']);
    // The same printed on a text layer are what the lab printed: read through, not doubted.
    for (const unit of ['mmol/L.', 'mg/d', 's']) expect(doubts({ resultUnit: unit }), unit).toEqual([]);
  });

  it('leaves units labs print alone, and kit units UCUM only annotates', () => {
    for (const unit of [
      'mg/dL',
      'x10E3/uL',
      'Thousand/uL',
      '%',
      '% of total Hgb',
      'mL/min/1.73m2',
      '/HPF',
      'uIU/mL',
      'units',
      'EU/mL',
      'INR',
    ]) {
      expect(doubts({ resultUnit: unit }), unit).toEqual([]);
      expect(ocr({ biomarker: 'Widget Index', resultUnit: unit }), unit).toEqual([]);
    }
    expect(doubts({ resultUnit: null })).toEqual([]);
  });
});

describe('ocr_unit_missing', () => {
  it('doubts an OCR number read without a unit beside a range in numbers', () => {
    expect(ocr({ resultUnit: null })).toEqual(['ocr_unit_missing']);
    expect(
      ocr({ biomarker: 'AST (SGOT)', resultValue: '16', resultUnit: null, referenceRangeText: '0-40' }),
    ).toEqual(['ocr_unit_missing']);
  });

  it('leaves tests without a unit, words, and text-layer rows alone', () => {
    for (const biomarker of ['A/G Ratio', 'CHOL/HDLC RATIO', 'pH', 'SPECIFIC GRAVITY', 'LP-IR Score'])
      expect(
        ocr({ biomarker, resultValue: '1.2', resultUnit: null, referenceRangeText: '1.0-2.5' }),
        biomarker,
      ).toEqual([]);
    expect(ocr({ resultValue: 'NEGATIVE', resultUnit: null, referenceRangeText: 'NEGATIVE' })).toEqual([]);
    expect(doubts({ resultUnit: null })).toEqual([]);
  });
});

describe('range_suspect', () => {
  it('doubts a range whose low bound is above its high one, on any row', () => {
    expect(doubts({ referenceRangeText: '99-65' })).toEqual(['range_suspect']);
  });

  it('doubts, on OCR rows, bounds ten times apart that a lost point or a gained digit explains', () => {
    expect(ocr({ biomarker: 'ALBUMIN', resultValue: '45', referenceRangeText: '36-521' })).toEqual([
      'range_suspect',
    ]);
    expect(
      ocr({ biomarker: 'PH', resultValue: '5.8', resultUnit: null, referenceRangeText: '5.0-75' }),
    ).toEqual(['range_suspect']);
  });

  it('doubts, on OCR rows, numbers the range parser cannot read, and a bare number beside a word range', () => {
    expect(ocr({ resultValue: '0.4', resultUnit: 'mg/L', referenceRangeText: '—<1.0' })).toEqual([
      'range_suspect',
    ]);
    // The unit run into the range: the range unreadable, the unit lost.
    expect(ocr({ resultValue: '6.8', resultUnit: null, referenceRangeText: '5.7% of total Hgb' })).toEqual([
      'range_suspect',
      'ocr_unit_missing',
    ]);
    expect(
      ocr({ biomarker: 'KETONES', resultValue: '7', resultUnit: null, referenceRangeText: 'Negative' }),
    ).toEqual(['range_suspect']);
  });

  it('leaves ranges wide by nature, and text-layer ranges, alone', () => {
    // Ferritin, TSH, IgE: bounds ten times apart, the value well inside.
    expect(ocr({ resultValue: '123', resultUnit: 'ng/mL', referenceRangeText: '15-150' })).toEqual([]);
    expect(ocr({ resultValue: '156', resultUnit: 'ng/mL', referenceRangeText: '38-380' })).toEqual([]);
    expect(ocr({ resultValue: '3.155', resultUnit: 'uIU/mL', referenceRangeText: '0.450-4.500' })).toEqual(
      [],
    );
    expect(ocr({ resultValue: '63', referenceRangeText: '0-99' })).toEqual([]);
    expect(
      ocr({ biomarker: 'PH', resultValue: '5.8', resultUnit: null, referenceRangeText: '5.0-7.5' }),
    ).toEqual([]);
    expect(ocr({ resultValue: 'NEGATIVE', resultUnit: null, referenceRangeText: 'Negative' })).toEqual([]);
    expect(ocr({ resultValue: '0.2', resultUnit: 'mg/dL', referenceRangeText: 'Negative' })).toEqual([]);
    expect(ocr({ resultValue: '1.69', referenceRangeText: 'See note' })).toEqual([]);
    // A text layer prints what the lab printed: only a reversed range is doubted there.
    expect(doubts({ resultValue: '45', referenceRangeText: '36-521' })).toEqual([]);
    expect(doubts({ resultValue: '5.8', resultUnit: null, referenceRangeText: '5.0-75' })).toEqual([]);
    expect(doubts({ resultValue: '7', resultUnit: null, referenceRangeText: 'Negative' })).toEqual([]);
  });
});

describe('comparator_lost', () => {
  it('doubts a number that is the strict bound of its range, unflagged, on any row', () => {
    expect(doubts({ resultValue: '0.2', resultUnit: 'mg/L', referenceRangeText: '<0.2' })).toEqual([
      'comparator_lost',
    ]);
    expect(doubts({ resultValue: '60', resultUnit: 'mL/min/1.73m2', referenceRangeText: '>60' })).toEqual([
      'comparator_lost',
    ]);
  });

  it('doubts, on OCR rows, the bound behind a digit a comparator is misread as', () => {
    const egfr = { resultUnit: 'mL/min/1.73m2', referenceRangeText: '> OR = 60' };
    expect(ocr({ ...egfr, resultValue: '260' })).toEqual(['comparator_lost']);
    expect(ocr({ resultValue: '20.2', resultUnit: 'mg/L', referenceRangeText: '<0.2' })).toContain(
      'comparator_lost',
    );
  });

  it('leaves a value at an inclusive bound, a flagged one, and a value with its comparator alone', () => {
    expect(doubts({ resultValue: '5', resultUnit: '/HPF', referenceRangeText: '< OR = 5' })).toEqual([]);
    expect(doubts({ resultValue: '0.2', resultUnit: 'mg/L', referenceRangeText: '<0.2', flag: 'H' })).toEqual(
      [],
    );
    expect(ocr({ resultValue: '<0.2', resultUnit: 'mg/L', referenceRangeText: '<1.0' })).toEqual([]);
    expect(ocr({ resultValue: '>60', resultUnit: 'mL/min/1.73m2', referenceRangeText: '> OR = 60' })).toEqual(
      [],
    );
    expect(ocr({ resultValue: '104', resultUnit: 'mL/min/1.73', referenceRangeText: '>59' })).toEqual([]);
    expect(
      doubts({ resultValue: '260', resultUnit: 'mL/min/1.73m2', referenceRangeText: '> OR = 60' }),
    ).toEqual([]);
  });
});

describe('value_truncated', () => {
  it('doubts the start of a result word or phrase, or its last words, on any row', () => {
    for (const value of ['SEE', 'NEGATI', 'NOT', 'Non', 'SEEN', 'Pale']) {
      expect(doubts({ resultValue: value, resultUnit: null }), value).toEqual(['value_truncated']);
      expect(ocr({ resultValue: value, resultUnit: null }), value).toEqual(['value_truncated']);
    }
  });

  it('leaves whole words, and letters too few to tell a cut from a speck, alone', () => {
    for (const value of ['NEGATIVE', 'NEG', 'SEE NOTE:', 'Low', 'NO', 'None seen', 'TRACE'])
      expect(isCutResultWord(value), value).toBe(false);
    expect(isCutResultWord('ue')).toBe(false);
  });
});

describe('ocr_malformed_value: words no report prints as a result', () => {
  it('doubts OCR garbles of three letters and more, stray marks on words, and a leading zero', () => {
    for (const value of ['Sot', 'FEWA', 'Negative.', '.NEGATIVE', 'Yelow', '05'])
      expect(ocr({ resultValue: value, referenceRangeText: null }), value).toEqual(['ocr_malformed_value']);
  });

  it('leaves the result words and shapes labs print alone', () => {
    for (const value of [
      'NEGATIVE',
      'Non-Reactive',
      'NONREACTIVE',
      'Not Detected',
      'NONE SEEN',
      'SEE NOTE:',
      'See below',
      'PENDING',
      'TNP',
      'DNR',
      'QNS',
      'CLEAR',
      'Pale Yellow',
      'AMBER',
      'TRACE',
      'Few',
      'Moderate',
      'MANY',
      'NOT APPLICABLE',
      'O POS',
      'AB Rh Negative',
      'A+',
      '1:40',
      '2+',
      '0-2',
      'Nil',
      'Normocytic Normochromic',
      'Adequate',
      'Neutrophilia',
      // A susceptibility, as antibiograms print it.
      'S(++)',
      'S(++++)',
      'Resistant',
    ])
      expect(ocr({ resultValue: value, resultUnit: null, referenceRangeText: null }), value).toEqual([]);
    expect(isResultWord('Equivocal')).toBe(true);
    // A letter alone is a blood group only for a blood-group test.
    expect(
      ocr({ biomarker: 'ABO Group', resultValue: 'O', resultUnit: null, referenceRangeText: null }),
    ).toEqual([]);
    expect(
      ocr({ biomarker: 'ALT', resultValue: 'A', resultUnit: 'U/L', referenceRangeText: '6-29' }),
    ).toEqual(['ocr_malformed_value']);
  });

  it('takes a text layer word as printed', () => {
    expect(doubts({ resultValue: 'Sot', resultUnit: null, referenceRangeText: null })).toEqual([]);
  });
});

describe('how the document prints decides two doubts', () => {
  const cbc = (over: Array<Partial<ParsedRow>>): ParsedRow[] =>
    over.map((o) => row({ resultUnit: '%', ocr: OCR, ...o }));
  const codes = (r: ParsedRow, rows: ParsedRow[]) =>
    rowDoubts(r, documentStyle(rows))
      .filter((f) => f.severity !== 'info')
      .map((f) => f.code);

  it('reads no flag beside several results outside their ranges as a lab that prints none', () => {
    const rows = cbc([
      { biomarker: 'Neutrophils', resultValue: '84', referenceRangeText: '40-75' },
      { biomarker: 'Lymphocytes', resultValue: '12', referenceRangeText: '20-45' },
      { biomarker: 'Monocytes', resultValue: '4', referenceRangeText: '2-8' },
    ]);
    expect(documentStyle(rows).printsFlags).toBe(false);
    for (const r of rows) expect(codes(r, rows), r.biomarker).toEqual([]);
  });

  it('still doubts the one unflagged result outside its range, and any where the lab flags others', () => {
    const lone = cbc([
      { biomarker: 'Neutrophils', resultValue: '84', referenceRangeText: '40-75' },
      { biomarker: 'Monocytes', resultValue: '4', referenceRangeText: '2-8' },
    ]);
    expect(codes(lone[0] as ParsedRow, lone)).toEqual(['ocr_flag_disagrees']);
    const flagging = cbc([
      { biomarker: 'Neutrophils', resultValue: '84', referenceRangeText: '40-75' },
      { biomarker: 'Lymphocytes', resultValue: '12', referenceRangeText: '20-45', flag: 'L' },
      { biomarker: 'Monocytes', resultValue: '9', referenceRangeText: '2-8' },
    ]);
    expect(codes(flagging[0] as ParsedRow, flagging)).toEqual(['ocr_flag_disagrees']);
    expect(codes(flagging[1] as ParsedRow, flagging)).toEqual([]);
  });

  it('doubts a result far outside its range where the lab prints no flags', () => {
    const rows = cbc([
      { biomarker: 'Hemoglobin', resultValue: '429', resultUnit: 'g/dl', referenceRangeText: '13.5-17.5' },
      { biomarker: 'Lymphocytes', resultValue: '12', referenceRangeText: '20-45' },
      { biomarker: 'Platelets', resultValue: '44', resultUnit: 'x10³/ul', referenceRangeText: '150-410' },
      { biomarker: 'Neutrophils', resultValue: '84', referenceRangeText: '40-75' },
      { biomarker: 'CRP', resultValue: '0.1', resultUnit: 'mg/L', referenceRangeText: '0-5' },
    ]);
    expect(codes(rows[0] as ParsedRow, rows)).toEqual(['ocr_far_outside_range']);
    expect(codes(rows[2] as ParsedRow, rows)).toEqual(['ocr_far_outside_range']);
    // Outside, but within a factor of two of its bound, or below a bound of zero: a result.
    for (const r of [rows[1], rows[3], rows[4]] as ParsedRow[])
      expect(codes(r, rows), r.biomarker).toEqual([]);
  });

  it('doubts a measured result read without the range its report prints beside the others', () => {
    const rows = cbc([
      { biomarker: 'Neutrophils', resultValue: '64', referenceRangeText: '40-75' },
      { biomarker: 'Lymphocytes', resultValue: '30', referenceRangeText: null },
      { biomarker: 'Monocytes', resultValue: '4', referenceRangeText: '2-8' },
      { biomarker: 'Eosinophils', resultValue: '2', referenceRangeText: '1-6' },
      { biomarker: 'Basophils', resultValue: '0', referenceRangeText: '0-1' },
    ]);
    expect(codes(rows[1] as ParsedRow, rows)).toEqual(['ocr_range_missing']);
    // Where ranges are printed here and there, a result without one is ordinary; so is a block of rows
    // printed without (Quest's differential percentages), and the last row of the report.
    const sparse = rows.map((r, i) => (i < 3 ? { ...r, referenceRangeText: null } : r));
    expect(codes(sparse[1] as ParsedRow, sparse)).toEqual([]);
    const block = [...rows, ...rows].map((r, i) =>
      i === 1 || i === 2 ? { ...r, referenceRangeText: null } : r,
    );
    expect(codes(block[1] as ParsedRow, block)).toEqual([]);
    const last = [...rows.slice(0, 4), { ...(rows[4] as ParsedRow), referenceRangeText: null }];
    expect(codes(last[4] as ParsedRow, last)).toEqual([]);
  });

  it('takes counts padded to two digits as the layout only where several rows print them', () => {
    const padded = cbc([
      { biomarker: 'Eosinophils', resultValue: '03', referenceRangeText: '1-6' },
      { biomarker: 'Basophils', resultValue: '00', referenceRangeText: '0-1' },
    ]);
    for (const r of padded) expect(codes(r, padded), r.biomarker).toEqual([]);
    const lone = cbc([
      { biomarker: 'Eosinophils', resultValue: '05', referenceRangeText: null },
      { biomarker: 'Basophils', resultValue: '1', referenceRangeText: '0-1' },
    ]);
    expect(codes(lone[0] as ParsedRow, lone)).toContain('ocr_malformed_value');
    expect(codes(padded[0] as ParsedRow, [...padded, row({ resultValue: '012.5', ocr: OCR })])).toEqual([]);
    expect(codes(row({ resultValue: '012.5', ocr: OCR }), padded)).toContain('ocr_malformed_value');
  });
});

describe('a point read as a dash, and a scrap for a range', () => {
  it('doubts an OCR value "0-2" whose dash, read as a point, lands in its range; not urine microscopy', () => {
    const eos = { biomarker: 'Eos (Absolute)', resultValue: '0-2', resultUnit: 'x10E3/uL' };
    expect(ocr({ ...eos, referenceRangeText: '0.0-0.4' })).toEqual(['ocr_value_like_range']);
    expect(ocr({ resultValue: '0-2', resultUnit: '/hpf', referenceRangeText: '0-5' })).toEqual([]);
    expect(doubts({ resultValue: '0-2', resultUnit: 'x10E3/uL', referenceRangeText: '0.0-0.4' })).toEqual([]);
  });

  it('doubts an OCR range of one to three letters that is no range in words', () => {
    expect(ocr({ resultValue: '1.2', resultUnit: 'ng/mL', referenceRangeText: 'EN' })).toEqual([
      'range_suspect',
    ]);
    // With a mark beside the letters: a photo's range column read "27 - 32" as "Wy)".
    expect(ocr({ resultValue: '1.2', resultUnit: 'ng/mL', referenceRangeText: 'Wy)' })).toEqual([
      'range_suspect',
    ]);
    // "N/A" is printed for no range: no scrap.
    expect(ocr({ resultValue: '1.2', resultUnit: 'ng/mL', referenceRangeText: 'N/A' })).toEqual([]);
    expect(
      ocr({ biomarker: 'Protein', resultValue: 'Nil', resultUnit: null, referenceRangeText: 'Nil' }),
    ).toEqual([]);
    expect(doubts({ resultValue: '1.2', resultUnit: 'ng/mL', referenceRangeText: 'EN' })).toEqual([]);
  });
});

describe("ocr_unit_of_another_kind: a neighbouring row's cells", () => {
  it('doubts a unit of another kind than every test the name can mean, on OCR rows only', () => {
    // A photographed CBC whose values drift a row off their names: MCV's 86.6 fL beside PCV.
    expect(
      ocr({ biomarker: 'PCV/HCT', resultValue: '86.6', resultUnit: 'fL', referenceRangeText: '41 - 53' }),
    ).toContain('ocr_unit_of_another_kind');
    expect(
      ocr({
        biomarker: 'Haemoglobin',
        resultValue: '250',
        resultUnit: 'x10^9/L',
        referenceRangeText: '13-17',
      }),
    ).toContain('ocr_unit_of_another_kind');
    expect(
      doubts({ biomarker: 'PCV/HCT', resultValue: '86.6', resultUnit: 'fL', referenceRangeText: '41 - 53' }),
    ).toEqual([]);
  });

  it('leaves a test in SI units, a name that is a per cent and a count, and an unknown test alone', () => {
    const kinds = (biomarker: string, resultUnit: string) =>
      ocr({ biomarker, resultValue: '5', resultUnit, referenceRangeText: '1-10' }).filter(
        (code) => code === 'ocr_unit_of_another_kind',
      );
    expect(kinds('Glucose', 'mmol/L')).toEqual([]);
    expect(kinds('Hemoglobin', 'g/dL')).toEqual([]);
    expect(kinds('Neutrophils', '%')).toEqual([]);
    expect(kinds('Neutrophils', 'x10E3/uL')).toEqual([]);
    expect(kinds('MCV', 'fL')).toEqual([]);
    expect(kinds('Zonulin', 'fL')).toEqual([]);
  });
});

describe('ocr_unit_unlike_page: a letter lost from a unit the page spells otherwise', () => {
  const enzymes = (alp: string, ocrRows = true): ParsedRow[] =>
    [
      { biomarker: 'AST', resultUnit: 'IU/L' },
      { biomarker: 'ALT', resultUnit: 'IU/L' },
      { biomarker: 'Alkaline Phosphatase', resultUnit: alp },
    ].map((o) =>
      row({ ...o, resultValue: '30', referenceRangeText: '0-40', ...(ocrRows ? { ocr: OCR } : {}) }),
    );
  const codes = (r: ParsedRow, rows: ParsedRow[]) =>
    rowDoubts(r, documentStyle(rows))
      .filter((f) => f.severity !== 'info')
      .map((f) => f.code);

  it("doubts the one scanned row spelt unlike two of the page's others of that unit", () => {
    const rows = enzymes('U/L');
    expect(rows.map((r) => codes(r, rows))).toEqual([[], [], ['ocr_unit_unlike_page']]);
  });

  it('leaves a page that spells them alike, an even split, and a text layer alone', () => {
    const alike = enzymes('IU/L');
    expect(alike.flatMap((r) => codes(r, alike))).toEqual([]);
    const even = enzymes('U/L').slice(1);
    expect(even.flatMap((r) => codes(r, even))).toEqual([]);
    const text = enzymes('U/L', false);
    expect(text.flatMap((r) => codes(r, text))).toEqual([]);
  });

  it('leaves a unit more than a character from the habit alone: another unit the name shares', () => {
    const rows = [
      { biomarker: 'Hemoglobin A1c', resultUnit: '% of total Hgb' },
      { biomarker: 'Hematocrit', resultUnit: '%' },
      { biomarker: 'Neutrophils', resultUnit: '%' },
      { biomarker: 'WBC', resultUnit: 'Thousand/uL' },
      { biomarker: 'Platelet Count', resultUnit: 'Thousand/uL' },
      { biomarker: 'WBC', resultUnit: '/HPF' },
    ].map((o) => row({ ...o, resultValue: '5', referenceRangeText: '1-10', ocr: OCR }));
    expect(rows.flatMap((r) => codes(r, rows))).not.toContain('ocr_unit_unlike_page');
  });
});

describe('ocr_extra_digit and ocr_cells_missing', () => {
  it('doubts an OCR value printed to one decimal more than its range, ending in a zero', () => {
    expect(ocr({ resultValue: '5.00', resultUnit: 'mmol/L', referenceRangeText: '3.5-5.3' })).toEqual([
      'ocr_extra_digit',
    ]);
    expect(ocr({ resultValue: '5.0', resultUnit: 'mmol/L', referenceRangeText: '3.5-5.3' })).toEqual([]);
    expect(ocr({ resultValue: '32.0', resultUnit: 'ng/mL', referenceRangeText: '30-100' })).toEqual([]);
    expect(doubts({ resultValue: '5.00', resultUnit: 'mmol/L', referenceRangeText: '3.5-5.3' })).toEqual([]);
  });

  it('doubts an OCR value printed to two decimals more than its range, whatever its last digit', () => {
    expect(ocr({ resultValue: '3.355', resultUnit: 'pg/mL', referenceRangeText: '2.3-4.2' })).toEqual([
      'ocr_extra_digit',
    ]);
    expect(ocr({ resultValue: '3.35', resultUnit: 'pg/mL', referenceRangeText: '2.3-4.2' })).toEqual([]);
    expect(doubts({ resultValue: '3.355', resultUnit: 'pg/mL', referenceRangeText: '2.3-4.2' })).toEqual([]);
  });

  it('doubts an OCR number read with neither unit nor range', () => {
    expect(ocr({ resultValue: '18', resultUnit: null, referenceRangeText: null })).toEqual([
      'ocr_cells_missing',
    ]);
    expect(ocr({ resultValue: '18', resultUnit: 'ng/mL', referenceRangeText: null })).toEqual([]);
    expect(
      ocr({ biomarker: 'PH', resultValue: '5.8', resultUnit: null, referenceRangeText: '5.0-7.5' }),
    ).toEqual([]);
    expect(doubts({ resultValue: '18', resultUnit: null, referenceRangeText: null })).toEqual([]);
  });
});

describe('row doubts in general', () => {
  it('reads qualitative ranges, single and paired', () => {
    expect(isQualitativeRange('Negative')).toBe(true);
    expect(isQualitativeRange('None seen/Few')).toBe(true);
    expect(isQualitativeRange('Not Estab.')).toBe(false);
  });

  it('raises only codes it declares, and names at most the biomarker', () => {
    const rows = [
      row({ resultUnit: 'me/db', referenceRangeText: '99-65', resultValue: '0.2' }),
      row({ resultValue: 'SEE', resultUnit: 'NOTE:', referenceRangeText: '36-521', ocr: OCR }),
      row({ resultValue: 'Sot', resultUnit: 's', referenceRangeText: '—<1.0', ocr: OCR }),
      row({ resultValue: '260', resultUnit: null, referenceRangeText: '> OR = 60', ocr: OCR }),
      row({ resultValue: '18', resultUnit: null, referenceRangeText: null, ocr: OCR }),
      row({ resultValue: '5.80', resultUnit: null, referenceRangeText: '5.0-75', ocr: OCR }),
    ];
    for (const r of rows) {
      const flags = rowDoubts(r);
      expect(flags.length, JSON.stringify(r)).toBeGreaterThan(0);
      for (const f of flags) {
        expect(ROW_DOUBT_CODES.has(f.code), f.code).toBe(true);
        expect(f.pageNumber).toBe(1);
        expect(f.message).toContain('GLUCOSE');
        // Texts of three characters and more: a one-letter unit is in any sentence.
        for (const printed of [r.resultValue, r.resultUnit, r.referenceRangeText])
          if (printed && printed.length >= 3) expect(f.message, f.code).not.toContain(printed);
      }
    }
  });
});

describe('text-layer fixtures carry (nearly) no row doubts', () => {
  const supported = manifest().filter((entry) => entry.expect.status === 'completed');

  it('doubts at most 1% of the rows of the committed text fixtures', async () => {
    let rows = 0;
    const doubted: string[] = [];
    for (const entry of supported) {
      const layout = await extractLayout(pdfBytes(entry.name));
      const report = parseReport(layout, detectVendor(layout).vendor ?? 'generic');
      for (const r of report.panels.flatMap((panel) => panel.rows)) {
        rows++;
        const codes = rowDoubts(r)
          .filter((f) => f.severity !== 'info')
          .map((f) => f.code);
        if (codes.length > 0)
          doubted.push(`${entry.name} p${r.pageNumber} ${r.biomarker}: ${codes.join(', ')}`);
      }
    }
    expect(rows).toBeGreaterThan(500);
    expect(doubted.length / rows, doubted.join('\n')).toBeLessThanOrEqual(0.01);
  });
});
