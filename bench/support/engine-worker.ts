/**
 * One worker process of the engine benchmark. argv: setting (assay-16 | assay-800 | pg-boss-16 | pg-boss-800), target (a home
 * directory or a postgres:// URL). Connects, prints "ready", starts on "go" from stdin, and runs no-op jobs until
 * killed; the parent counts finished jobs in the database, the same way for every system.
 */
import { once } from 'node:events';
import PgBoss from 'pg-boss';
import { Engine } from '../../src/engine/engine.js';
import { openJobStore } from '../../src/engine/open-store.js';
import { JobRegistry } from '../../src/engine/registry.js';
import { storeTarget } from '../../test/engine/support/crash-worker-target.js';
import {
  ASSAY_SETTINGS,
  type AssaySetting,
  NOOP,
  PG_BOSS_SETTINGS,
  type PgBossSetting,
} from './engine-bench-config.js';

const [system, target] = process.argv.slice(2) as [string, string];

async function startAssay(setting: AssaySetting): Promise<() => void> {
  const registry = new JobRegistry().register({ kind: NOOP, handler: async () => undefined });
  const engine = new Engine(await openJobStore(storeTarget(target)), registry);
  return () => engine.startWorker({ concurrency: ASSAY_SETTINGS[setting], pollMs: 50 });
}

async function startPgBoss(setting: PgBossSetting): Promise<() => void> {
  const { loops, batchSize } = PG_BOSS_SETTINGS[setting];
  const boss = new PgBoss({ connectionString: target, max: 10, supervise: false, schedule: false });
  boss.on('error', (err) => process.stderr.write(`pg-boss: ${err.message}\n`));
  await boss.start();
  return () => {
    for (let i = 0; i < loops; i++)
      void boss.work(NOOP, { batchSize, pollingIntervalSeconds: 0.5 }, async () => undefined);
  };
}

const go =
  system in PG_BOSS_SETTINGS
    ? await startPgBoss(system as PgBossSetting)
    : await startAssay(system as AssaySetting);
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
await once(process.stdin, 'data');
go();
