/**
 * Review revisions: what a person changed about an extraction, kept apart from it. The extracted result
 * is never rewritten; the reviewed result is the extracted one with its revisions replayed in order, so
 * the original, every change, who made it and when all stay readable. Pure: storage is elsewhere
 * (job-reviews.ts for jobs, file-reviews.ts for result files).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { parseReferenceRange, resultTypeOf } from '../lab/pipeline/results/ranges.js';
import type { ExtractionCore, LabPanel, PanelResult } from '../lab/types.js';
import { matchLoinc } from '../terminology/loinc-match.js';
import { normaliseUnit } from '../terminology/ucum.js';

export const REVIEW_ACTIONS = ['accept', 'edit', 'not_a_result'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** The fields a reviewer may correct: what is printed; codes and bounds are derived from them. */
export interface RowChanges {
  resultValue?: string | null;
  resultUnit?: string | null;
  referenceRangeText?: string | null;
  biomarker?: string;
}

export interface Revision {
  id: string;
  /** ISO 8601 time the change was saved. */
  at: string;
  /** 'cli', or the id of the API key that made it under `serve`: who, never a secret. */
  by: string;
  resultId: string;
  action: ReviewAction;
  changes?: RowChanges;
}

/** What a reviewed row carries: the last revision that touched it. */
export interface RowReview {
  at: string;
  by: string;
  action: ReviewAction;
  revision: string;
}

export type ReviewedPanelResult = PanelResult & { reviewed?: RowReview };

/** A summary on the reviewed result, so a reader can tell a reviewed result from an extracted one. */
export interface ReviewSummary {
  revisions: number;
  lastAt: string;
  rowsReviewed: number;
  rowsRemoved: number;
}

/**
 * Any extraction result: what review reads of SPEC.md B3, whatever else the caller's body carries (jobId,
 * status, coverage) is kept as it is.
 */
export type AnyResult = Pick<ExtractionCore, 'panels' | 'validationFlags'>;

// A printed value, unit or range is short; a bound keeps a stored revision list small and readable.
const text = z.string().trim().max(200);
const nullableText = z.union([text, z.null()]).transform((v) => (v === '' ? null : v));

