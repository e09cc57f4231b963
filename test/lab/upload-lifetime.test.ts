/**
 * The kept copy of an upload lives as long as its job may still run: it is deleted once the job's end is
 * committed, never by a handler that may yet lose its job to another worker.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { blobKeys } from '../../src/blobs/store.js';
import { Engine } from '../../src/engine/engine.js';
import { type JobKind, JobRegistry } from '../../src/engine/registry.js';
import { labExtractKind, submitLabFile } from '../../src/lab/job/kind.js';
import { closeSharedThreadPool } from '../../src/lab/job/thread-pool.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { pdfBytes } from './fixture-files.js';

afterAll(async () => {
  await closeSharedThreadPool();
});

describe('the kept upload of a lab job', () => {
  it('is still there for the next attempt when the first loses the job after finishing its work', async () => {
    const home = tmpHome('assay-upload-lifetime-');
    const lab = labExtractKind({ home: home.dir });
    let released = false;
    // The first attempt does all its work, then its lease is gone before the completion is written (as
    // when a busy machine misses heartbeats, or the process dies there): the job goes back to ready.
    const losesFirstLease: JobKind = {
      ...lab,
      handler: async (payload, ctx) => {
        const outcome = await lab.handler(payload, ctx);
        if (!released) {
          released = true;
          await engine.store.release(ctx.job.id, ctx.job.lockToken);
        }
        return outcome;
      },
    };
    const engine = Engine.open(home.dir, new JobRegistry().register(losesFirstLease));
    try {
      const job = await submitLabFile(engine, home.dir, {
        pdf: pdfBytes('quest-cbc-a1c'),
        filename: 'a.pdf',
      });
      engine.startWorker({ pollMs: 20 });
      const [done] = await engine.waitFor([job.id]);
      expect(released).toBe(true);
      expect(done).toMatchObject({ state: 'done', status: 'completed' });
      // Deleted by the worker that committed the end, right after it.
      for (let i = 0; i < 50 && (await engine.blobs.get(blobKeys.upload(job.id))); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await engine.blobs.get(blobKeys.upload(job.id))).toBeNull();
    } finally {
      await engine.close(1_000);
      home.cleanup();
    }
  });

  it('is deleted once the sweep has committed the end of a job whose worker died on every attempt', async () => {
    const home = tmpHome('assay-upload-swept-');
    const engine = Engine.open(home.dir, new JobRegistry().register(labExtractKind({ home: home.dir })));
    try {
      const job = await submitLabFile(engine, home.dir, {
        pdf: pdfBytes('quest-cbc-a1c'),
        filename: 'a.pdf',
      });
      // Two claims whose workers never come back (the kind allows two attempts): the leases run out.
      for (let attempt = 0; attempt < 2; attempt++) {
        const claimed = await engine.store.claim({
          workerId: 'dead',
          kinds: ['lab.extract'],
          leaseMs: 1,
          limit: 1,
        });
        expect(claimed.map((j) => j.id)).toEqual([job.id]);
        await new Promise((r) => setTimeout(r, 10));
      }
      // The upload outlives the dead attempts: only the committed end lets it go.
      expect(await engine.blobs.get(blobKeys.upload(job.id))).not.toBeNull();
      engine.startWorker({ pollMs: 20, leaseMs: 50 });
      let ended = await engine.mustGet(job.id);
      for (let i = 0; i < 100 && ended.state !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        ended = await engine.mustGet(job.id);
      }
      expect(ended).toMatchObject({ state: 'failed', errorType: 'WorkerLost' });
      for (let i = 0; i < 50 && (await engine.blobs.get(blobKeys.upload(job.id))); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await engine.blobs.get(blobKeys.upload(job.id))).toBeNull();
    } finally {
      await engine.close(1_000);
      home.cleanup();
    }
  });
});
