import { describe, expect, it } from 'vitest';
import { reviewRows } from '../../src/review/review-state.js';
import {
  applyRevisions,
  newRevision,
  type Revision,
  revisionInputSchema,
  withRowIds,
} from '../../src/review/revisions.js';
import { sampleResult } from './support.js';

const at = (n: number) => new Date(Date.UTC(2025, 5, 1, 12, n));
const rev = (input: Parameters<typeof newRevision>[0], n = 0): Revision => newRevision(input, 'cli', at(n));

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const rowOf = (result: ReturnType<typeof sampleResult>, id: string) =>
  result.panels.flatMap((p) => p.panelResults).find((r) => r.id === id);

describe('applyRevisions: the reviewed result is the extracted one with its revisions replayed', () => {
  it('gives the result back unchanged when there are no revisions', () => {
    const result = sampleResult();
    expect(applyRevisions(result, [])).toBe(result);
  });

  it('an accepted row loses its doubts and the flags that name it, and says who accepted it when', () => {
    const original = deepFreeze(sampleResult());
    const accept = rev({ resultId: 'p1-glucose-1', action: 'accept' });
    const reviewed = applyRevisions(original, [accept]);
    const glucose = rowOf(reviewed, 'p1-glucose-1');
    expect(glucose?.doubts).toEqual([]);
    expect(glucose).toMatchObject({
      resultValue: 'eg',
      reviewed: { by: 'cli', action: 'accept', revision: accept.id },
    });
    // The flag about the row is answered; the document-level unread_row flag is not about it and stays.
    expect(reviewed.validationFlags.map((f) => f.code)).toEqual(['unread_row']);
    expect(reviewed).toMatchObject({ review: { revisions: 1, rowsReviewed: 1, rowsRemoved: 0 } });
    // The original is untouched (frozen above: any write would have thrown).
    expect(rowOf(original, 'p1-glucose-1')?.doubts).toHaveLength(1);
  });

  it('an edit corrects the printed fields and recomputes what derives from them', () => {
    const reviewed = applyRevisions(sampleResult(), [
      rev({
        resultId: 'p1-glucose-1',
        action: 'edit',
        changes: { resultValue: '89', resultUnit: 'mg/dL', referenceRangeText: '65-99' },
      }),
    ]);
    const glucose = rowOf(reviewed, 'p1-glucose-1');
    expect(glucose).toMatchObject({
      biomarker: 'GLUCOSE',
      resultValue: '89',
      resultType: 'numeric',
      resultUnit: 'mg/dL',
      ucumCode: 'mg/dL',
      minRefRangeValue: 65,
      maxRefRangeValue: 99,
      referenceRangeText: '65-99',
      loincCode: '2345-7',
      doubts: [],
      reviewed: { action: 'edit' },
    });
    // Where the row sits on the page does not change with a correction.
    expect(glucose?.bbox).toEqual(rowOf(sampleResult(), 'p1-glucose-1')?.bbox);
  });

  it('later edits build on earlier ones; a name edit re-matches LOINC', () => {
    const reviewed = applyRevisions(sampleResult(), [
      rev({ resultId: 'p1-glucose-1', action: 'edit', changes: { resultValue: '89' } }, 1),
      rev({ resultId: 'p1-glucose-1', action: 'edit', changes: { resultUnit: 'mg/dL' } }, 2),
      rev({ resultId: 'p1-albumin-1', action: 'edit', changes: { biomarker: 'Albumin' } }, 3),
    ]);
    expect(rowOf(reviewed, 'p1-glucose-1')).toMatchObject({ resultValue: '89', resultUnit: 'mg/dL' });
    expect(rowOf(reviewed, 'p1-albumin-1')).toMatchObject({ biomarker: 'Albumin', loincCode: '1751-7' });
    expect(reviewed).toMatchObject({
      review: { revisions: 3, lastAt: at(3).toISOString(), rowsReviewed: 2 },
    });
  });

  it('not-a-result leaves the row (and an emptied panel) out; a later accept brings it back', () => {
    const removed = applyRevisions(sampleResult(), [
      rev({ resultId: 'p1-hemoglobin-a1c-1', action: 'not_a_result' }),
    ]);
    expect(removed.panels.map((p) => p.panelName)).toEqual(['COMPREHENSIVE METABOLIC PANEL']);
    expect(removed).toMatchObject({ review: { rowsRemoved: 1, rowsReviewed: 0 } });
    const restored = applyRevisions(sampleResult(), [
      rev({ resultId: 'p1-hemoglobin-a1c-1', action: 'not_a_result' }, 1),
      rev({ resultId: 'p1-hemoglobin-a1c-1', action: 'accept' }, 2),
    ]);
    expect(rowOf(restored, 'p1-hemoglobin-a1c-1')).toMatchObject({ reviewed: { action: 'accept' } });
  });

  it('skips revisions naming no row (a result re-extracted with other ids still reads)', () => {
    const result = sampleResult();
    expect(applyRevisions(result, [rev({ resultId: 'p9-nothing-1', action: 'accept' })])).toBe(result);
  });

  it('gives rows without ids (older results) stable ids from their place', () => {
    const result = sampleResult();
    for (const panel of result.panels) for (const r of panel.panelResults) delete r.id;
    const ids = withRowIds(result).panels.flatMap((p) => p.panelResults.map((r) => r.id));
    expect(ids).toEqual(['r1-1', 'r1-2', 'r2-1']);
    const reviewed = applyRevisions(result, [rev({ resultId: 'r2-1', action: 'not_a_result' })]);
    expect(reviewed.panels).toHaveLength(1);
  });
});

