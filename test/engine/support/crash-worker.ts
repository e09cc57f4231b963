/**
 * A worker process for the crash tests: runs `test.slow` jobs from the given store (a home or a postgres://
 * URL). argv: store leaseMs workMs [enqueueCount]. With enqueueCount it only enqueues and exits.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Engine } from '../../../src/engine/engine.js';
import { openJobStore } from '../../../src/engine/open-store.js';
import { JobRegistry } from '../../../src/engine/registry.js';
import { storeTarget } from './crash-worker-target.js';

const [target, leaseMs, workMs, enqueueCount] = process.argv.slice(2);
const registry = new JobRegistry().register({
  kind: 'test.slow',
  maxAttempts: 5,
  handler: async (payload, ctx) => {
    await sleep(Number(workMs), undefined, { signal: ctx.signal });
    return { result: { n: (payload as { n: number }).n, pid: process.pid } };
  },
});
const engine = new Engine(await openJobStore(storeTarget(target as string)), registry);

if (enqueueCount) {
  const jobs = await engine.enqueueMany(
    Array.from({ length: Number(enqueueCount) }, (_, n) => registry.newJob('test.slow', { n })),
  );
  process.stdout.write(`${JSON.stringify(jobs.map((j) => j.id))}\n`);
  await engine.close();
} else {
  engine.startWorker({ concurrency: 4, leaseMs: Number(leaseMs), pollMs: 10 });
  process.stdout.write('ready\n');
}
