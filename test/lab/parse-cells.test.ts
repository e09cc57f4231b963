import { describe, expect, it } from 'vitest';
import { cellKind } from '../../src/lab/pipeline/table/cell-kind.js';
import { splitFlag } from '../../src/lab/pipeline/table/flags.js';
import { columnRole, isColumnLabel, readHeader } from '../../src/lab/pipeline/table/header.js';
import { splitRangeAndUnit } from '../../src/lab/pipeline/table/range-unit.js';

describe('splitFlag', () => {
  it.each([
    ['120 H', '120', 'H'],
    ['10.5 L', '10.5', 'L'],
    ['TRACE A', 'TRACE', 'A'],
    ['10-20 A', '10-20', 'A'],
    ['30 High', '30', 'High'],
    ['22.9 Low', '22.9', 'Low'],
    ['1+ Abnormal', '1+', 'Abnormal'],
    ['NONE SEEN', 'NONE SEEN', null],
    ['NOT APPLICABLE', 'NOT APPLICABLE', null],
    ['87', '87', null],
    // A lone word is the value: blood group A is no flag.
    ['A', 'A', null],
    // Bracketed flags, as printed and as a scan reads their brackets, are the letter they hold.
    ['27.20 [L]', '27.20', 'L'],
    ['9 (L)', '9', 'L'],
    ['10560 (H)', '10560', 'H'],
    ['3.19 [LJ', '3.19', 'L'],
    ['6.9 [lL]', '6.9', 'L'],
    ['5.1 (L', '5.1', 'L'],
    ['140 [H)', '140', 'H'],
    ['140 {H]', '140', 'H'],
    ['2.1 [LL]', '2.1', 'LL'],
    ['14.1 ↑', '14.1', 'H'],
    ['3.2 ↓', '3.2', 'L'],
    // Starred flags: one star, or two for a critical value; kept as printed.
    ['7.1 H*', '7.1', 'H*'],
    ['6.5 L**', '6.5', 'L**'],
    ['6.5 L***', '6.5 L***', null],
    // Brackets that hold no flag letter, or two different ones, are left with the value.
    ['4.2 [HL]', '4.2 [HL]', null],
    ['12 (calc)', '12 (calc)', null],
    ['6.0 (Y]', '6.0 (Y]', null],
  ])('%j -> value %j, flag %j', (text, value, flag) => {
    expect(splitFlag(text)).toEqual({ value, flag });
  });

  it('reads an empty cell as no value', () => {
    expect(splitFlag('  ')).toEqual({ value: null, flag: null });
  });
});

describe('splitRangeAndUnit (Quest reference range column)', () => {
  it.each([
    ['65-99 mg/dL', '65-99', 'mg/dL'],
    ['> OR = 40 mg/dL', '> OR = 40', 'mg/dL'],
    ['> OR = 60 mL/min/1.73m2', '> OR = 60', 'mL/min/1.73m2'],
    ['<200 mg/dL (calc)', '<200', 'mg/dL'],
    ['<5.0 calc', '<5.0', null],
    ['6-22 (calc)', '6-22', null],
    ['1.0-2.5 (calc)', '1.0-2.5', null],
    ['<5.7 % of total Hgb', '<5.7', '% of total Hgb'],
    ['3.8-10.8 Thousand/uL', '3.8-10.8', 'Thousand/uL'],
    ['< OR = 5 /HPF', '< OR = 5', '/HPF'],
    ['NONE SEEN /HPF', 'NONE SEEN', '/HPF'],
    ['NEGATIVE', 'NEGATIVE', null],
    ['YELLOW', 'YELLOW', null],
    ['1.001-1.035', '1.001-1.035', null],
    ['%', null, '%'],
    ['mg/dL', null, 'mg/dL'],
    ['', null, null],
    // A scan loses the narrow space before the unit.
    ['<OR =39pg/mL', '<OR =39', 'pg/mL'],
    ['3.5-5.3mmol/L', '3.5-5.3', 'mmol/L'],
    // "1 IU/mL" or "11 U/mL": the last digit may be the unit's I, so it is left whole (and flagged).
    ['< or = 11U/mL', '< or = 11U/mL', null],
  ])('%j -> range %j, unit %j', (text, range, unit) => {
    expect(splitRangeAndUnit(text)).toEqual({ range, unit });
  });
});

