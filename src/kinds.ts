import type Database from 'better-sqlite3';
import type { BlobStore } from './blobs/blob-store.js';
import { demoKind } from './engine/demo.js';
import { JobRegistry } from './engine/registry.js';
import { openDatabase } from './engine/sqlite/open-database.js';
import { labExtractKind } from './lab/job.js';
import { labWebhookKind, webhookScheduleFromEnv } from './lab/webhook.js';
import { deliveryKind } from './report/delivery/deliver-kind.js';
import { renderInPool } from './report/render-pool.js';
import { reportKinds } from './report/report-kind.js';

/**
 * The composition root of job kinds: every kind any command or route can enqueue or run. Kinds that need
 * the store's other tables (webhook secrets) open their own connection to the home's database, lazily.
 */
export function createRegistry(opts: { home: string; blobs?: BlobStore }): JobRegistry {
  let db: Database.Database | undefined;
  const openDb = () => {
    db ??= openDatabase(opts.home);
    return db;
  };
  const registry = new JobRegistry().register(demoKind);
  const files = { home: opts.home, ...(opts.blobs ? { blobs: opts.blobs } : {}) };
  for (const kind of reportKinds({ render: renderInPool, files })) registry.register(kind);
  registry.register(deliveryKind({ files }));
  registry.register(labExtractKind(files));
  registry.register(labWebhookKind({ db: openDb, home: opts.home, scheduleMs: webhookScheduleFromEnv() }));
  return registry;
}
