import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { JobRegistry } from '../../src/engine/registry.js';
import type { JobRecord } from '../../src/engine/types.js';
import { tmpHome } from './support/tmp-home.js';

/**
 * Engine.waitFor over many jobs reads by id only what can have changed (the jobs its own workers settle,
 * those that stop running, a rotating share of the rest): the same outcome as reading every job on every
 * poll, including for jobs another process runs or cancels.
 */
describe('Engine.waitFor', () => {
  const open: Array<{ engine: Engine; cleanup?: () => void }> = [];
  afterEach(async () => {
    for (const { engine, cleanup } of open.splice(0).reverse()) {
      await engine.close(1_000);
      cleanup?.();
    }
  });

  function registry(delayMs: number): JobRegistry {
    return new JobRegistry().register({
      kind: 'step',
      waitingStatus: 'queued',
      handler: async (payload, ctx) => {
        await ctx.setStatus('working');
        await sleep(delayMs);
        return { status: (payload as { fail?: boolean }).fail ? 'rejected' : 'completed', result: payload };
      },
    });
  }

  it("returns every job's final record, in the order asked, and tells each end once", async () => {
    const home = tmpHome();
    const reg = registry(2);
    const engine = Engine.open(home.dir, reg);
    open.push({ engine, cleanup: home.cleanup });
    const jobs = await engine.enqueueMany(
      Array.from({ length: 40 }, (_, i) => reg.newJob('step', { i, fail: i % 7 === 0 })),
    );
    engine.startWorker({ concurrency: 3, pollMs: 5 });
    const ends = new Map<string, number>();
    const ids = [...jobs.map((j) => j.id), jobs[0]?.id as string];
    const finals = await engine.waitFor(ids, {
      pollMs: 20,
      onChange: (job) => {
        if (job.state === 'done') ends.set(job.id, (ends.get(job.id) ?? 0) + 1);
      },
    });
    expect(finals.map((j) => j.id)).toEqual(ids);
    expect(finals.map((j) => [j.state, j.status])).toEqual(
      ids.map((_, i) => ['done', (i % 40) % 7 === 0 ? 'rejected' : 'completed']),
    );
    expect([...ends.values()]).toEqual(jobs.map(() => 1));
    const stored = await Promise.all(jobs.map((j) => engine.mustGet(j.id)));
    expect(finals.slice(0, 40)).toEqual(stored);
  });

  it('sees jobs another process runs and cancels, with no worker of its own', async () => {
    const home = tmpHome();
    const reg = registry(1);
    const waiting = Engine.open(home.dir, reg);
    open.push({ engine: waiting, cleanup: home.cleanup });
    const other = Engine.open(home.dir, reg);
    open.push({ engine: other });
    const jobs = await waiting.enqueueMany(Array.from({ length: 30 }, (_, i) => reg.newJob('step', { i })));
    const cancelled = jobs.slice(-5).map((j) => j.id);
    const wait = waiting.waitFor(
      jobs.map((j) => j.id),
      { pollMs: 10 },
    );
    for (const id of cancelled) await other.store.cancel(id);
    await sleep(30);
    other.startWorker({ concurrency: 2, pollMs: 5 });
    const started = Date.now();
    const finals: JobRecord[] = await wait;
    expect(finals.map((j) => j.state)).toEqual(
      jobs.map((j) => (cancelled.includes(j.id) ? 'cancelled' : 'done')),
    );
    // Whatever it did not see settle, it read within its sweep (about 2 s), not never.
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('stops waiting when its signal aborts', async () => {
    const home = tmpHome();
    const reg = registry(1);
    const engine = Engine.open(home.dir, reg);
    open.push({ engine, cleanup: home.cleanup });
    const jobs = await engine.enqueueMany(Array.from({ length: 20 }, () => reg.newJob('step', {})));
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    await expect(
      engine.waitFor(
        jobs.map((j) => j.id),
        { signal: abort.signal },
      ),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
