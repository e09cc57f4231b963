import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { ThreadPool, ThreadTaskError } from '../../src/lab/job/thread-pool.js';
import { pdfBytes } from './fixture-files.js';

const BATCH = ['quest-annual-male', 'labcorp-annual-female', 'quest-cmp-lipid', 'labcorp-cbc-urinalysis'];

describe('ThreadPool', () => {
  let pool: ThreadPool;
  afterEach(async () => {
    await pool?.close();
  });

  it('keeps the event loop responsive while a batch is parsed', async () => {
    pool = new ThreadPool(2);
    await pool.run(pdfBytes('quest-cbc-a1c'), {}); // start-up (tsx in the thread) is not what is measured
    const delay = monitorEventLoopDelay({ resolution: 10 });
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 5);
    delay.enable();
    const started = performance.now();
    const outcomes = await Promise.all(
      [...BATCH, ...BATCH, ...BATCH].map((name) => pool.run(pdfBytes(name), { rejectIfPHI: false })),
    );
    const elapsed = performance.now() - started;
    delay.disable();
    clearInterval(ticker);

    expect(outcomes.map((o) => o.status)).toEqual(Array(12).fill('completed'));
    expect(pool.threads).toBeLessThanOrEqual(2);
    // The main thread only moved bytes and messages: it ticked all along and never stalled for long.
    expect(delay.max / 1e6).toBeLessThan(150);
    expect(ticks).toBeGreaterThan(elapsed / 5 / 4);
  });

  it('prestarts threads up to its size, and they take the work that follows', async () => {
    pool = new ThreadPool(2);
    pool.prestart(1);
    expect(pool.threads).toBe(1);
    pool.prestart(5);
    expect(pool.threads).toBe(2);
    const outcomes = await Promise.all(BATCH.map((name) => pool.run(pdfBytes(name), { rejectIfPHI: false })));
    expect(outcomes.map((o) => o.status)).toEqual(Array(BATCH.length).fill('completed'));
    expect(pool.threads).toBe(2);
  });

  it('reports stages from the thread in order', async () => {
    pool = new ThreadPool(1);
    const stages: string[] = [];
    await pool.run(pdfBytes('labcorp-cmp-lipid'), {}, { onStage: (s) => stages.push(s) });
    expect(stages).toEqual(['processing_language', 'processing_phi', 'processing_extraction']);
  });

  it('carries document errors back as a code and a fixed message', async () => {
    pool = new ThreadPool(1);
    const error = await pool.run(pdfBytes('corrupt-truncated'), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThreadTaskError);
    expect(error).toMatchObject({
      code: 'invalid_pdf',
      message: 'The PDF is damaged or incomplete and cannot be read.',
    });
  });

  it('terminates the thread of an aborted task and carries on with a fresh one', async () => {
    pool = new ThreadPool(1);
    const abort = new AbortController();
    const running = pool.run(pdfBytes('quest-annual-male'), {}, { signal: abort.signal });
    const queued = pool.run(pdfBytes('quest-cmp-lipid'), {});
    setTimeout(() => abort.abort(new Error('too slow')), 5);
    await expect(running).rejects.toThrow('too slow');
    await expect(queued).resolves.toMatchObject({ status: 'completed' });
  });

  it('drops a queued task whose signal aborts before it starts', async () => {
    pool = new ThreadPool(1);
    const abort = new AbortController();
    const first = pool.run(pdfBytes('quest-cmp-lipid'), {});
    const second = pool.run(pdfBytes('quest-cmp-lipid'), {}, { signal: abort.signal });
    abort.abort(new Error('cancelled'));
    await expect(second).rejects.toThrow('cancelled');
    await expect(first).resolves.toMatchObject({ status: 'completed' });
  });

  it('starts its threads from the .ts sources through tsx when the suite gives no bundle', async () => {
    // The suite runs threads from a bundle of these sources (test/support/worker-bundles.ts); `tsx` and
    // `npm run bench` run them as here.
    const bundles = process.env.ASSAY_TEST_WORKER_BUNDLES;
    delete process.env.ASSAY_TEST_WORKER_BUNDLES;
    try {
      pool = new ThreadPool(1);
      const stages: string[] = [];
      const outcome = await pool.run(pdfBytes('quest-cmp-lipid'), {}, { onStage: (s) => stages.push(s) });
      expect(outcome.status).toBe('completed');
      expect(stages).toEqual(['processing_language', 'processing_phi', 'processing_extraction']);
    } finally {
      if (bundles !== undefined) process.env.ASSAY_TEST_WORKER_BUNDLES = bundles;
    }
  });

  it('refuses work once closed', async () => {
    pool = new ThreadPool(1);
    await pool.close();
    await expect(pool.run(pdfBytes('quest-cmp-lipid'), {})).rejects.toThrow(/closed/);
  });
});
