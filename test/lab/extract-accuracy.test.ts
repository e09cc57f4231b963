/**
 * End to end over the supported fixtures: PDF -> layout -> vendor -> results, scored against the ground
 * truth. The layout still holds the patient block here (redaction is another stage), so this also checks
 * that nothing from it is read as a result.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExpectedExtraction, ExpectedResult } from '../../fixtures/labs/gen/expected.js';
import { extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { type ExtractedResults, extractResults } from '../../src/lab/pipeline/results/extract-results.js';
import { detectVendor } from '../../src/lab/pipeline/screen/vendor-detect.js';
import type { PanelResult } from '../../src/lab/types.js';
import { expectedExtraction, manifest, pdfBytes, phiOf } from './fixture-files.js';

const SCORED_FIELDS = [
  'resultValue',
  'resultType',
  'resultUnit',
  'referenceRangeText',
  'minRefRangeValue',
  'maxRefRangeValue',
  'loincCode',
  'ucumCode',
] as const;

const supported = manifest().filter((entry) => entry.expect.status === 'completed');

interface Scored {
  matched: Array<[ExpectedResult, PanelResult]>;
  missed: string[];
  extra: string[];
}

/** Rows pair up by page and biomarker; a name printed twice on a page pairs in reading order. */
function pairRows(expected: readonly ExpectedResult[], actual: readonly PanelResult[]): Scored {
  const pool = new Map<string, PanelResult[]>();
  for (const row of actual) {
    const key = `${row.pageNumber}|${row.biomarker}`;
    pool.set(key, [...(pool.get(key) ?? []), row]);
  }
  const matched: Array<[ExpectedResult, PanelResult]> = [];
  const missed: string[] = [];
  for (const row of expected) {
    const key = `${row.pageNumber}|${row.biomarker}`;
    const found = pool.get(key)?.shift();
    if (found) matched.push([row, found]);
    else missed.push(key);
  }
  const extra = [...pool.entries()].flatMap(([key, rows]) => rows.map(() => key));
  return { matched, missed, extra };
}

function fieldMisses(matched: Scored['matched']): string[] {
  const misses: string[] = [];
  for (const [want, got] of matched) {
    for (const field of SCORED_FIELDS) {
      if (want[field] !== got[field]) {
        misses.push(
          `${want.biomarker}.${field}: want ${JSON.stringify(want[field])} got ${JSON.stringify(got[field])}`,
        );
      }
    }
  }
  return misses;
}

const allRows = (
  panels: ReadonlyArray<{ panelResults: readonly PanelResult[] | readonly ExpectedResult[] }>,
) => panels.flatMap((panel) => panel.panelResults);

const panelSummary = (panels: ExpectedExtraction['panels'] | ExtractedResults['panels']) =>
  panels.map((p) => ({
    panelName: p.panelName,
    panelCode: p.panelCode,
    pageNumber: p.pageNumber,
    dateCollected: p.dateCollected,
    results: p.panelResults.length,
  }));

describe.each(supported.map((entry) => entry.name))('extraction accuracy: %s', (name) => {
  let expected: ExpectedExtraction;
  let actual: ExtractedResults;
  let scored: Scored;

  beforeAll(async () => {
    expected = expectedExtraction(name);
    const layout = await extractLayout(pdfBytes(name));
    const detection = detectVendor(layout);
    expect(detection.labName).toBe(expected.labName);
    actual = extractResults(layout, {
      vendor: detection.vendor ?? 'generic',
      dateCollected: expected.dateCollected,
    });
    scored = pairRows(allRows(expected.panels) as ExpectedResult[], allRows(actual.panels) as PanelResult[]);
  });

  it('finds the results (F1 >= 0.98)', () => {
    const found = scored.matched.length;
    const precision = found / (found + scored.extra.length);
    const recall = found / (found + scored.missed.length);
    const f1 = (2 * precision * recall) / (precision + recall || 1);
    expect(
      f1,
      `missed ${JSON.stringify(scored.missed)} extra ${JSON.stringify(scored.extra)}`,
    ).toBeGreaterThanOrEqual(0.98);
  });

  it('reads value, unit, range and codes (accuracy >= 0.98)', () => {
    const misses = fieldMisses(scored.matched);
    const checked = scored.matched.length * SCORED_FIELDS.length;
    const accuracy = checked === 0 ? 0 : 1 - misses.length / checked;
    expect(accuracy, misses.join('\n')).toBeGreaterThanOrEqual(0.98);
  });

  it('groups panels and records merges as expected', () => {
    expect(panelSummary(actual.panels)).toEqual(panelSummary(expected.panels));
    expect(actual.mergeActions).toEqual(expected.mergeActions);
    expect(actual.validationFlags).toEqual(expected.validationFlags);
  });

  it('reports nothing from the patient block', () => {
    const output = JSON.stringify(actual);
    const leaked = phiOf(name).filter((phi) => output.includes(phi));
    expect(leaked).toEqual([]);
  });
});
