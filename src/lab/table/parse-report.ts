/**
 * Parse stage of lab extraction: a document's layout -> panels of result rows as printed, the merges of
 * panels continued across pages, and the doubts met on the way. Terminology comes later (normalise.ts).
 */
import type { DocumentLayout } from '../pdf-text.js';
import type { MergeAction, ParsedPanel, ValidationFlag, Vendor } from '../types.js';
import { noTableFlag } from './doubts.js';
import { genericProfile } from './generic.js';
import { labcorpProfile } from './labcorp.js';
import type { VendorProfile } from './profile.js';
import { questProfile } from './quest.js';
import { parseTable } from './table-parser.js';

export interface ParsedReport {
  panels: ParsedPanel[];
  /** panelCode is '' here: codes are assigned when panels are normalised. */
  mergeActions: MergeAction[];
  validationFlags: ValidationFlag[];
}

const PROFILES: Record<Vendor | 'generic', VendorProfile> = {
  quest: questProfile,
  labcorp: labcorpProfile,
  generic: genericProfile,
};

export function parseReport(layout: DocumentLayout, vendor: Vendor | 'generic'): ParsedReport {
  const { panels, validationFlags } = parseTable(layout, PROFILES[vendor]);
  const flags = panels.length === 0 ? [noTableFlag(), ...validationFlags] : validationFlags;
  return { panels, mergeActions: panels.flatMap(mergesOf), validationFlags: flags };
}

/** One merge per later page a panel's rows continue on, counting the rows printed there. */
export function mergesOf(panel: ParsedPanel): MergeAction[] {
  const counts = new Map<number, number>();
  for (const row of panel.rows) {
    if (row.pageNumber !== panel.pageNumber)
      counts.set(row.pageNumber, (counts.get(row.pageNumber) ?? 0) + 1);
  }
  return [...counts].map(([fromPage, resultCount]) => ({
    action: 'merge_continued_panel',
    panelName: panel.panelName,
    panelCode: '',
    fromPage,
    intoPage: panel.pageNumber,
    resultCount,
  }));
}
