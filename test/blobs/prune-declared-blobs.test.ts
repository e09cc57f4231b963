import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRUNE_GRACE_MS, pruneBlobs } from '../../src/blobs/prune.js';
import { openEngine } from '../../src/cli/engine.js';
import { demoKind } from '../../src/engine/demo.js';
import type { Engine } from '../../src/engine/engine.js';
import type { JobKind } from '../../src/engine/registry.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const BYTES = Buffer.from('kept by a kind pruning knows nothing of');

/** Blobs bound to their job, as uploads are: they go once the job has ended. */
const scratchKind: JobKind = {
  kind: 'test.scratch',
  handler: async () => ({}),
  blobs: { prefix: 'scratch/', owner: (key) => /^scratch\/([^/]+)\.bin$/.exec(key)?.[1] },
};

/** Blobs that outlive their job, as report PDFs and credentials do: named by live jobs, kept while stored. */
const archiveKind: JobKind = {
  kind: 'test.archive',
  handler: async () => ({}),
  blobs: {
    prefix: 'archive/',
    owner: (key) => /^archive\/([^/]+)\.out$/.exec(key)?.[1],
    keepWhileStored: true,
    shared: (key) => key.startsWith('archive/shared/'),
    live: (job) => (job.payload as { reads: string[] }).reads,
  },
};

const exists = async (engine: Engine, key: string) => (await engine.blobs.get(key)) !== null;

describe('`jobs prune` and the blobs a registered kind declares', () => {
  let home: ReturnType<typeof tmpHome>;
  let engine: Engine;
  beforeEach(async () => {
    home = tmpHome('assay-prune-declared-');
    engine = await openEngine({ home: home.dir });
    engine.registry.register(scratchKind).register(archiveKind);
  });
  afterEach(async () => {
    await engine.close();
    home.cleanup();
  });

  it('deletes a blob bound to its job once the job has ended or is gone, whatever the retention', async () => {
    const ended = await engine.enqueue(scratchKind.kind, {});
    const live = await engine.enqueue(scratchKind.kind, {});
    const otherKind = await engine.enqueue(demoKind.kind, { n: 1 });
    const keys = [ended.id, live.id, otherKind.id, 'no-such-job'].map((id) => `scratch/${id}.bin`);
    for (const key of [...keys, 'scratch/notes.txt']) await engine.blobs.put(key, BYTES);
    await engine.store.cancel(ended.id);

    expect(await pruneBlobs(engine, 0)).toBe(0);
    expect(await pruneBlobs(engine, 0, Date.now() + PRUNE_GRACE_MS + 1_000)).toBe(3);
    expect(await exists(engine, `scratch/${live.id}.bin`)).toBe(true);
    // A key the kind does not recognise as its own is never pruning's to delete.
    expect(await exists(engine, 'scratch/notes.txt')).toBe(true);
  });

  it('keeps a blob while its job is stored or a live job names it, and only up to the retention', async () => {
    const none = { reads: [] };
    const pruned = await engine.enqueue(archiveKind.kind, none);
    const kept = await engine.enqueue(archiveKind.kind, none);
    const named = await engine.enqueue(archiveKind.kind, none);
    const reader = await engine.enqueue(archiveKind.kind, {
      reads: [`archive/${named.id}.out`, 'archive/shared/needed'],
    });
    const own = (job: { id: string }) => `archive/${job.id}.out`;
    const files = [own(pruned), own(kept), own(named), 'archive/shared/needed', 'archive/shared/orphan'];
    for (const key of [...files, 'archive/notes.txt']) await engine.blobs.put(key, BYTES);
    await engine.store.cancel(pruned.id);
    await engine.store.cancel(named.id);
    const later = Date.now() + 10;
    await new Promise((r) => setTimeout(r, 20));
    // Ended after the cutoff: the job stays stored, and so does its blob.
    await engine.store.cancel(kept.id);
    const afterGrace = Date.now() + PRUNE_GRACE_MS + 1_000;

    expect(await pruneBlobs(engine, 0, afterGrace)).toBe(0);
    expect(await engine.store.prune(later, { dryRun: true })).toBe(2);
    expect(await pruneBlobs(engine, later, afterGrace, { dryRun: true })).toBe(2);
    for (const key of files) expect(await exists(engine, key)).toBe(true);

    expect(await engine.store.prune(later)).toBe(2);
    expect(await pruneBlobs(engine, later, afterGrace)).toBe(2);
    expect(await exists(engine, own(pruned))).toBe(false);
    expect(await exists(engine, 'archive/shared/orphan')).toBe(false);
    for (const key of [own(kept), own(named), 'archive/shared/needed', 'archive/notes.txt'])
      expect(await exists(engine, key)).toBe(true);

    // Once the reader has ended, nothing names what it read.
    await engine.store.cancel(reader.id);
    expect(await pruneBlobs(engine, later, afterGrace)).toBe(2);
    expect(await exists(engine, own(named))).toBe(false);
    expect(await exists(engine, 'archive/shared/needed')).toBe(false);
    expect(await exists(engine, own(kept))).toBe(true);
  });
});
