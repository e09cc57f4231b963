import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { bundledDataset, type RefDataset } from '../../src/refdata/dataset.js';
import { RefdataStore } from '../../src/refdata/store.js';
import { type SyncResult, syncRefdata } from '../../src/refdata/sync.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startRefdataServer } from './support/refdata-server.js';

const zero = { added: 0, updated: 0, removed: 0 };
const unchanged = (r: SyncResult) =>
  Object.values(r.resources).every((c) => c.added + c.updated + c.removed === 0);
const tableCounts = (db: Database.Database) =>
  Object.fromEntries(
    [
      'refdata_concepts',
      'refdata_predictor_stats',
      'refdata_top_predictors',
      'refdata_lab_ranges',
      'refdata_meta',
    ].map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]),
  );
const request = (sex: 'female' | 'male', age: number) => ({
  header: { event_id: 'evt-1', event_asof_dtutc: '2025-03-01T10:00:00Z' },
  sex,
  age,
});

describe('refdata sync on a real SQLite file', () => {
  let home: ReturnType<typeof tmpHome>;
  let db: Database.Database;
  beforeEach(() => {
    home = tmpHome('assay-refdata-');
    db = openDatabase(home.dir);
  });
  afterEach(() => {
    db.close();
    home.cleanup();
  });

  it('reads fall back to the bundled dataset until the first sync, without writing', async () => {
    const store = new RefdataStore(db);
    expect(await store.synced()).toBe(false);
    expect(await store.concepts()).toHaveLength(bundledDataset().concepts.length);
    expect(
      (await store.predictorStatistics(request('female', 50))).predictor_statistics.length,
    ).toBeGreaterThan(5);
    expect(tableCounts(db).refdata_concepts).toBe(0);
  });

  it('adds everything once, then a second sync adds, updates and removes nothing', async () => {
    const first = await syncRefdata(db);
    const bundled = bundledDataset();
    expect(first.resources.reference_data).toEqual({ ...zero, added: bundled.concepts.length });
    expect(first.resources.lab_ranges).toEqual({ ...zero, added: bundled.labRanges.length });
    expect(first.resources.predictor_statistics.added).toBe(
      bundled.statistics.reduce((n, g) => n + g.predictor_statistics.length, 0),
    );
    expect(first.dataset_version).toMatch(/^bundled-[0-9a-f]{12}$/);
    const second = await syncRefdata(db);
    expect(unchanged(second)).toBe(true);
    expect(second.dataset_version).toBe(first.dataset_version);
  });

  it('the store answers exactly what was synced, in SPEC.md shapes', async () => {
    await syncRefdata(db);
    const store = new RefdataStore(db);
    const bundled = bundledDataset();
    expect(await store.concepts()).toEqual(bundled.concepts);
    expect(await store.topDiseasePredictors()).toEqual(bundled.top);
    expect(await store.labRanges()).toEqual(bundled.labRanges);
    const female = await store.labRanges({ sex: 'female', vendor: 'quest diagnostics' });
    expect(female.length).toBeGreaterThan(0);
    expect(female.every((r) => r.gender_name === 'FEMALE' && r.vendor_name === 'Quest Diagnostics')).toBe(
      true,
    );
    const response = await store.predictorStatistics(request('female', 50.2));
    expect(response.header).toEqual({
      ...request('female', 50).header,
      scoring_version: bundled.scoring_version,
    });
    expect(response.predictor_statistics).toEqual(
      bundled.statistics.find((g) => g.sex === 'female' && g.age === 50)?.predictor_statistics,
    );
    // Fractional ages resolve to the same whole year and share one cached answer.
    expect((await store.predictorStatistics(request('female', 49.6))).predictor_statistics).toBe(
      response.predictor_statistics,
    );
    expect((await store.predictorStatistics(request('male', 10))).predictor_statistics).toEqual([]);
    expect((await store.predictorStatistics(request('male', 110))).predictor_statistics).toEqual(
      bundled.statistics.find((g) => g.sex === 'male' && g.age === 85)?.predictor_statistics,
    );
  });

  it('counts updates and removals when the source changes', async () => {
    await syncRefdata(db);
    const dir = join(home.dir, 'lab');
    mkdirSync(dir);
    const concepts = bundledDataset()
      .concepts.slice(1)
      .map((c, i) => (i === 0 ? { ...c, concept_name: 'Renamed' } : c));
    writeFileSync(join(dir, 'reference-data.json'), JSON.stringify(concepts));
    const result = await syncRefdata(db, { kind: 'folder', dir });
    expect(result.resources.reference_data).toEqual({ added: 0, updated: 1, removed: 1 });
    expect(result.resources.lab_ranges).toEqual(zero);
    expect(unchanged(await syncRefdata(db, { kind: 'folder', dir }))).toBe(true);
  });

  it("imports a lab's own ranges from a CSV folder, keeping the partner vendors' ranges", async () => {
    await syncRefdata(db);
    const dir = join(home.dir, 'acme');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'lab-ranges.csv'),
      [
        'vendor_name,gender_name,concept_code,reference_range,bmi_min,bmi_max,menstrual_cycle',
        'Acme Labs,female,2345-7,70-99,,,',
        'Acme Labs,MALE,2085-9,> OR = 40,,,',
        '"Acme Labs",female,2093-3,"<200",,,',
      ].join('\r\n'),
    );
    const result = await syncRefdata(db, { kind: 'folder', dir });
    expect(result.resources.lab_ranges).toEqual({ added: 3, updated: 0, removed: 0 });
    expect(result.source).toBe(dir);
    const store = new RefdataStore(db);
    const acme = await store.labRanges({ vendor: 'Acme Labs' });
    expect(acme.map((r) => [r.gender_name, r.concept_code, r.min_value, r.max_value_display])).toEqual([
      ['FEMALE', '2345-7', 70, '99'],
      ['MALE', '2085-9', 40, ''],
      ['FEMALE', '2093-3', 0, '<200'],
    ]);
    expect(acme[0]?.concept_name).toBe('Glucose [Mass/volume] in Serum or Plasma');
    expect((await store.labRanges({ vendor: 'Labcorp' })).length).toBe(
      bundledDataset().labRanges.filter((r) => r.vendor_name === 'Labcorp').length,
    );
    // Ids were assigned once and are matched again by vendor, sex and code: a re-import changes nothing.
    expect(unchanged(await syncRefdata(db, { kind: 'folder', dir }))).toBe(true);
  });

  it('imports from a running compatible server over HTTP with the x-api-key header', async () => {
    const served: RefDataset = {
      ...bundledDataset(),
      scoring_version: 'server-scoring-9',
      labRanges: bundledDataset().labRanges.slice(0, 10),
    };
    const server = await startRefdataServer(served, 'secret-key');
    try {
      const ages = [40, 50, 60];
      const result = await syncRefdata(db, {
        kind: 'server',
        url: `${server.url}/`,
        apiKey: 'secret-key',
        ages,
      });
      expect(result.dataset_version).toMatch(/^server-/);
      expect(result.scoring_version).toBe('server-scoring-9');
      expect(result.resources.lab_ranges.added).toBe(10);
      expect(result.resources.predictor_statistics.added).toBeGreaterThan(0);
      const posts = server.requests.filter((r) => r.method === 'POST' && r.path === '/predictor-statistics/');
      expect(posts).toHaveLength(2 * ages.length);
      const store = new RefdataStore(db);
      expect((await store.predictorStatistics(request('male', 50))).header.scoring_version).toBe(
        'server-scoring-9',
      );
      expect(await store.labRanges()).toEqual(served.labRanges);
      expect(
        unchanged(await syncRefdata(db, { kind: 'server', url: server.url, apiKey: 'secret-key', ages })),
      ).toBe(true);
      await expect(
        syncRefdata(db, { kind: 'server', url: server.url, apiKey: 'wrong', ages }),
      ).rejects.toThrow(/401: API key missing or invalid/);
    } finally {
      await server.close();
    }
  });

  it('rejects invalid input before writing anything: the previous dataset stays whole', async () => {
    await syncRefdata(db);
    const before = tableCounts(db);
    const meta = await new RefdataStore(db).meta();
    const dir = join(home.dir, 'bad');
    mkdirSync(dir);
    const concepts = bundledDataset().concepts.map((c, i) =>
      i === 5 ? { ...c, created_dtutc: '2025-01-01' } : c,
    );
    writeFileSync(join(dir, 'reference-data.json'), JSON.stringify(concepts.slice(0, 10)));
    writeFileSync(
      join(dir, 'lab-ranges.csv'),
      'vendor_name,gender_name,concept_code,reference_range\nAcme,female,2345-7,70-99\n',
    );
    await expect(syncRefdata(db, { kind: 'folder', dir })).rejects.toThrow(/created_dtutc/);
    expect(tableCounts(db)).toEqual(before);
    expect(await new RefdataStore(db).meta()).toEqual(meta);

    writeFileSync(join(dir, 'reference-data.json'), JSON.stringify(bundledDataset().concepts));
    writeFileSync(
      join(dir, 'lab-ranges.csv'),
      'vendor_name,gender_name,concept_code,reference_range\nAcme,female,9999-9,70-99\n',
    );
    await expect(syncRefdata(db, { kind: 'folder', dir })).rejects.toThrow(/concept_id/);
    expect(tableCounts(db)).toEqual(before);

    const [first] = bundledDataset().labRanges;
    writeFileSync(join(dir, 'lab-ranges.json'), JSON.stringify([first, { ...first, vendor_name: 'Other' }]));
    await expect(syncRefdata(db, { kind: 'folder', dir })).rejects.toThrow(/lab_range_id .* more than once/);
    expect(tableCounts(db)).toEqual(before);
  });

  it('a failure inside the transaction rolls every table back', async () => {
    await syncRefdata(db);
    const before = tableCounts(db);
    const dir = join(home.dir, 'changed');
    mkdirSync(dir);
    writeFileSync(join(dir, 'reference-data.json'), JSON.stringify(bundledDataset().concepts.slice(0, 3)));
    await expect(
      syncRefdata(
        db,
        { kind: 'folder', dir },
        {
          onProgress: (resource) => {
            if (resource === 'predictor_statistics') throw new Error('disk full');
          },
        },
      ),
    ).rejects.toThrow('disk full');
    expect(tableCounts(db)).toEqual(before);
  });
});
