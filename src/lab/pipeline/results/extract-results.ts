/**
 * Parse + normalise: what a completed extraction reports about the results themselves. The job pipeline
 * calls this after the language, PHI and validation stages, with the PHI-redacted layout, and adds the lab
 * name, collection date and DOB verification it found on the way.
 */

import type { ExtractionCore, LabPanel, MergeAction, Vendor } from '../../types.js';
import type { DocumentLayout } from '../pdf/pdf-text.js';
import { parseReport } from '../table/parse-report.js';
import { normalisePanels } from './normalise.js';

export interface ExtractResultsOptions {
  vendor: Vendor | 'generic';
  dateCollected: string | null;
}

export type ExtractedResults = Omit<ExtractionCore, 'labName' | 'verification' | 'dateCollected'>;

export function extractResults(layout: DocumentLayout, opts: ExtractResultsOptions): ExtractedResults {
  const parsed = parseReport(layout, opts.vendor);
  const panels = normalisePanels(parsed.panels, { dateCollected: opts.dateCollected });
  return {
    panels,
    mergeActions: parsed.mergeActions.map((merge) => withPanelCode(merge, panels)),
    validationFlags: parsed.validationFlags,
    coverage: parsed.coverage,
  };
}

/** Merges are found while parsing, before codes exist; each takes the code of the panel it merged into. */
function withPanelCode(merge: MergeAction, panels: readonly LabPanel[]): MergeAction {
  const panel = panels.find((p) => p.panelName === merge.panelName && p.pageNumber === merge.intoPage);
  return { ...merge, panelCode: panel?.panelCode ?? '' };
}
