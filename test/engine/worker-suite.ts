import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { JobRegistry, PermanentJobError, RetryLaterError } from '../../src/engine/registry.js';

export type OpenEngine = (registry: JobRegistry) => Promise<{ engine: Engine; cleanup: () => void }>;

/**
 * What workers do over any store: retries and backoff, time limits, concurrency, statuses, graceful stop, the
 * outbox, lost workers. test/engine/worker.test.ts runs it on SQLite, test/engine/pg-worker.test.ts on a
 * real PostgreSQL server.
 */
export function workerSuite(name: string, open: OpenEngine): void {
  describe(`Worker (${name})`, () => {
    let cleanup: () => void;
    let registry: JobRegistry;
    let engine: Engine;

    beforeEach(async () => {
      registry = new JobRegistry();
      ({ engine, cleanup } = await open(registry));
    });
    afterEach(async () => {
      await engine.close(1_000);
      cleanup();
    });

    it('retries a throwing handler with growing delays, then fails it with its type and message', async () => {
      const calls: number[] = [];
      registry.register({
        kind: 'flaky',
        maxAttempts: 4,
        // Long enough that a busy machine's scheduling stalls (tests run two at a time) do not reorder the
        // gaps: the first is at most 100 ms, the third at least 200 ms.
        backoff: { baseMs: 100, maxMs: 10_000 },
        handler: async () => {
          calls.push(Date.now());
          throw Object.assign(new Error('upstream said no'), { name: 'UpstreamError' });
        },
      });
      const job = await engine.enqueue('flaky', {});
      engine.startWorker({ pollMs: 5 });
      const [final] = await engine.waitFor([job.id]);

      expect(final).toMatchObject({
        state: 'failed',
        status: 'failed',
        attempts: 4,
        errorType: 'UpstreamError',
        errorMessage: 'upstream said no',
      });
      const gaps = calls.slice(1).map((t, i) => t - (calls[i] as number));
      // Equal jitter: the wait before attempt n+1 is at least half of base * 2^(n-1).
      gaps.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual((100 * 2 ** i) / 2 - 2);
      });
      expect(gaps[2]).toBeGreaterThan(gaps[0] as number);

      const revived = await engine.store.retry(job.id);
      expect(revived).toMatchObject({ state: 'ready', attempts: 0, errorType: null });
    });

    it('a permanent error ends the job at once, without retries', async () => {
      registry.register({
        kind: 'corrupt',
        maxAttempts: 5,
        handler: async () => {
          throw new PermanentJobError('invalid_pdf', 'The file is not a readable PDF.');
        },
      });
      const job = await engine.enqueue('corrupt', {});
      engine.startWorker({ pollMs: 5 });
      const [final] = await engine.waitFor([job.id]);
      expect(final).toMatchObject({ state: 'failed', attempts: 1, errorType: 'invalid_pdf' });
    });

    it('aborts a handler past its time limit and records JobTimeout', async () => {
      registry.register({
        kind: 'slow',
        maxAttempts: 1,
        timeoutMs: 50,
        handler: (_p, ctx) => sleep(10_000, undefined, { signal: ctx.signal }).then(() => ({})),
      });
      const job = await engine.enqueue('slow', {});
      engine.startWorker({ pollMs: 5 });
      const [final] = await engine.waitFor([job.id]);
      expect(final).toMatchObject({ state: 'failed', errorType: 'JobTimeout' });
    });

    it('runs at most `concurrency` jobs at once', async () => {
      let running = 0;
      let peak = 0;
      registry.register({
        kind: 'count',
        handler: async () => {
          running += 1;
          peak = Math.max(peak, running);
          await sleep(20);
          running -= 1;
          return { result: 'ok' };
        },
      });
      const jobs = await engine.enqueueMany(Array.from({ length: 12 }, () => registry.newJob('count', {})));
      engine.startWorker({ concurrency: 3, pollMs: 5 });
      const finals = await engine.waitFor(jobs.map((j) => j.id));
      expect(finals.every((j) => j.state === 'done')).toBe(true);
      expect(peak).toBe(3);
    });

    it('jobs running longer than their lease keep it: a second worker never takes them', async () => {
      const starts = new Map<string, number>();
      registry.register({
        kind: 'slow',
        handler: async (_payload, ctx) => {
          starts.set(ctx.job.id, (starts.get(ctx.job.id) ?? 0) + 1);
          await sleep(700);
          return {};
        },
      });
      const jobs = await engine.enqueueMany(Array.from({ length: 4 }, () => registry.newJob('slow', {})));
      // One worker holds them all; its jobs start at different moments and share one heartbeat timer.
      engine.startWorker({ concurrency: 4, pollMs: 5, leaseMs: 150 });
      await sleep(50);
      engine.startWorker({ concurrency: 4, pollMs: 5, leaseMs: 150 });
      const finals = await engine.waitFor(jobs.map((j) => j.id));
      expect(finals.map((j) => [j.state, j.attempts])).toEqual(jobs.map(() => ['done', 1]));
      expect([...starts.values()]).toEqual([1, 1, 1, 1]);
    });

    it('handlers move through SPEC.md processing states and can end in a non-success terminal status', async () => {
      const seen: string[] = [];
      registry.register({
        kind: 'stages',
        waitingStatus: 'queued',
        runningStatus: 'processing_language',
        handler: async (_p, ctx) => {
          seen.push((await engine.mustGet(ctx.job.id)).status);
          await ctx.setStatus('processing_phi');
          seen.push((await engine.mustGet(ctx.job.id)).status);
          return { status: 'quarantined', result: { reason: 'non_english_document' } };
        },
      });
      const job = await engine.enqueue('stages', {});
      expect(job.status).toBe('queued');
      engine.startWorker({ pollMs: 5 });
      const [final] = await engine.waitFor([job.id]);
      expect(seen).toEqual(['processing_language', 'processing_phi']);
      expect(final).toMatchObject({ state: 'done', status: 'quarantined' });
    });

    it('graceful stop hands unfinished jobs back without spending an attempt', async () => {
      registry.register({
        kind: 'long',
        handler: (_p, ctx) => sleep(10_000, undefined, { signal: ctx.signal }).then(() => ({})),
      });
      const job = await engine.enqueue('long', {});
      const worker = engine.startWorker({ pollMs: 5 });
      while ((await engine.mustGet(job.id)).state !== 'running') await sleep(5);
      await worker.stop(20);
      expect(await engine.mustGet(job.id)).toMatchObject({ state: 'ready', attempts: 0, lockedUntil: null });
    });

    it('delivers follow-up jobs (outbox) only after the parent completes', async () => {
      const delivered: unknown[] = [];
      registry.register({
        kind: 'parent',
        handler: async () => ({
          result: 'made',
          followUps: [registry.newJob('deliver', { to: 'receiver' })],
        }),
      });
      registry.register({
        kind: 'deliver',
        handler: async (payload) => {
          delivered.push(payload);
          return {};
        },
      });
      const job = await engine.enqueue('parent', {});
      engine.startWorker({ pollMs: 5 });
      await engine.waitFor([job.id]);
      const [child] = await engine.store.list({ parentId: job.id });
      await engine.waitFor([child?.id as string]);
      expect(delivered).toEqual([{ to: 'receiver' }]);
    });
  });

  describe(`Worker (${name}): a job whose worker died on its last attempt`, () => {
    it('ends WorkerLost and still gets its failure follow-ups (its webhook or callback)', async () => {
      const registry = new JobRegistry();
      const notified: unknown[] = [];
      registry.register({
        kind: 'fragile',
        maxAttempts: 1,
        handler: async () => ({}),
        onFinalFailure: (job, error) => [registry.newJob('notify', { of: job.id, error: error.type })],
      });
      registry.register({
        kind: 'notify',
        handler: async (payload) => {
          notified.push(payload);
          return {};
        },
      });
      const { engine, cleanup } = await open(registry);
      try {
        const job = await engine.enqueue('fragile', {});
        // A worker that claimed the job on its only attempt and died: its lease runs out, nobody finishes it.
        const [claimed] = await engine.store.claim({
          workerId: 'dead',
          kinds: ['fragile'],
          leaseMs: 20,
          limit: 1,
        });
        expect(claimed?.id).toBe(job.id);
        engine.startWorker({ pollMs: 5, leaseMs: 50 });
        const [final] = await engine.waitFor([job.id]);
        expect(final).toMatchObject({ state: 'failed', errorType: 'WorkerLost' });
        const [child] = await engine.store.list({ parentId: job.id });
        await engine.waitFor([child?.id as string]);
        expect(notified).toEqual([{ of: job.id, error: 'WorkerLost' }]);
      } finally {
        await engine.close(1_000);
        cleanup();
      }
    });
  });

  describe(`Worker (${name}): RetryLaterError`, () => {
    it('waits at least the requested time before the next attempt', async () => {
      const registry = new JobRegistry();
      const { engine, cleanup } = await open(registry);
      const calls: number[] = [];
      registry.register({
        kind: 'busy-receiver',
        maxAttempts: 2,
        backoff: { baseMs: 1, maxMs: 1 },
        handler: async () => {
          calls.push(Date.now());
          if (calls.length === 1) throw new RetryLaterError('ReceiverBusy', 'receiver asked to wait', 300);
          return {};
        },
      });
      const job = await engine.enqueue('busy-receiver', {});
      engine.startWorker({ pollMs: 5 });
      const [final] = await engine.waitFor([job.id]);
      expect(final?.state).toBe('done');
      expect((calls[1] as number) - (calls[0] as number)).toBeGreaterThanOrEqual(295);
      await engine.close();
      cleanup();
    });
  });
}
