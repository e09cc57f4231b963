import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/blobs/file.js';
import { openEngine } from '../../src/cli/engine.js';
import { UsageError } from '../../src/errors.js';
import { appendFileRevision, readResultFile, resultFilePaths } from '../../src/review/file-reviews.js';
import {
  appendJobRevision,
  pruneReviews,
  readJobRevisions,
  reviewedResult,
  reviewKey,
} from '../../src/review/job-reviews.js';
import { newRevision } from '../../src/review/revisions.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { sampleResult } from './support.js';

const home = tmpHome('assay-review-storage-');
afterAll(() => home.cleanup());

describe('a job review lives as long as its job', () => {
  it('jobs prune forgets the reviews of jobs no longer in the store (and a dry run only counts them)', async () => {
    const engine = await openEngine({ home: home.dir });
    try {
      const kept = await engine.enqueue('demo.hash', { work: 1 });
      const gone = '0b6e9a33-7c1f-4d2e-8a5b-6c7d8e9f0a1b';
      const revision = newRevision({ resultId: 'p1-glucose-1', action: 'accept' }, 'cli');
      await appendJobRevision(engine.blobs, kept.id, revision);
      await appendJobRevision(engine.blobs, gone, revision);
      expect(await pruneReviews(engine, { dryRun: true })).toBe(1);
      expect(await engine.blobs.get(reviewKey(gone))).not.toBeNull();
      expect(await pruneReviews(engine)).toBe(1);
      expect(await engine.blobs.get(reviewKey(gone))).toBeNull();
      expect(await readJobRevisions(engine.blobs, kept.id)).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });
});

describe('a job review lives in the blob store, beside the untouched result', () => {
  const blobs = new FileBlobStore(home.dir);
  const jobId = '6f1c1d0e-2b7a-4c55-9d1e-3a4b5c6d7e8f';

  it('reviewedResult gives the stored result back as it is until someone reviews it', async () => {
    const body = sampleResult();
    expect(await reviewedResult(blobs, jobId, body)).toBe(body);
  });

  it('keeps every revision, in order, and readers get the reviewed result', async () => {
    const first = newRevision(
      { resultId: 'p1-glucose-1', action: 'edit', changes: { resultValue: '89' } },
      'cli',
    );
    const second = newRevision({ resultId: 'p1-albumin-1', action: 'not_a_result' }, 'key-1');
    // Two changes in flight at once (two quick keypresses) must both be kept.
    await Promise.all([appendJobRevision(blobs, jobId, first), appendJobRevision(blobs, jobId, second)]);
    expect((await readJobRevisions(blobs, jobId)).map((r) => r.id)).toEqual([first.id, second.id]);
    expect(await blobs.get(reviewKey(jobId))).not.toBeNull();

    const reviewed = await reviewedResult(blobs, jobId, sampleResult());
    const rows = reviewed.panels.flatMap((p) => p.panelResults);
    expect(rows.find((r) => r.id === 'p1-glucose-1')).toMatchObject({ resultValue: '89', doubts: [] });
    expect(rows.find((r) => r.id === 'p1-albumin-1')).toBeUndefined();
  });

  it('passes bodies without results (queued, rejected, failed) through without reading', async () => {
    const failed = { jobId, status: 'failed', error: { code: 'no_results', message: 'x' } };
    expect(await reviewedResult(blobs, jobId, failed)).toBe(failed);
  });

  it('refuses a job id that could name another blob', () => {
    expect(() => reviewKey('../uploads/x')).toThrow();
  });
});

describe('a result file is reviewed beside itself', () => {
  it('writes revisions to <name>.review.json and the reviewed result to <name>.reviewed.json', async () => {
    const path = join(home.dir, 'report.json');
    const original = `${JSON.stringify(sampleResult(), null, 2)}\n`;
    writeFileSync(path, original);
    const paths = resultFilePaths(path);
    expect(paths.sidecar).toBe(join(home.dir, 'report.review.json'));
    expect(paths.reviewed).toBe(join(home.dir, 'report.reviewed.json'));

    const result = readResultFile(path);
    await appendFileRevision(
      paths,
      result,
      newRevision({ resultId: 'p1-glucose-1', action: 'accept' }, 'cli'),
    );
    expect(readFileSync(path, 'utf8')).toBe(original);
    const sidecar = JSON.parse(readFileSync(paths.sidecar, 'utf8'));
    expect(sidecar).toMatchObject({
      version: 1,
      result: 'report.json',
      revisions: [{ action: 'accept', by: 'cli' }],
    });
    const reviewed = JSON.parse(readFileSync(paths.reviewed, 'utf8'));
    expect(reviewed.panels[0].panelResults[0]).toMatchObject({
      id: 'p1-glucose-1',
      doubts: [],
      reviewed: { by: 'cli' },
    });
    expect(reviewed.review).toMatchObject({ revisions: 1 });
  });

  it('says why a file is not a result (a usage error, exit 2)', () => {
    const write = (name: string, value: unknown) => {
      const p = join(home.dir, name);
      writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value));
      return p;
    };
    const cases: Array<[string, unknown, RegExp]> = [
      ['list.json', [1, 2], /not a JSON object/],
      ['failed.json', { jobId: 'x', status: 'invalid_document' }, /ended invalid_document/],
      ['other.json', { hello: 'world' }, /no panels/],
      ['bad.json', '{not json', /not valid JSON/],
      ['x.reviewed.json', sampleResult(), /written by review/],
    ];
    for (const [name, value, message] of cases) {
      const path = write(name, value);
      expect(() => readResultFile(path)).toThrow(message);
      try {
        readResultFile(path);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).exitCode).toBe(2);
      }
    }
  });
});