describe('revision input', () => {
  it('takes the four correctable fields only, and an edit must change one', () => {
    expect(revisionInputSchema.safeParse({ resultId: 'a', action: 'accept' }).success).toBe(true);
    expect(revisionInputSchema.safeParse({ resultId: 'a', action: 'edit' }).success).toBe(false);
    expect(revisionInputSchema.safeParse({ resultId: 'a', action: 'edit', changes: {} }).success).toBe(false);
    expect(
      revisionInputSchema.safeParse({ resultId: 'a', action: 'edit', changes: { loincCode: '1-1' } }).success,
    ).toBe(false);
    expect(revisionInputSchema.safeParse({ resultId: 'a', action: 'delete' }).success).toBe(false);
    const blank = revisionInputSchema.parse({ resultId: 'a', action: 'edit', changes: { resultUnit: '' } });
    expect(blank.changes?.resultUnit).toBeNull();
  });

  it('records who and when, and only an edit carries changes', () => {
    const r = newRevision({ resultId: 'a', action: 'accept', changes: { resultValue: '1' } }, 'key-1', at(0));
    expect(r).toMatchObject({ by: 'key-1', at: at(0).toISOString(), action: 'accept' });
    expect(r.changes).toBeUndefined();
    expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('reviewRows: what the page lists', () => {
  it('puts doubtful rows first and keeps that order while they are reviewed', () => {
    const result = sampleResult();
    const before = reviewRows(result, []);
    expect(before.map((r) => r.id)).toEqual(['p1-glucose-1', 'p1-albumin-1', 'p1-hemoglobin-a1c-1']);
    expect(before[0]).toMatchObject({ open: true, removed: false, reviewed: null });
    const after = reviewRows(result, [
      rev({ resultId: 'p1-glucose-1', action: 'edit', changes: { resultValue: '89' } }),
      rev({ resultId: 'p1-albumin-1', action: 'not_a_result' }),
    ]);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after[0]).toMatchObject({
      open: false,
      resultValue: '89',
      doubts: [{ code: 'ocr_malformed_value' }],
    });
    expect(after[1]).toMatchObject({ removed: true, open: false });
  });
});
