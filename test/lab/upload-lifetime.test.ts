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
});
