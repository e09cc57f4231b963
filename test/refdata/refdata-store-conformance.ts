import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledDataset, type RefDataset, validateDataset } from '../../src/refdata/dataset.js';
import { readFolderDataset } from '../../src/refdata/sources/folder.js';
import type { RefdataStore } from '../../src/refdata/store.js';
import { type SyncResult, syncRefdata } from '../../src/refdata/sync.js';
import { tmpHome } from '../engine/support/tmp-home.js';

export interface RefdataStoreUnderTest {
  /** A new instance on the same stored data (its own cache; another node's, as far as caching goes). */
  open(metaTtlMs?: number): Promise<RefdataStore>;
  cleanup: () => void | Promise<void>;
}

const unchanged = (r: SyncResult) =>
  Object.values(r.resources).every((c) => c.added + c.updated + c.removed === 0);
const request = (sex: 'female' | 'male', age: number) => ({
  header: { event_id: 'evt-1', event_asof_dtutc: '2025-03-01T10:00:00Z' },
  sex,
  age,
});

/** Every read of the four resources, as one comparable value. */
async function readAll(store: RefdataStore) {
  const stats = async (sex: 'female' | 'male', age: number) =>
    await store.predictorStatistics(request(sex, age));
  return {
    concepts: await store.concepts(),
    top: await store.topDiseasePredictors(),
    labRanges: await store.labRanges(),
    femaleQuest: await store.labRanges({ sex: 'female', vendor: 'QUEST diagnostics' }),
    male: await store.labRanges({ sex: 'Male' }),
    female50: await stats('female', 50.4),
    male10: await stats('male', 10),
    male110: await stats('male', 110),
    female18: await stats('female', 18),
  };
}

/** What readAll() must answer for a dataset, computed from the dataset itself rather than by a store. */
function expectedReads(d: RefDataset) {
  const group = (sex: string, age: number) =>
    d.statistics.find((g) => g.sex === sex && g.age === age)?.predictor_statistics ?? [];
  const header = { ...request('female', 0).header, scoring_version: d.scoring_version };
  const oldestMale = Math.max(...d.statistics.filter((g) => g.sex === 'male').map((g) => g.age));
  return {
    concepts: [...d.concepts].sort((a, b) => a.concept_id - b.concept_id),
    top: d.top,
    labRanges: [...d.labRanges].sort((a, b) => a.lab_range_id - b.lab_range_id),
    femaleQuest: d.labRanges
      .filter((r) => r.gender_name === 'FEMALE' && r.vendor_name === 'Quest Diagnostics')
      .sort((a, b) => a.lab_range_id - b.lab_range_id),
    male: d.labRanges.filter((r) => r.gender_name === 'MALE').sort((a, b) => a.lab_range_id - b.lab_range_id),
    female50: { header, predictor_statistics: group('female', 50) },
    male10: { header, predictor_statistics: [], notice: expect.any(String) },
    male110: { header, predictor_statistics: group('male', oldestMale) },
    female18: { header, predictor_statistics: group('female', 18) },
  };
}

/**
 * The promises every reference data backend keeps, through the RefdataStore the commands and the server use.
 * Run against the home's SQLite file (sqlite-refdata-store.test.ts) and a real PostgreSQL server
 * (pg-refdata-store.test.ts).
 */
