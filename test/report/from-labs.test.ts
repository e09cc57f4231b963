import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bundle } from '@medplum/fhirtypes';
import { afterAll, describe, expect, it } from 'vitest';
import { personFrom } from '../../src/cli/person-flags.js';
import { UsageError } from '../../src/errors.js';
import type { ExtractionCore } from '../../src/lab/types.js';
import { packageRoot } from '../../src/paths.js';
import { eventAges, wholeYears } from '../../src/report/from-labs/age.js';
import { groupByDate } from '../../src/report/from-labs/events.js';
import { readJsonInput } from '../../src/report/from-labs/inputs.js';
import { type LabResult, resultsOfBundle } from '../../src/report/from-labs/lab-results.js';
import { buildLabRequest } from '../../src/report/from-labs/request.js';

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

const result = (over: Partial<LabResult>): LabResult => ({
  source: 'a.json',
  date: '2024-05-01',
  code: '2093-3',
  name: 'CHOLESTEROL, TOTAL',
  value: '190',
  unit: 'mg/dL',
  ...over,
});

describe('event ages', () => {
  it('counts whole years up to the day before a birthday, and a 29 February birthday on 28 February', () => {
    expect(wholeYears('1980-06-15', '2024-06-14')).toBe(43);
    expect(wholeYears('1980-06-15', '2024-06-15')).toBe(44);
    expect(wholeYears('1980-02-29', '2023-02-28')).toBe(42);
    expect(wholeYears('1980-02-29', '2023-03-01')).toBe(43);
  });

  it('gives the first event whole years and later events the exact spacing, whatever the order given', () => {
    const ages = eventAges('1980-06-15', ['2025-06-14', '2024-06-14', '2024-12-14']);
    expect(ages.get('2024-06-14')).toBe(43);
    expect(ages.get('2024-12-14')).toBe(43.5);
    expect(ages.get('2025-06-14')).toBe(44);
  });

  it('refuses a result collected before the date of birth, without printing the date of birth', () => {
    expect(() => eventAges('1980-06-15', ['1979-01-01'])).toThrow(UsageError);
    try {
      eventAges('1980-06-15', ['1979-01-01']);
    } catch (error) {
      expect((error as Error).message).not.toContain('1980-06-15');
    }
  });
});

describe('grouping results by collection date', () => {
  it('merges one date across files, keeps one predictor for a value repeated, and orders codes', () => {
    const grouped = groupByDate([
      result({ source: 'b.json', code: '2085-9', value: '55' }),
      result({}),
      result({ source: 'b.json' }),
      result({ date: '2023-05-01', value: '180' }),
    ]);
    expect(grouped.conflicts).toEqual([]);
    expect(
      grouped.events.map((e) => [e.date, e.sources, e.predictors.map((p) => p.observation_code)]),
    ).toEqual([
      ['2023-05-01', ['a.json'], ['2093-3']],
      ['2024-05-01', ['a.json', 'b.json'], ['2085-9', '2093-3']],
    ]);
  });

  it('reports two values for one code on one date and uses neither', () => {
    const grouped = groupByDate([
      result({}),
      result({ source: 'b.json', value: '201' }),
      result({ code: '2085-9' }),
    ]);
    expect(grouped.conflicts).toEqual([
      {
        date: '2024-05-01',
        code: '2093-3',
        name: 'CHOLESTEROL, TOTAL',
        readings: [
          { value: '190', unit: 'mg/dL', source: 'a.json' },
          { value: '201', unit: 'mg/dL', source: 'b.json' },
        ],
      },
    ]);
    expect(grouped.events[0]?.predictors.map((p) => p.observation_code)).toEqual(['2085-9']);
    expect(grouped.unusable.map((u) => u.reason)).toEqual(['conflict', 'conflict']);
  });

  it('the same number in another unit is a conflict too: nothing converts one reading into the other', () => {
    const grouped = groupByDate([result({}), result({ value: '4.91', unit: 'mmol/L' })]);
    expect(grouped.conflicts).toHaveLength(1);
  });

  it('leaves out results without a date, a code or a value, saying which', () => {
    const grouped = groupByDate([
      result({ date: null }),
      result({ code: null }),
      result({ value: null }),
      result({}),
    ]);
    expect(grouped.unusable.map((u) => [u.reason, u.in_request])).toEqual([
      ['no_date', false],
      ['no_loinc', false],
      ['no_value', false],
    ]);
    expect(grouped.events).toHaveLength(1);
  });
});

