import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILENAME, openDatabase } from '../../src/engine/sqlite/open-database.js';
import { bundledDataset } from '../../src/refdata/dataset.js';
import { RefdataStore } from '../../src/refdata/store.js';
import { syncRefdata } from '../../src/refdata/sync.js';
import { firstLine } from '../engine/support/first-line.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const CHILD = new URL('./support/slow-sync.ts', import.meta.url).pathname;

describe('refdata sync killed mid-way', () => {
  const home = tmpHome('assay-refdata-crash-');
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    home.cleanup();
  });

  it('kill -9 inside the transaction leaves the previous dataset intact', async () => {
    const db = openDatabase(home.dir);
    const previous = await syncRefdata(db);
    db.close();

    // A large replacement: every concept renamed, and 60,000 lab ranges of a new vendor, enough that
    // SQLite spills uncommitted pages into the WAL before the kill.
    const dir = join(home.dir, 'big');
    mkdirSync(dir);
    const template = bundledDataset().labRanges[0];
    if (!template) throw new Error('no lab range to copy');
    const ranges = Array.from({ length: 60_000 }, (_, i) => ({
      ...template,
      lab_range_id: 1_000_000 + i,
      vendor_name: 'Big Lab',
      menstrual_cycle: `phase ${i}`,
    }));
    writeFileSync(join(dir, 'lab-ranges.json'), JSON.stringify(ranges));
    writeFileSync(
      join(dir, 'reference-data.json'),
      JSON.stringify(
        bundledDataset().concepts.map((c) => ({ ...c, concept_name: `${c.concept_name} (v2)` })),
      ),
    );

    // Closing the store checkpointed and removed the WAL: anything in it now comes from the child.
    const wal = join(home.dir, `${DB_FILENAME}-wal`);
    const walBefore = existsSync(wal) ? statSync(wal).size : 0;
    child = spawn(process.execPath, ['--import', 'tsx', CHILD, home.dir, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    expect(await firstLine(child)).toBe('in-transaction 60000');
    const walBytes = statSync(wal).size;
    child.kill('SIGKILL');
    await once(child, 'exit');

    const after = openDatabase(home.dir);
    try {
      const store = new RefdataStore(after);
      expect((await store.meta())?.dataset_version).toBe(previous.dataset_version);
      expect(await store.concepts()).toEqual(bundledDataset().concepts);
      expect(await store.labRanges()).toEqual(bundledDataset().labRanges);
      expect(await store.topDiseasePredictors()).toEqual(bundledDataset().top);
      expect(
        (
          await store.predictorStatistics({
            header: { event_id: 'e', event_asof_dtutc: '2025-01-01T00:00:00Z' },
            sex: 'female',
            age: 50,
          })
        ).predictor_statistics,
      ).toEqual(
        bundledDataset().statistics.find((g) => g.sex === 'female' && g.age === 50)?.predictor_statistics,
      );
      expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      after.close();
    }
    // The kill landed after uncommitted pages of the new dataset reached the WAL file, not before any write.
    expect(walBytes - walBefore).toBeGreaterThan(1_000_000);
  }, 60_000);
});
