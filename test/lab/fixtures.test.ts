import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FIXTURE_DIR, generateFixtures } from '../../fixtures/labs/generate.js';
import { expectedExtraction, expectedText, manifest, phiOf } from './fixture-files.js';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** SPEC.md B3 ExtractionResults without jobId and status, which the test of the pipeline fills in. */
const panelResult = z.strictObject({
  biomarker: z.string().min(1),
  resultValue: nullable(z.string()),
  resultType: z.enum(['numeric', 'string', 'range']),
  resultUnit: nullable(z.string()),
  loincCode: nullable(z.string().regex(/^\d{1,7}-\d$/)),
  loincMatchType: nullable(z.enum(['exact', 'biomarker_only', 'llm_fuzzy', 'not_found'])),
  ucumCode: nullable(z.string()),
  ucumMatchMethod: nullable(z.enum(['static_map', 'pattern_rule', 'prefix_map', 'llm', 'not_found'])),
  minRefRangeValue: nullable(z.number()),
  maxRefRangeValue: nullable(z.number()),
  referenceRangeText: nullable(z.string()),
  pageNumber: nullable(z.number().int().positive()),
});

const extraction = z.strictObject({
  labName: nullable(z.string()),
  dateCollected: nullable(isoDate),
  verification: z.strictObject({ dobFound: z.boolean(), dobMatches: nullable(z.boolean()) }),
  panels: z.array(
    z.strictObject({
      panelName: z.string().min(1),
      panelCode: z.string(),
      dateCollected: isoDate,
      pageNumber: z.number().int().positive(),
      panelResults: z.array(panelResult).min(1),
    }),
  ),
  mergeActions: z.array(z.unknown()),
  validationFlags: z.array(z.unknown()),
});

const outcome = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('invalid_document'),
    rejection_reason: z.enum([
      'non_supported_lab',
      'multiple_collection_dates',
      'non_us_document',
      'non_lab_document',
    ]),
    detected_lab: nullable(z.string()).optional(),
  }),
  z.strictObject({ status: z.literal('quarantined'), rejection_reason: z.literal('non_english_document') }),
  z.strictObject({ status: z.literal('rejected_phi') }),
  z.strictObject({ status: z.literal('failed'), error: z.enum(['invalid_pdf', 'no_text_layer']) }),
]);

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('lab fixture generator', () => {
  let outDir: string;
  let written: string[];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'assay-lab-fixtures-'));
    written = await generateFixtures(outDir);
  });

  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
  });

  it('reproduces every committed fixture byte for byte', () => {
    expect(written.length).toBeGreaterThan(0);
    const mismatched = written.filter(
      (file) => sha256(join(outDir, file)) !== sha256(join(FIXTURE_DIR, file)),
    );
    expect(mismatched).toEqual([]);
  });

  it('leaves no stale generated files beside the fixtures', () => {
    const committed = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.pdf') || f.endsWith('.json'));
    expect(committed.sort()).toEqual([...written].sort());
  });
});

describe('lab fixture set', () => {
  const entries = manifest();
  const supported = entries.filter((e) => e.expect.status === 'completed');

  it('has at least 8 supported reports from both vendors, 1 to 4 pages each', () => {
    expect(supported.length).toBeGreaterThanOrEqual(8);
    expect(new Set(supported.map((e) => e.vendor))).toEqual(new Set(['quest', 'labcorp']));
    for (const e of supported) expect(e.pages).toBeGreaterThanOrEqual(1);
    for (const e of supported) expect(e.pages).toBeLessThanOrEqual(4);
  });

  it('covers a large report, merged page breaks and wrapped names for each vendor', () => {
    expect(supported.some((e) => (e.resultCount ?? 0) >= 60)).toBe(true);
    for (const vendor of ['quest', 'labcorp']) {
      const mine = supported.filter((e) => e.vendor === vendor);
      expect(mine.some((e) => expectedExtraction(e.name).mergeActions.length > 0)).toBe(true);
      expect(mine.some((e) => (e.wrappedNames ?? []).length > 0)).toBe(true);
    }
  });

  it('has one fixture per rejection case, a scan without text and a corrupt file', () => {
    const outcomes = entries.map((e) => e.expect);
    const reasons = outcomes.flatMap((o) => ('rejection_reason' in o ? [o.rejection_reason] : []));
    expect(new Set(reasons)).toEqual(
      new Set([
        'non_supported_lab',
        'non_english_document',
        'multiple_collection_dates',
        'non_us_document',
        'non_lab_document',
      ]),
    );
    const labs = outcomes.flatMap((o) =>
      o.status === 'invalid_document' && 'detected_lab' in o ? [o.detected_lab] : [],
    );
    expect(labs).toContain(null);
    expect(labs.some((lab) => typeof lab === 'string')).toBe(true);
    expect(outcomes).toContainEqual({ status: 'rejected_phi' });
    expect(outcomes).toContainEqual({ status: 'failed', error: 'no_text_layer' });
    expect(outcomes).toContainEqual({ status: 'failed', error: 'invalid_pdf' });
  });

  it.each(supported.map((e) => e.name))('%s: expected.json has the SPEC B3 shape', (name) => {
    const parsed = extraction.parse(JSON.parse(expectedText(name)));
    const pages = entries.find((e) => e.name === name)?.pages ?? 0;
    for (const panel of parsed.panels) {
      expect(panel.dateCollected).toBe(parsed.dateCollected);
      for (const result of panel.panelResults) expect(result.pageNumber).toBeLessThanOrEqual(pages);
    }
  });

  it.each(entries.filter((e) => e.expect.status !== 'completed').map((e) => e.name))(
    '%s: expected.json is the manifest outcome',
    (name) => {
      const parsed = outcome.parse(JSON.parse(expectedText(name)));
      expect(parsed).toEqual(entries.find((e) => e.name === name)?.expect);
    },
  );

  it('exercises numeric, string and range results', () => {
    const types = new Set(
      supported.flatMap((e) =>
        expectedExtraction(e.name).panels.flatMap((p) => p.panelResults.map((r) => r.resultType)),
      ),
    );
    expect(types).toEqual(new Set(['numeric', 'string', 'range']));
  });

  it('lists PHI for every fixture, and no expected.json contains any of it', () => {
    const allPhi = entries.flatMap((e) => phiOf(e.name));
    for (const e of entries) expect(phiOf(e.name).length).toBeGreaterThan(0);
    for (const e of entries) {
      const text = expectedText(e.name);
      expect(allPhi.filter((value) => text.includes(value))).toEqual([]);
    }
  });
});
