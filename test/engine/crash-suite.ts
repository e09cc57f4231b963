import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openJobStore } from '../../src/engine/open-store.js';
import { storeTarget } from './support/crash-worker-target.js';
import { firstLine } from './support/first-line.js';

const WORKER = new URL('./support/crash-worker.ts', import.meta.url).pathname;

function startChild(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/**
 * Real worker processes over one store, one killed with SIGKILL. `makeTarget` gives a fresh store: a home
 * directory (SQLite) or a postgres:// URL, which test/engine/support/crash-worker.ts opens the same way.
 */
export function crashSuite(name: string, makeTarget: () => Promise<{ target: string; cleanup: () => void }>) {
  describe(`crash recovery with real processes (${name})`, () => {
    const children: ChildProcess[] = [];
    let cleanup = () => {};
    afterEach(() => {
      for (const c of children) c.kill('SIGKILL');
      cleanup();
    });

    it('a worker killed with SIGKILL mid-job loses nothing: another worker finishes every job exactly once', async () => {
      const made = await makeTarget();
      const target = made.target;
      cleanup = made.cleanup;
      const total = 30;
      const enqueuer = startChild([target, '0', '0', String(total)]);
      const ids = JSON.parse(await firstLine(enqueuer)) as string[];
      await once(enqueuer, 'exit');

      const store = await openJobStore(storeTarget(target));
      const doomed = startChild([target, '800', '150']);
      children.push(doomed);
      await firstLine(doomed);
      // Kill it once it has finished some and, in the same look, holds a job: the kill lands mid-job. (A
      // second read before the kill could find it between two jobs on a busy machine.)
      for (;;) {
        const done = await store.list({ state: 'done' });
        const running = await store.list({ state: 'running' });
        if (running.length > 0 && done.length >= 4) break;
        await sleep(10);
      }
      doomed.kill('SIGKILL');
      await once(doomed, 'exit');
      // What it held when it died: still running in the store, as no one else has claimed it yet.
      const heldAtKill = (await store.list({ state: 'running' })).map((j) => j.id);

      const rescuer = startChild([target, '800', '20']);
      children.push(rescuer);
      await firstLine(rescuer);
      const deadline = Date.now() + 20_000;
      while ((await store.list({ state: 'done', limit: 1000 })).length < total && Date.now() < deadline)
        await sleep(50);

      const finals = (await Promise.all(ids.map((id) => store.get(id)))).filter((j) => j !== null);
      expect(finals).toHaveLength(total);
      expect(finals.every((j) => j.state === 'done')).toBe(true);
      const byPid = new Map<number, number>();
      for (const j of finals) {
        const pid = (j.result as { pid: number }).pid;
        byPid.set(pid, (byPid.get(pid) ?? 0) + 1);
      }
      // Every job has exactly one final result, from one of the two workers, and the counts add up.
      expect([...byPid.keys()].sort()).toEqual([doomed.pid, rescuer.pid].sort());
      expect((byPid.get(doomed.pid as number) ?? 0) + (byPid.get(rescuer.pid as number) ?? 0)).toBe(total);
      // The jobs the dead worker held were taken over after their lease expired: a second attempt.
      expect(heldAtKill.length).toBeGreaterThan(0);
      for (const id of heldAtKill) {
        const job = finals.find((j) => j.id === id);
        expect(job?.attempts).toBe(2);
        expect(job?.result).toMatchObject({ pid: rescuer.pid });
      }
      await store.close();
    }, 60_000);
  });
}
