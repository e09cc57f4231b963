import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resultsOfBundle } from '../../src/report/from-labs/lab-results.js';
import type { Person } from '../../src/report/from-labs/person.js';
import { buildLabRequest } from '../../src/report/from-labs/request.js';
import { assay, assayMany, type CliResult, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const DEEP = 100_000;

const observation = (value: unknown, extra: Record<string, unknown> = {}) => ({
  resource: {
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '2345-7' }], text: 'Glucose' },
    effectiveDateTime: '2024-05-01',
    valueQuantity: { value, system: 'http://unitsofmeasure.org', code: 'mg/dL', unit: 'mg/dL' },
    ...extra,
  },
});
const bundle = (entries: unknown[]) =>
  JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry: entries });
const nested = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;

/** Hostile Bundles: each must be a usage error, exit 2, one JSON error body, no stack, no value quoted. */
const HOSTILE: Record<string, string> = {
  'value-string': bundle([observation('97')]),
  'value-object': bundle([observation({ toFixed: 1 })]),
  'value-null': bundle([observation(null)]),
  'value-true': bundle([observation(true)]),
  'value-list': bundle([observation([1])]),
  'null-entry': bundle([null, observation(97)]),
  'null-resource': bundle([{ resource: null }]),
  'entry-not-list': JSON.stringify({ resourceType: 'Bundle', entry: { resource: {} } }),
  'coding-not-list': bundle([observation(97, { code: { coding: 'x' } })]),
  'value-string-number': bundle([observation(97, { valueQuantity: undefined, valueString: 97 })]),
  'deep-value': `{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Observation","code":{"coding":[{"system":"http://loinc.org","code":"2345-7"}]},"effectiveDateTime":"2024-05-01","valueQuantity":{"value":${nested}}}}]}`,
  'deep-name': `{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Observation","code":{"text":${nested},"coding":[{"system":"http://loinc.org","code":"2345-7"}]},"effectiveDateTime":"2024-05-01","valueQuantity":{"value":97}}}]}`,
  'deep-entries': `{"resourceType":"Bundle","entry":[${nested}]}`,
  'deep-extraction': `{"panels":[{"panelResults":${nested}}]}`,
};

/**
 * Issue #30 item 7: hostile FHIR Bundle input to `report from-labs`. A Bundle that is not FHIR where it is
 * read is a usage error naming the entry and field; a value no person can have (-5 or 1e308 mg/dL glucose)
 * is listed as unusable and never reaches the request the report is made from.
 */
describe('hostile FHIR Bundles to report from-labs (#30 item 7)', () => {
  const home = tmpHome('assay-hostile-fhir-');
  const dir = join(home.dir, 'in');
  mkdirSync(dir);
  afterAll(() => home.cleanup());
  const base = (file: string, name: string) => [
    'report',
    'from-labs',
    file,
    '--dob',
    '1970-01-31',
    '--sex',
    'male',
    '--out',
    join(home.dir, 'out'),
    '--name',
    name,
    '--home',
    home.dir,
    '--json',
  ];

  // Each Bundle is refused before any work, so all but two run in one child process (test/e2e/cli.ts,
  // assayMany); a shallow and a deeply nested one keep a spawn of their own, as a user runs them.
  const SPAWNED = new Set(['value-string', 'deep-value']);
  const fileOf = (name: string) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, HOSTILE[name] as string);
    return file;
  };
  let batch: Promise<Map<string, CliResult>> | undefined;
  const batched = (name: string): Promise<CliResult | undefined> => {
    batch ??= (async () => {
      const names = Object.keys(HOSTILE).filter((n) => !SPAWNED.has(n));
      const results = await assayMany(names.map((n) => base(fileOf(n), n)));
      return new Map(names.map((n, i) => [n, results[i] as CliResult]));
    })();
    return batch.then((results) => results.get(name));
  };

  it.each(Object.keys(HOSTILE))(
    '%s: exit 2, {error:{code,message}}, no stack',
    async (name) => {
      const r = SPAWNED.has(name) ? await assay(base(fileOf(name), name)) : await batched(name);
      if (!r) throw new Error(`no result for ${name}`);
      expect(r.exitCode).toBe(2);
      const body = json<{ error: { code: string; message: string; name?: string } }>(r);
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toMatch(new RegExp(`${name}\\.json`));
      expect(body.error.name).toBeUndefined();
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at |TypeError|RangeError|toFixed|call stack/);
      // The value is never quoted back.
      expect(body.error.message.replace(`${name}.json`, '')).not.toMatch(/toFixed|\[1\]|\btrue\b|97/);
    },
    60_000,
  );

  it('impossible values (-5, 1e308, -0.5 as text) are listed as unusable and never reach the request', async () => {
    const creatinine = (value: number) =>
      observation(value, {
        code: { coding: [{ system: 'http://loinc.org', code: '2160-0' }], text: 'Creatinine' },
        valueQuantity: { value, system: 'http://unitsofmeasure.org', code: 'mg/dL', unit: 'mg/dL' },
      });
    const text = bundle([
      observation(-5, { effectiveDateTime: '2024-01-01' }),
      observation(1e308, { effectiveDateTime: '2024-02-01' }),
      observation(undefined, {
        effectiveDateTime: '2024-03-01',
        valueQuantity: undefined,
        valueString: '-0.5',
      }),
      // A real, abnormal glucose is kept: only the impossible is refused.
      observation(612, { effectiveDateTime: '2024-04-01' }),
      creatinine(0.9),
    ]);
    const results = resultsOfBundle(JSON.parse(text), 'impossible.json');
    const built = buildLabRequest(results, {
      dob: '1970-01-31',
      profile: { sex: 'male' } as Person['profile'],
    });
    const values = built.request.health_events.flatMap((e) => e.predictors.map((p) => p.value));
    expect(values).toEqual(['612', '0.9']);
    expect(built.unusable.filter((u) => u.reason === 'implausible_value').map((u) => u.date)).toEqual([
      '2024-01-01',
      '2024-02-01',
      '2024-03-01',
    ]);

    const file = join(dir, 'impossible.json');
    writeFileSync(file, text);
    const r = await assay(base(file, 'impossible'));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const out = json<{
      request: string;
      unusable: Array<{ value: string; reason: string; in_request: boolean }>;
    }>(r);
    expect(out.unusable.filter((u) => u.reason === 'implausible_value')).toEqual([
      expect.objectContaining({ value: '-5', in_request: false }),
      expect.objectContaining({ value: '1e+308', in_request: false }),
      expect.objectContaining({ value: '-0.5', in_request: false }),
    ]);
    const request = readFileSync(out.request, 'utf8');
    expect(request).not.toMatch(/"-5"|1e\+308|"-0\.5"/);
    expect(request).toContain('"612"');
  }, 60_000);
});