describe('reading a FHIR Bundle', () => {
  const bundle: Bundle = {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { resource: { resourceType: 'DiagnosticReport', status: 'final', code: { text: 'LIPID PANEL' } } },
      {
        resource: {
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: LOINC, code: '30522-7' }], text: 'C-REACTIVE PROTEIN' },
          effectiveDateTime: '2024-05-01T23:30:00-07:00',
          valueQuantity: { value: 0.2, comparator: '<', unit: 'mg/L', system: UCUM, code: 'mg/L' },
        },
      },
      {
        resource: {
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: 'http://example.org/local', code: 'X1' }], text: 'LOCAL TEST' },
          effectiveDateTime: '2024-05-01',
          valueQuantity: { value: 12, unit: 'units' },
        },
      },
      {
        resource: {
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: LOINC, code: '5778-6' }], text: 'COLOR' },
          valueString: 'YELLOW',
        },
      },
      {
        resource: {
          resourceType: 'Observation',
          status: 'entered-in-error',
          code: { coding: [{ system: LOINC, code: '2093-3' }] },
          effectiveDateTime: '2024-05-01',
          valueQuantity: { value: 999, system: UCUM, code: 'mg/dL' },
        },
      },
    ],
  };

  it('reads codes, bounded values, UCUM codes and the date as written, and skips withdrawn results', () => {
    expect(resultsOfBundle(bundle, 'labs.fhir.json')).toEqual([
      {
        source: 'labs.fhir.json',
        date: '2024-05-01',
        code: '30522-7',
        name: 'C-REACTIVE PROTEIN',
        value: '<0.2',
        unit: 'mg/L',
      },
      {
        source: 'labs.fhir.json',
        date: '2024-05-01',
        code: null,
        name: 'LOCAL TEST',
        value: '12',
        unit: 'units',
      },
      { source: 'labs.fhir.json', date: null, code: '5778-6', name: 'COLOR', value: 'YELLOW', unit: '' },
    ]);
  });

  it('builds a valid full request, and lists what it could not use', () => {
    const built = buildLabRequest(resultsOfBundle(bundle, 'labs.fhir.json'), {
      dob: '1980-06-15',
      profile: { sex: 'male', statin: false },
    });
    expect(built.request.report_metadata).toMatchObject({ sex: 'male', statin: false, mode: 'report' });
    expect(built.request.health_events).toEqual([
      {
        health_event_id: '2024-05-01',
        event_age: 43,
        predictors: [expect.objectContaining({ observation_code: '30522-7', value: '<0.2', unit: 'mg/L' })],
      },
    ]);
    expect(built.unusable.map((u) => u.reason).sort()).toEqual(['no_date', 'no_loinc']);
    expect(JSON.stringify(built.request)).not.toContain('1980-06-15');
  });

  it('with nothing usable, stops with a usage error', () => {
    expect(() =>
      buildLabRequest([result({ code: null })], { dob: '1980-06-15', profile: { sex: 'male' } }),
    ).toThrow(/nothing to report/);
  });
});

describe('the person: flags over a JSON profile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-profile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const profile = (json: unknown) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(json));
    return path;
  };

  it('takes members from the profile, lets a flag win, and leaves the rest unknown', () => {
    const path = profile({
      sex: 'female',
      smoker: true,
      race: 'white',
      configuration: { callback_url: 'https://x.example/cb' },
    });
    const person = personFrom(
      { dob: '1970-01-31', profile: path, smoker: false, statin: true },
      'report from-labs',
    );
    expect(person.profile).toEqual({
      sex: 'female',
      smoker: false,
      race: 'white',
      statin: true,
      configuration: { callback_url: 'https://x.example/cb', auth_type: 'none', auth_key_name: 'X-API-Key' },
    });
    expect(person.profile).not.toHaveProperty('diabetes');
  });

  it('refuses a misspelt member, a bad value, a missing sex and a date that is not a day', () => {
    expect(() =>
      personFrom({ dob: '1970-01-31', sex: 'male', profile: profile({ smokr: true }) }, 'x'),
    ).toThrow(/unknown member smokr/);
    expect(() =>
      personFrom({ dob: '1970-01-31', sex: 'male', profile: profile({ smoker: 'yes' }) }, 'x'),
    ).toThrow(/smoker/);
    expect(() => personFrom({ dob: '1970-01-31' }, 'x')).toThrow(/--sex female\|male/);
    expect(() => personFrom({ dob: '1970-02-30', sex: 'male' }, 'x')).toThrow(/YYYY-MM-DD/);
  });
});

describe('doubts read from extraction files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-doubts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const scan = JSON.parse(
    readFileSync(join(packageRoot(), 'fixtures', 'histories', 'ocr-doubt', 'scan.json'), 'utf8'),
  ) as ExtractionCore;
  const albuminOf = (file: string) => readJsonInput(file).results.find((r) => r.code === '1751-7');

  it("takes a row's own doubts, through the same FHIR Bundle every input goes through", () => {
    const file = join(dir, 'rows.json');
    writeFileSync(file, JSON.stringify(scan));
    expect(albuminOf(file)?.doubts).toEqual([
      { code: 'ocr_suspect_decimal', message: 'Albumin may have lost its decimal point in OCR' },
    ]);
    expect(readJsonInput(file).results.filter((r) => r.doubts)).toHaveLength(1);
  });

  it('matches an older extraction’s flags to rows by name and page', () => {
    const older = structuredClone(scan);
    for (const r of older.panels.flatMap((p) => p.panelResults)) {
      delete r.doubts;
      delete r.id;
    }
    for (const f of older.validationFlags) delete f.resultId;
    const file = join(dir, 'older.json');
    writeFileSync(file, JSON.stringify(older));
    expect(albuminOf(file)?.doubts?.map((d) => d.code)).toEqual(['ocr_suspect_decimal']);
  });
});
