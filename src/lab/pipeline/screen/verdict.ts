/**
 * The words of a rejection: one sentence a person can act on (SPEC.md B5 gives only the reason code) and
 * the evidence the verdict rests on, for `--explain`. Counts, categories and laboratory names only: never a
 * date, a name or any other text of the document, which could identify the person.
 */
import type { RejectionExplained, RejectionReason, Vendor } from '../../types.js';

export interface VerdictFacts {
  pages: number;
  resultRows: number;
  minResultRows: number;
  signatures: Record<Vendor, number>;
  labName: string | null;
  collectionDates: number;
  dayFirstDates: number;
  monthFirstDates: number;
}

export function explainRejection(reason: RejectionReason, facts: VerdictFacts): RejectionExplained {
  return { rejection_detail: detail(reason, facts), rejection_evidence: evidence(facts) };
}

function detail(reason: RejectionReason, f: VerdictFacts): string {
  switch (reason) {
    case 'non_lab_document':
      return `Found ${f.resultRows} ${f.resultRows === 1 ? 'line' : 'lines'} shaped like a lab result (a test name with a value and a unit or range) in ${f.pages} ${f.pages === 1 ? 'page' : 'pages'}; a results report prints at least ${f.minResultRows}.`;
    case 'non_supported_lab':
      return f.labName
        ? `The performing laboratory is ${f.labName}, not Quest Diagnostics or Labcorp; --any-lab (anyLab) reads other laboratories.`
        : 'No Quest Diagnostics or Labcorp signature (footer, letterhead, performing site) and no other laboratory name was found; --any-lab (anyLab) reads other laboratories.';
    case 'multiple_collection_dates':
      return `The document states ${f.collectionDates} different collection dates; a report must cover one visit: split it into one file per visit.`;
    case 'non_us_document':
      return f.monthFirstDates > 0
        ? `Dates are printed both day first (${f.dayFirstDates}) and month first (${f.monthFirstDates}), so no one reading of them holds.`
        : `${f.dayFirstDates} ${f.dayFirstDates === 1 ? 'date is' : 'dates are'} printed day first (the day above 12 stands before the month), so the dates cannot be read as US dates; --any-lab reads such a document's dates day first.`;
    case 'non_english_document':
      return 'The text is not in English.';
  }
}

function evidence(f: VerdictFacts): string[] {
  const signed = (Object.entries(f.signatures) as Array<[Vendor, number]>).filter(([, n]) => n > 0);
  return [
    `pages: ${f.pages}`,
    `result-shaped lines: ${f.resultRows} (a report has at least ${f.minResultRows})`,
    `vendor signatures: ${signed.length > 0 ? signed.map(([v, n]) => `${v} on ${n} ${n === 1 ? 'page' : 'pages'}`).join(', ') : 'none'}`,
    `laboratory named: ${f.labName ?? 'none found'}`,
    `collection dates stated: ${f.collectionDates} distinct`,
    `day-first dates: ${f.dayFirstDates}, month-first dates: ${f.monthFirstDates}`,
  ];
}