describe('columnRole', () => {
  it.each([
    ['Test', 'name'],
    ['TESTS', 'name'],
    ['Test Name', 'name'],
    ['Analyte', 'name'],
    ['Analyte Name', 'name'],
    ['Component', 'name'],
    ['Examination', 'name'],
    ['Result', 'value'],
    ['RESULT', 'value'],
    ['Current Result and Flag', 'value'],
    ['Your Value', 'value'],
    ['In Range', 'value'],
    ['Out Of Range', 'value'],
    ['Out Range', 'value'],
    ['Finding', 'value'],
    ['Flag', 'flag'],
    ['Abnormal', 'flag'],
    ['Units', 'unit'],
    ['UOM', 'unit'],
    ['Reference Range', 'range'],
    ['REFERENCE INTERVAL', 'range'],
    ['Standard Range', 'range'],
    ['Normal Range', 'range'],
    ['Previous Result and Date', 'previous'],
    ['Historical', 'previous'],
    ['Lab', 'lab'],
    ['Site', 'lab'],
    ['Result & Risk', 'risk'],
  ])('%s -> %s', (label, role) => {
    expect(columnRole(label)).toBe(role);
  });

  it('reads "Normal | Abnormal" side by side as two result columns, each alone as a range and a flag', () => {
    const header = (...labels: string[]) =>
      readHeader({
        pageNumber: 1,
        y: 100,
        font: 11,
        raised: [],
        cells: labels.map((text, i) => ({ x: 50 + i * 80, text })),
      });
    const roles = (found: ReturnType<typeof header>) => found?.columns.map((c) => c.role);
    expect(roles(header('Test', 'Normal', 'Abnormal', 'Flag', 'Units'))).toEqual([
      'name',
      'value',
      'value',
      'flag',
      'unit',
    ]);
    expect(roles(header('Test', 'Result', 'Normal', 'Units'))).toEqual(['name', 'value', 'range', 'unit']);
    expect(roles(header('Test', 'Result', 'Abnormal', 'Units'))).toEqual(['name', 'value', 'flag', 'unit']);
  });

  it('recognises no column in ordinary text', () => {
    expect(columnRole('Glucose')).toBeNull();
    expect(columnRole('87')).toBeNull();
    expect(columnRole('This result should be interpreted with the reference range in mind')).toBeNull();
  });
});

describe('isColumnLabel', () => {
  it.each([
    ['Reference Range'],
    ['In Range'],
    ['Out Of Range'],
    ['Previous Result and Date'],
    ['Abnormal Flag'],
    ['Flag'],
  ])('%s is a column label', (label) => expect(isColumnLabel(label)).toBe(true));

  it.each([['ABNORMAL CELLS'], ['Glucose'], ['Test Name'], ['Result Interpretation Note Cells']])(
    '%s is no column label',
    (label) => expect(isColumnLabel(label)).toBe(false),
  );
});

describe('cellKind', () => {
  it.each([
    ['87', 'number'],
    ['1,250', 'number'],
    ['2+', 'number'],
    ['<10', 'bounded'],
    ['< OR = 4.0', 'bounded'],
    ['>=30.5', 'bounded'],
    ['0.0-1.2', 'interval'],
    ['65 H', 'valueFlag'],
    ['27.20 [L]', 'valueFlag'],
    ['3.19 [LJ', 'valueFlag'],
    ['(L)', 'flag'],
    ['<1.0 L', 'valueFlag'],
    ['High', 'flag'],
    ['10-50 nmol/L', 'rangeUnit'],
    ['>25 % (calc)', 'rangeUnit'],
    ['x10E3/uL', 'unit'],
    ['mL/min/1.73', 'unit'],
    ['/HPF', 'unit'],
    ['02/27/2025', 'date'],
    ['Collected: 11/13/2024 03:32 PM UTC', 'date'],
    ['Dir: Someone, MD', 'label'],
    // A ratio of two letters is a name, not a label.
    ['A : G Ratio', 'text'],
    ['A:G', 'text'],
    ['NEGATIVE', 'text'],
  ])('%j -> %s', (text, kind) => {
    expect(cellKind(text)).toBe(kind);
  });
});
