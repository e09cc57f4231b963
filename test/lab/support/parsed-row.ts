import type { ParsedRow } from '../../../src/lab/types.js';

/** A parsed result row as the table walk leaves it: glucose 87 mg/dL, 65-99, page 1, unless overridden. */
export const parsedRow = (over: Partial<ParsedRow> = {}): ParsedRow => ({
  biomarker: 'GLUCOSE',
  resultValue: '87',
  resultUnit: 'mg/dL',
  referenceRangeText: '65-99',
  flag: null,
  pageNumber: 1,
  ...over,
});
