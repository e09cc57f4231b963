import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobStore } from '../../src/engine/store.js';
import type { ClaimedJob } from '../../src/engine/types.js';

interface StoreUnderTest {
  store: JobStore;
  cleanup: () => void | Promise<void>;
}

/**
 * The promises every JobStore keeps. Each store passes this suite before it may sit behind the engine:
 * test/engine/sqlite-store.test.ts and test/engine/pg-store.test.ts (against a real PostgreSQL server).
 */
export function testStore(name: string, factory: () => StoreUnderTest | Promise<StoreUnderTest>): void {
  describe(`JobStore conformance: ${name}`, () => {
    let store: JobStore;
    let cleanup: StoreUnderTest['cleanup'];
    const claimOne = async (now?: number, leaseMs = 1_000) => {
      const [job] = await store.claim({ workerId: 'w1', kinds: ['k'], leaseMs, limit: 1, now });
      return job;
    };

    beforeEach(async () => {
      ({ store, cleanup } = await factory());
    });
    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    it('enqueues with the kind vocabulary and returns the stored record', async () => {
      const [job] = await store.enqueue([{ kind: 'k', payload: { a: 1 }, waitingStatus: 'pending' }]);
      expect(job).toMatchObject({
        kind: 'k',
        state: 'ready',
        status: 'pending',
        attempts: 0,
        payload: { a: 1 },
      });
      expect(await store.get(job?.id as string)).toEqual(job);
    });

    it('states: each existing job of the ids asked, with its current state and status, in one read', async () => {
      // What Engine.waitFor polls a large batch with; a store may leave it out (the engine then reads job by job).
      if (!store.states) return;
      const jobs = await store.enqueue(
        Array.from({ length: 5 }, () => ({
          kind: 'k',
          waitingStatus: 'pending',
          runningStatus: 'processing',
        })),
      );
      const ids = jobs.map((j) => j.id);
      const running = await claimOne(undefined, 60_000);
      const done = await claimOne(undefined, 60_000);
      if (!running || !done) throw new Error('nothing claimed');
      await store.complete(done.id, done.lockToken, { status: 'completed', result: { ok: true } });
      await store.cancel(ids[4] as string);

      const states = await store.states([...ids, 'no-such-job']);
      const byId = new Map(states.map((s) => [s.id, [s.state, s.status]]));
      expect(byId.size).toBe(5);
      for (const id of ids) {
        const job = await store.get(id);
        expect(byId.get(id)).toEqual([job?.state, job?.status]);
      }
      expect(byId.get(running.id)).toEqual(['running', 'processing']);
      expect(byId.get(done.id)).toEqual(['done', 'completed']);
      expect(byId.get(ids[4] as string)).toEqual(['cancelled', 'cancelled']);
      expect(states.map((s) => Object.keys(s).sort())).toEqual(states.map(() => ['id', 'state', 'status']));
      expect(await store.states([])).toEqual([]);
    });

    it('keeps the owner a job was enqueued with; a job enqueued without one has none', async () => {
      const [owned, unowned] = await store.enqueue([{ kind: 'k', owner: 'key-a' }, { kind: 'k' }]);
      expect((await store.get(owned?.id as string))?.owner).toBe('key-a');
      expect((await store.get(unowned?.id as string))?.owner).toBeNull();
      const claimed = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 1000, limit: 2 });
      expect(claimed.find((j) => j.id === owned?.id)?.owner).toBe('key-a');
    });

    it('claims a job once: a second claim finds nothing while the lease holds', async () => {
      await store.enqueue([{ kind: 'k', runningStatus: 'processing_x' }]);
      const first = await claimOne();
      expect(first).toMatchObject({ state: 'running', status: 'processing_x', attempts: 1, workerId: 'w1' });
      expect(first?.lockToken).toBeTruthy();
      expect(await claimOne()).toBeUndefined();
    });

    it('claims only due jobs of the requested kinds, oldest due first, up to the limit', async () => {
      const now = Date.now();
      await store.enqueue([
        { kind: 'k', payload: 'later', runAt: now + 60_000 },
        { kind: 'other', payload: 'other' },
        { kind: 'k', payload: 'second', runAt: now - 10 },
        { kind: 'k', payload: 'first', runAt: now - 20 },
      ]);
      const jobs = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 1000, limit: 5, now });
      expect(jobs.map((j) => j.payload)).toEqual(['first', 'second']);
    });

    it("claims round robin across owners: one owner's backlog does not queue another's job behind it", async () => {
      const now = Date.now();
      await store.enqueue([
        ...[1, 2, 3, 4].map((n) => ({ kind: 'k', owner: 'a', payload: `a${n}`, runAt: now - 100 + n })),
        { kind: 'k', owner: 'b', payload: 'b1', runAt: now - 10 },
      ]);
      const first = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 60_000, limit: 1, now });
      expect(first.map((j) => j.payload)).toEqual(['a1']);
      // a already has a job running: b's only job comes before a's second.
      const second = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 60_000, limit: 1, now });
      expect(second.map((j) => j.payload)).toEqual(['b1']);
      const rest = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 60_000, limit: 5, now });
      expect(rest.map((j) => j.payload)).toEqual(['a2', 'a3', 'a4']);
    });

    it('between owners with nothing running, the one served least recently goes first', async () => {
      const now = Date.now();
      await store.enqueue([
        ...[1, 2, 3].map((n) => ({ kind: 'k', owner: 'a', payload: `a${n}`, runAt: now - 100 + n })),
        { kind: 'k', owner: 'b', payload: 'b1', runAt: now - 10 },
      ]);
      const [a1] = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 60_000, limit: 1, now });
      expect(a1?.payload).toBe('a1');
      await new Promise((r) => setTimeout(r, 5));
      await store.complete(a1?.id as string, a1?.lockToken as string, {});
      // One slot, a finished: a2 and b1 are both first in line for their owner, and b waited longer.
      const [next] = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 60_000, limit: 1, now });
      expect(next?.payload).toBe('b1');
    });

    it('re-claims a job whose lease expired and fences the old owner out', async () => {
      const [job] = await store.enqueue([{ kind: 'k' }]);
      const now = Date.now();
      const first = await claimOne(now, 100);
      const second = await claimOne(now + 200, 100);
      expect(second?.id).toBe(job?.id);
      expect(second?.attempts).toBe(2);
      expect(await store.complete(first?.id as string, first?.lockToken as string, { result: 'stale' })).toBe(
        false,
      );
      expect(await store.heartbeat(first?.id as string, first?.lockToken as string, now + 10_000)).toBe(
        false,
      );
      expect(
        await store.complete(second?.id as string, second?.lockToken as string, { result: 'fresh' }),
      ).toBe(true);
      expect(await store.get(job?.id as string)).toMatchObject({
        state: 'done',
        status: 'completed',
        result: 'fresh',
      });
    });

    it('a heartbeat keeps the lease', async () => {
      await store.enqueue([{ kind: 'k' }]);
      const now = Date.now();
      const job = await claimOne(now, 100);
      expect(await store.heartbeat(job?.id as string, job?.lockToken as string, now + 10_000)).toBe(true);
      expect(await claimOne(now + 500)).toBeUndefined();
    });

    it('heartbeats for many jobs at once each answer for their own job', async () => {
      await store.enqueue([{ kind: 'k' }, { kind: 'k' }, { kind: 'k' }]);
      const now = Date.now();
      const held = await store.claim({ workerId: 'w1', kinds: ['k'], leaseMs: 100, limit: 3, now });
      expect(held).toHaveLength(3);
      const [a, b, c] = held as [ClaimedJob, ClaimedJob, ClaimedJob];
      const beats = await Promise.all([
        store.heartbeat(a.id, a.lockToken, now + 10_000),
        store.heartbeat(b.id, 'not-its-token', now + 10_000),
        store.heartbeat(c.id, c.lockToken, now + 10_000),
      ]);
      expect(beats).toEqual([true, false, true]);
      // Only b's lease runs out.
      const again = await store.claim({
        workerId: 'w2',
        kinds: ['k'],
        leaseMs: 100,
        limit: 3,
        now: now + 500,
      });
      expect(again.map((j) => j.id)).toEqual([b.id]);
    });

    it('completes with a terminal status and enqueues follow-ups in the same step (outbox)', async () => {
      const [parent] = await store.enqueue([{ kind: 'k' }]);
      const job = await claimOne();
      await store.complete(job?.id as string, job?.lockToken as string, {
        status: 'invalid_document',
        result: { reason: 'x' },
        followUps: [{ kind: 'deliver', payload: { to: 'a' } }],
      });
      expect(await store.get(parent?.id as string)).toMatchObject({
        state: 'done',
        status: 'invalid_document',
      });
      const children = await store.list({ parentId: parent?.id });
      expect(children).toHaveLength(1);
      expect(children[0]).toMatchObject({ kind: 'deliver', state: 'ready', payload: { to: 'a' } });
    });

    it('a failed attempt goes back to waiting at retryAt with the error kept; a final one ends failed', async () => {
      const [job] = await store.enqueue([{ kind: 'k', waitingStatus: 'queued', maxAttempts: 2 }]);
      const now = Date.now();
      const a1 = await claimOne(now);
      await store.fail(
        a1?.id as string,
        a1?.lockToken as string,
        { type: 'Boom', message: 'first' },
        now + 5_000,
      );
      expect(await store.get(job?.id as string)).toMatchObject({
        state: 'ready',
        status: 'queued',
        errorType: 'Boom',
        runAt: now + 5_000,
      });
      expect(await claimOne(now + 1_000)).toBeUndefined();
      const a2 = await claimOne(now + 5_000);
      await store.fail(a2?.id as string, a2?.lockToken as string, { type: 'Boom', message: 'second' }, null);
      expect(await store.get(job?.id as string)).toMatchObject({
        state: 'failed',
        status: 'failed',
        attempts: 2,
        errorType: 'Boom',
        errorMessage: 'second',
      });
    });

    it('a final failure enqueues its follow-ups in the same step; a retry enqueues none', async () => {
      const [job] = await store.enqueue([{ kind: 'k', maxAttempts: 2 }]);
      const now = Date.now();
      const a1 = await claimOne(now);
      const notify = [{ kind: 'notify', payload: { event: 'failed' } }];
      await store.fail(a1?.id as string, a1?.lockToken as string, { type: 'E', message: 'm' }, now, notify);
      expect(await store.list({ parentId: job?.id })).toHaveLength(0);
      const a2 = await claimOne(now + 1);
      await store.fail(a2?.id as string, a2?.lockToken as string, { type: 'E', message: 'm' }, null, notify);
      const children = await store.list({ parentId: job?.id });
      expect(children).toHaveLength(1);
      expect(children[0]).toMatchObject({ kind: 'notify', payload: { event: 'failed' } });
    });

    it('release hands a job back without counting the attempt', async () => {
      const [job] = await store.enqueue([{ kind: 'k' }]);
      const claimed = await claimOne();
      expect(await store.release(claimed?.id as string, claimed?.lockToken as string)).toBe(true);
      expect(await store.get(job?.id as string)).toMatchObject({ state: 'ready', attempts: 0 });
    });

    it('a job that kills its worker on every attempt ends failed, not claimed forever', async () => {
      const [job] = await store.enqueue([{ kind: 'k', maxAttempts: 1 }]);
      const now = Date.now();
      await claimOne(now, 100);
      expect(await claimOne(now + 200)).toBeUndefined();
      expect(await store.failExhaustedLeases(now + 200)).toBe(1);
      expect(await store.get(job?.id as string)).toMatchObject({ state: 'failed', errorType: 'WorkerLost' });
    });

    it('the sweep enqueues the failure follow-ups of each job it ends, and of no other', async () => {
      const [lost, alive] = await store.enqueue([
        { kind: 'k', maxAttempts: 1, payload: { n: 1 } },
        { kind: 'k', maxAttempts: 1, payload: { n: 2 } },
      ]);
      const now = Date.now();
      await claimOne(now, 100);
      await claimOne(now, 10_000);
      const seen: Array<{ payload: unknown; errorType: string }> = [];
      const ended = await store.failExhaustedLeases(now + 200, (job, error) => {
        seen.push({ payload: job.payload, errorType: error.type });
        return [{ kind: 'notify', payload: { event: 'failed', of: job.id } }];
      });
      expect(ended).toBe(1);
      expect(seen).toEqual([{ payload: { n: 1 }, errorType: 'WorkerLost' }]);
      const children = await store.list({ parentId: lost?.id });
      expect(children).toHaveLength(1);
      expect(children[0]).toMatchObject({ kind: 'notify', state: 'ready', payload: { of: lost?.id } });
      expect(await store.list({ parentId: alive?.id })).toEqual([]);
      expect(await store.get(alive?.id as string)).toMatchObject({ state: 'running' });
    });

    it('retry brings a failed job back with attempts reset; retrying a ready job is refused', async () => {
      const [job] = await store.enqueue([{ kind: 'k', maxAttempts: 1 }]);
      const claimed = await claimOne();
      await store.fail(
        claimed?.id as string,
        claimed?.lockToken as string,
        { type: 'E', message: 'm' },
        null,
      );
      const again = await store.retry(job?.id as string);
      expect(again).toMatchObject({ state: 'ready', status: 'queued', attempts: 0, errorType: null });
      await expect(store.retry(job?.id as string)).rejects.toMatchObject({ code: 'conflict' });
    });

    it('cancel stops a running job: its worker can no longer write', async () => {
      const [job] = await store.enqueue([{ kind: 'k' }]);
      const claimed = await claimOne();
      expect(await store.cancel(job?.id as string)).toMatchObject({
        state: 'cancelled',
        status: 'cancelled',
      });
      expect(await store.complete(claimed?.id as string, claimed?.lockToken as string, {})).toBe(false);
      await expect(store.cancel(job?.id as string)).rejects.toMatchObject({ code: 'conflict' });
    });

    it('unknown ids are not_found', async () => {
      expect(await store.get('nope')).toBeNull();
      await expect(store.retry('nope')).rejects.toMatchObject({ code: 'not_found' });
      await expect(store.cancel('nope')).rejects.toMatchObject({ code: 'not_found' });
    });

    it('an idempotency key returns the existing job instead of a second one', async () => {
      const [a] = await store.enqueue([{ kind: 'k', idempotencyKey: 'file-1', payload: 1 }]);
      const [b] = await store.enqueue([{ kind: 'k', idempotencyKey: 'file-1', payload: 2 }]);
      expect(b?.id).toBe(a?.id);
      expect(b?.payload).toBe(1);
      expect(await store.list({ kind: 'k' })).toHaveLength(1);
    });

    it('a held job is not claimable until released', async () => {
      const [job] = await store.enqueue([{ kind: 'k', held: true, heldStatus: 'pending_upload' }]);
      expect(job).toMatchObject({ state: 'held', status: 'pending_upload' });
      expect(await claimOne()).toBeUndefined();
      await store.releaseHeld(job?.id as string, { file: 'x' });
      expect(await claimOne()).toMatchObject({ id: job?.id, payload: { file: 'x' } });
    });

    it('a held job that never gets its input can be failed, with its notifications', async () => {
      const [job] = await store.enqueue([{ kind: 'k', held: true, heldStatus: 'pending_upload' }]);
      const error = { type: 'upload_expired', message: 'no file' };
      expect(await store.failHeld(job?.id as string, error, [{ kind: 'notify' }])).toBe(true);
      expect(await store.get(job?.id as string)).toMatchObject({
        state: 'failed',
        errorType: 'upload_expired',
      });
      expect(await store.list({ parentId: job?.id })).toHaveLength(1);
      expect(await store.failHeld(job?.id as string, error)).toBe(false);
    });

    it('prune deletes only finished jobs older than the cutoff', async () => {
      await store.enqueue([{ kind: 'k' }, { kind: 'k' }]);
      const claimed = await claimOne();
      await store.complete(claimed?.id as string, claimed?.lockToken as string, {});
      expect(await store.prune(Date.now() + 1_000)).toBe(1);
      expect(await store.list()).toHaveLength(1);
    });

    it('workers claiming at the same time never get the same job, and every job is claimed', async () => {
      const jobs = await store.enqueue(Array.from({ length: 120 }, (_, n) => ({ kind: 'k', payload: n })));
      const claimed: string[] = [];
      const worker = async (w: number) => {
        for (;;) {
          const batch = await store.claim({ workerId: `w${w}`, kinds: ['k'], leaseMs: 60_000, limit: 7 });
          if (batch.length === 0) return;
          claimed.push(...batch.map((j) => j.id));
        }
      };
      await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
      expect(claimed).toHaveLength(jobs.length);
      expect(new Set(claimed).size).toBe(jobs.length);
    });

    it('concurrent claims over several owners and unowned jobs never share a job, and take every one', async () => {
      const owners = ['a', 'b', 'c', undefined];
      const jobs = await store.enqueue(
        Array.from({ length: 120 }, (_, n) => ({ kind: 'k', payload: n, owner: owners[n % 4] })),
      );
      const claimed: string[] = [];
      const worker = async (w: number) => {
        for (;;) {
          const batch = await store.claim({ workerId: `w${w}`, kinds: ['k'], leaseMs: 60_000, limit: 5 });
          if (batch.length === 0) return;
          claimed.push(...batch.map((j) => j.id));
        }
      };
      await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed).toHaveLength(jobs.length);
    });

    it('one enqueue of many jobs returns them in order, reusing the job an idempotency key names', async () => {
      const [first] = await store.enqueue([{ kind: 'k', idempotencyKey: 'a', payload: 'first' }]);
      const batch = await store.enqueue([
        { kind: 'k', payload: 0 },
        { kind: 'k', idempotencyKey: 'a', payload: 'again' },
        { kind: 'k', idempotencyKey: 'b', payload: 'b1' },
        { kind: 'k', idempotencyKey: 'b', payload: 'b2' },
        { kind: 'other', idempotencyKey: 'a', payload: 'other kind' },
      ]);
      expect(batch.map((j) => j.payload)).toEqual([0, 'first', 'b1', 'b1', 'other kind']);
      expect(batch[1]?.id).toBe(first?.id);
      expect(batch[3]?.id).toBe(batch[2]?.id);
      expect(await store.list({ limit: 100 })).toHaveLength(4);
    });

    it('completions at the same moment each finish their own job, and only while it is still theirs', async () => {
      await store.enqueue(Array.from({ length: 20 }, (_, n) => ({ kind: 'k', payload: n })));
      const claimed = await store.claim({ workerId: 'w', kinds: ['k'], leaseMs: 60_000, limit: 20 });
      const cancelled = new Set(claimed.slice(0, 5).map((j) => j.id));
      for (const id of cancelled) await store.cancel(id);
      const owned = await Promise.all(
        claimed.map((j) => store.complete(j.id, j.lockToken, { result: { n: j.payload } })),
      );
      expect(owned).toEqual(claimed.map((j) => !cancelled.has(j.id)));
      for (const j of claimed) {
        expect(await store.get(j.id)).toMatchObject(
          cancelled.has(j.id)
            ? { state: 'cancelled', result: null }
            : { state: 'done', result: { n: j.payload } },
        );
      }
    });
  });
}