export const revisionInputSchema = z
  .object({
    resultId: z.string().min(1).max(200),
    action: z.enum(REVIEW_ACTIONS),
    changes: z
      .object({
        resultValue: nullableText.optional(),
        resultUnit: nullableText.optional(),
        referenceRangeText: nullableText.optional(),
        biomarker: text.min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((r) => r.action !== 'edit' || (r.changes && Object.keys(r.changes).length > 0), {
    message: 'An edit needs at least one change (resultValue, resultUnit, referenceRangeText, biomarker).',
  });

export type RevisionInput = z.infer<typeof revisionInputSchema>;

export function newRevision(input: RevisionInput, by: string, now = new Date()): Revision {
  return {
    id: randomUUID(),
    at: now.toISOString(),
    by,
    resultId: input.resultId,
    action: input.action,
    ...(input.action === 'edit' && input.changes ? { changes: input.changes } : {}),
  };
}

/**
 * Results written before rows had ids get one from their place (panel and row index), so they can still
 * be reviewed; the same document always gives the same ids.
 */
export function withRowIds<T extends AnyResult>(result: T): T {
  if (result.panels.every((p) => p.panelResults.every((r) => r.id))) return result;
  return {
    ...result,
    panels: result.panels.map((panel, p) => ({
      ...panel,
      panelResults: panel.panelResults.map((row, r) => (row.id ? row : { ...row, id: `r${p + 1}-${r + 1}` })),
    })),
  };
}

/** Every row id of a result, in document order. */
export function rowIds(result: AnyResult): string[] {
  return withRowIds(result).panels.flatMap((p) => p.panelResults.map((r) => r.id ?? ''));
}

/**
 * The reviewed result: `result` with `revisions` replayed in order. An accepted or edited row loses its
 * doubts (and the validation flags that name it) and carries `reviewed`; a row marked not-a-result is left
 * out, until a later accept or edit brings it back (undo). Revisions naming no row are skipped: a result
 * re-extracted with other ids must not fail to read. With no revisions the result comes back unchanged.
 */
export function applyRevisions<T extends AnyResult>(result: T, revisions: readonly Revision[]): T {
  if (revisions.length === 0) return result;
  const base = withRowIds(result);
  const rows = new Map<string, ReviewedPanelResult>();
  const panelOf = new Map<string, string>();
  for (const panel of base.panels)
    for (const row of panel.panelResults) {
      rows.set(row.id ?? '', row);
      panelOf.set(row.id ?? '', panel.panelName);
    }
  const removed = new Set<string>();
  const touched = new Set<string>();
  let applied = 0;
  let lastAt = '';
  for (const rev of revisions) {
    const row = rows.get(rev.resultId);
    if (!row) continue;
    applied += 1;
    lastAt = rev.at;
    touched.add(rev.resultId);
    if (rev.action === 'not_a_result') {
      removed.add(rev.resultId);
      continue;
    }
    removed.delete(rev.resultId);
    const edited =
      rev.action === 'edit' && rev.changes ? withChanges(row, rev.changes, panelOf.get(rev.resultId)) : row;
    rows.set(rev.resultId, {
      ...edited,
      doubts: [],
      reviewed: { at: rev.at, by: rev.by, action: rev.action, revision: rev.id },
    });
  }
  if (applied === 0) return result;
  const panels: LabPanel[] = base.panels
    .map((panel) => ({
      ...panel,
      panelResults: panel.panelResults
        .filter((r) => !removed.has(r.id ?? ''))
        .map((r) => rows.get(r.id ?? '') ?? r),
    }))
    .filter((panel) => panel.panelResults.length > 0);
  const review: ReviewSummary = {
    revisions: applied,
    lastAt,
    rowsReviewed: [...touched].filter((id) => !removed.has(id)).length,
    rowsRemoved: removed.size,
  };
  return {
    ...base,
    panels,
    // A resolved row's doubts are answered; flags about other rows, or the whole document, stay.
    validationFlags: base.validationFlags.filter((f) => !f.resultId || !touched.has(f.resultId)),
    review,
  };
}

/**
 * A row with printed fields corrected and what derives from them recomputed: the type from the value,
 * bounds from the range, the UCUM code from the unit, and LOINC from the name and unit. A code is only
 * recomputed when its inputs changed, so a match made by a configured LLM endpoint is not replaced by the
 * offline matcher's answer for an edit that did not touch it.
 */
export function withChanges(row: PanelResult, changes: RowChanges, panelName?: string): PanelResult {
  const next: PanelResult = { ...row };
  if (changes.resultValue !== undefined) {
    next.resultValue = changes.resultValue;
    next.resultType = resultTypeOf(changes.resultValue);
  }
  if (changes.referenceRangeText !== undefined) {
    next.referenceRangeText = changes.referenceRangeText;
    const bounds = parseReferenceRange(changes.referenceRangeText);
    next.minRefRangeValue = bounds.min;
    next.maxRefRangeValue = bounds.max;
  }
  if (changes.resultUnit !== undefined) {
    next.resultUnit = changes.resultUnit;
    const ucum = changes.resultUnit === null ? null : normaliseUnit(changes.resultUnit);
    next.ucumCode = ucum?.ucumCode ?? null;
    next.ucumMatchMethod = ucum?.ucumMatchMethod ?? null;
  }
  if (changes.biomarker !== undefined) next.biomarker = changes.biomarker;
  if (changes.biomarker !== undefined || changes.resultUnit !== undefined) {
    const loinc = matchLoinc(next.biomarker, {
      unit: next.resultUnit,
      panel: panelName ?? null,
      value: next.resultValue,
    });
    next.loincCode = loinc.loincCode;
    next.loincMatchType = loinc.loincMatchType;
  }
  return next;
}