export function testRefdataStore(name: string, factory: () => Promise<RefdataStoreUnderTest>): void {
  describe(`RefdataStore conformance: ${name}`, () => {
    let under: RefdataStoreUnderTest;
    let store: RefdataStore;
    const others: RefdataStore[] = [];
    const folders = tmpHome('assay-refdata-folders-');
    /** A lab's folder: one concept renamed, one dropped, lab ranges of its own from CSV. */
    const labFolder = (tag: string): { dir: string; expected: RefDataset } => {
      const dir = join(folders.dir, tag);
      mkdirSync(dir, { recursive: true });
      // The ranges below name glucose and HDL: those concepts stay, the first other one is dropped.
      const kept = ['2345-7', '2085-9'];
      const dropped = bundledDataset().concepts.find((c) => !kept.includes(c.concept_code));
      const concepts = bundledDataset()
        .concepts.filter((c) => c !== dropped)
        .map((c, i) => (i === 0 ? { ...c, concept_name: `Renamed ${tag}` } : c));
      writeFileSync(join(dir, 'reference-data.json'), JSON.stringify(concepts));
      writeFileSync(
        join(dir, 'lab-ranges.csv'),
        [
          'vendor_name,gender_name,concept_code,reference_range,bmi_min,bmi_max,menstrual_cycle',
          `Lab ${tag},female,2345-7,70-99,,,`,
          `Lab ${tag},MALE,2085-9,> OR = 40,,,`,
        ].join('\n'),
      );
      return { dir, expected: validateDataset(readFolderDataset(dir, bundledDataset()), dir) };
    };
    const another = async (metaTtlMs?: number) => {
      const s = await under.open(metaTtlMs);
      others.push(s);
      return s;
    };

    beforeEach(async () => {
      under = await factory();
      store = await under.open();
    });
    afterEach(async () => {
      await Promise.all([store, ...others.splice(0)].map((s) => s.close()));
      await under.cleanup();
    });

    it('reads before any sync answer from the bundled dataset', async () => {
      expect(await store.meta()).toBeNull();
      expect(await store.synced()).toBe(false);
      expect(await readAll(store)).toEqual(expectedReads(bundledDataset()));
      expect(await store.dataset()).toBe(bundledDataset());
    });

    it('a sync is read back exactly: the four resources, the meta row, a second sync changes nothing', async () => {
      const first = await syncRefdata(
        store,
        { kind: 'bundled' },
        { now: () => new Date('2026-01-02T03:04:05Z') },
      );
      expect(first.resources.reference_data).toEqual({
        added: bundledDataset().concepts.length,
        updated: 0,
        removed: 0,
      });
      expect(await store.meta()).toEqual({
        dataset_version: first.dataset_version,
        source: 'bundled',
        scoring_version: bundledDataset().scoring_version,
        synced_at: '2026-01-02T03:04:05.000Z',
      });
      const reader = await another();
      expect(await readAll(reader)).toEqual(expectedReads(bundledDataset()));
      expect(unchanged(await syncRefdata(store))).toBe(true);
    });

    it('a partial sync from a folder updates, adds and removes rows over what is stored', async () => {
      await syncRefdata(store);
      const lab = labFolder('acme');
      const result = await syncRefdata(store, { kind: 'folder', dir: lab.dir });
      expect(result.resources.reference_data).toEqual({ added: 0, updated: 1, removed: 1 });
      expect(result.resources.lab_ranges.added).toBe(2);
      const reader = await another();
      expect(await readAll(reader)).toEqual(expectedReads(lab.expected));
      expect(await reader.dataset()).toEqual({
        ...lab.expected,
        concepts: expectedReads(lab.expected).concepts,
        labRanges: expectedReads(lab.expected).labRanges,
      });
      expect(unchanged(await syncRefdata(store, { kind: 'folder', dir: lab.dir }))).toBe(true);
    });

    it('a sync by one instance is seen by another after its TTL, and the store is not asked before', async () => {
      const ttl = 300;
      const reader = await another(ttl);
      // First reads fill the cache; within the TTL the same reads answer at once, not as promises.
      expect(await reader.concepts()).toEqual(bundledDataset().concepts);
      await reader.labRanges({ sex: 'female' });
      const cachedAt = Date.now();
      expect(reader.concepts()).not.toBeInstanceOf(Promise);
      const lab = labFolder('seen');
      await syncRefdata(store, { kind: 'folder', dir: lab.dir });
      const stale = reader.concepts();
      const staleRanges = reader.labRanges({ sex: 'female' });
      if (Date.now() - cachedAt < ttl - 50) {
        expect(stale).not.toBeInstanceOf(Promise);
        expect(stale).toEqual(bundledDataset().concepts);
        expect(staleRanges).not.toBeInstanceOf(Promise);
      }
      await sleep(ttl + 20);
      expect(await reader.concepts()).toEqual(expectedReads(lab.expected).concepts);
      expect(await reader.labRanges({ sex: 'female' })).toEqual(
        expectedReads(lab.expected).labRanges.filter((r) => r.gender_name === 'FEMALE'),
      );
      expect((await reader.meta())?.source).toBe(lab.dir);
    });

    it('a failure inside the sync leaves the previous dataset whole', async () => {
      const before = await syncRefdata(store);
      const lab = labFolder('broken');
      await expect(
        syncRefdata(
          store,
          { kind: 'folder', dir: lab.dir },
          {
            onProgress: (resource) => {
              if (resource === 'top_disease_predictors') throw new Error('disk full');
            },
          },
        ),
      ).rejects.toThrow('disk full');
      const reader = await another();
      expect((await reader.meta())?.dataset_version).toBe(before.dataset_version);
      expect(await readAll(reader)).toEqual(expectedReads(bundledDataset()));
    });

    it("a folder sync lays its files over what is stored: a second folder's ranges join the first's", async () => {
      await syncRefdata(store);
      const [a, b] = [labFolder('first'), labFolder('second')];
      await syncRefdata(store, { kind: 'folder', dir: a.dir });
      await syncRefdata(await another(), { kind: 'folder', dir: b.dir });
      const overA = validateDataset(readFolderDataset(b.dir, a.expected), b.dir);
      expect(await readAll(await another())).toEqual(expectedReads(overA));
    });

    it('two instances syncing at once: the store ends with one of the datasets whole, never a mix', async () => {
      await syncRefdata(store);
      const other = await another();
      const a = labFolder('one');
      const b = labFolder('two');
      const [ra, rb] = await Promise.all([
        syncRefdata(store, { kind: 'folder', dir: a.dir }),
        syncRefdata(other, { kind: 'folder', dir: b.dir }),
      ]);
      const reader = await another();
      const meta = await reader.meta();
      const [winner, loser] = meta?.dataset_version === ra.dataset_version ? [a, b] : [b, a];
      expect([ra.dataset_version, rb.dataset_version]).toContain(meta?.dataset_version);
      // A folder sync lays its files over the dataset stored when it starts: the last writer's folder over
      // the bundled data, or over the other's whole result when that committed first. Either is a serial
      // outcome; a mix of both half-written would be neither.
      const overLoser = validateDataset(readFolderDataset(winner.dir, loser.expected), winner.dir);
      expect([expectedReads(winner.expected), expectedReads(overLoser)]).toContainEqual(
        await readAll(reader),
      );
    });
  });
}
