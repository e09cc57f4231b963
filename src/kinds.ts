import type { BlobStore } from './blobs/store.js';
import { demoKind } from './engine/demo.js';
import { JobRegistry } from './engine/registry.js';
import { openKeyStore } from './keys/open.js';
import type { KeyStore } from './keys/store.js';
import { labWebhookKind, webhookScheduleFromEnv } from './lab/http/webhook.js';
import { labExtractKind } from './lab/job/kind.js';
import { deliveryKind } from './report/delivery/deliver-kind.js';
import { reportKinds } from './report/job/kind.js';
import { renderInPool } from './report/job/render-pool.js';

/**
 * The composition root of job kinds: every kind any command or route can enqueue or run. Kinds that need
 * the store's other state (webhook secrets) open their own key store on the same --store, lazily.
 */
export function createRegistry(opts: { home: string; store?: string; blobs?: BlobStore }): JobRegistry {
  let keys: Promise<KeyStore> | undefined;
  const openKeys = () => {
    keys ??= openKeyStore(opts).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  const registry = new JobRegistry().register(demoKind);
  const files = { home: opts.home, ...(opts.blobs ? { blobs: opts.blobs } : {}) };
  for (const kind of reportKinds({ render: renderInPool, files })) registry.register(kind);
  registry.register(deliveryKind({ files }));
  registry.register(labExtractKind(files));
  registry.register(labWebhookKind({ keys: openKeys, files, scheduleMs: webhookScheduleFromEnv() }));
  return registry;
}
