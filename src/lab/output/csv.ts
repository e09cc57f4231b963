/**
 * Extraction results as CSV for pandas, R and SQL: one row per result, RFC 4180 (CRLF line ends, fields
 * quoted when they hold a comma, a quote or a line break, quotes doubled). The file column names the PDF
 * each row came from, so one CSV can hold a whole batch; the last two name the row and its doubts.
 *
 * No cell is a formula when the file is opened in a spreadsheet (OWASP's CSV-injection rule): a cell that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a single quote before it and is quoted.
 * A plain number (`-2`, `+1.5`, `-1e-3`) is left as it is: a spreadsheet reads it as a number, never as a
 * formula, and a negative base excess or bound must stay numeric for pandas and R.
 */
import type { ExtractionCore, PanelResult } from '../types.js';

export const CSV_COLUMNS = [
  'file',
  'panel',
  'panel_loinc',
  'biomarker',
  'value',
  'value_type',
  'unit',
  'ucum',
  'loinc',
  'loinc_match',
  'ucum_match',
  'ref_low',
  'ref_high',
  'ref_text',
  'flag',
  'page',
  'date_collected',
  'id',
  'doubts',
] as const;

export interface CsvSource {
  file: string;
  result: ExtractionCore;
}

export function toCsv(sources: readonly CsvSource[]): string {
  const rows: string[][] = [[...CSV_COLUMNS]];
  for (const { file, result } of sources) {
    for (const panel of result.panels) {
      for (const r of panel.panelResults)
        rows.push(rowOf(file, panel.panelName, panel.panelCode, panel.dateCollected, r));
    }
  }
  return `${rows.map((row) => row.map(quote).join(',')).join('\r\n')}\r\n`;
}

function rowOf(file: string, panel: string, panelCode: string, date: string, r: PanelResult): string[] {
  return [
    file,
    panel,
    panelCode,
    r.biomarker,
    r.resultValue ?? '',
    r.resultType,
    r.resultUnit ?? '',
    r.ucumCode ?? '',
    r.loincCode ?? '',
    r.loincMatchType ?? '',
    r.ucumMatchMethod ?? '',
    r.minRefRangeValue === null ? '' : String(r.minRefRangeValue),
    r.maxRefRangeValue === null ? '' : String(r.maxRefRangeValue),
    r.referenceRangeText ?? '',
    r.flag ?? '',
    r.pageNumber === null ? '' : String(r.pageNumber),
    date,
    r.id ?? '',
    // Codes only, ';'-separated: one cell a spreadsheet filter or `str.contains` can test.
    (r.doubts ?? []).map((d) => d.code).join(';'),
  ];
}

/** What a spreadsheet may take for the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function quote(field: string): string {
  if (FORMULA_START.test(field) && !PLAIN_NUMBER.test(field)) return `"'${field.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}
