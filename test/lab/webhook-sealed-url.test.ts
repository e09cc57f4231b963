import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PRUNE_GRACE_MS, pruneBlobs } from '../../src/blobs/prune.js';
import { blobKeys } from '../../src/blobs/store.js';
import { openEngine } from '../../src/cli/engine.js';
import { allowPrivateTargets } from '../../src/delivery/target-guard.js';
import type { Engine } from '../../src/engine/engine.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import { createPendingUpload } from '../../src/lab/http/presigned-upload.js';
import { labWebhookJob, type WebhookTarget } from '../../src/lab/http/webhook.js';
import { type LabExtractPayload, submitLabFile } from '../../src/lab/job/kind.js';
import { readCredential } from '../../src/report/job/files.js';
import { tmpHome } from '../engine/support/tmp-home.js';

allowPrivateTargets(true);

const PDF = Buffer.from('%PDF-1.4 never parsed: no worker runs here');
const WITH_TOKEN = 'https://hooks.example/h?token=T0KEN';

/** Issue #30 item 8 for lab uploads: a webhookUrl with a query is sealed, and the sealed copy's lifetime. */
describe('a lab webhookUrl with a query string is sealed outside the job store', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(): Promise<{ home: string; engine: Engine }> {
    const home = tmpHome('assay-webhook-url-');
    const engine = await openEngine({ home: home.dir });
    cleanups.push(home.cleanup, () => engine.close());
    return { home: home.dir, engine };
  }
  const files = (home: string, engine: Engine) => ({ home, blobs: engine.blobs });
  const sealed = (home: string) => {
    const dir = join(home, 'reports', 'credentials');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  it('the job keeps the address and a reference; a URL with nothing to hide is kept as it is', async () => {
    const { home, engine } = await setup();
    const job = await submitLabFile(engine, home, {
      pdf: PDF,
      filename: 'a.pdf',
      dedupe: false,
      webhook: { url: WITH_TOKEN, keyId: 'k1' },
    });
    const target = (job.payload as LabExtractPayload).webhook as WebhookTarget;
    expect(target).toMatchObject({ url: 'https://hooks.example/h', keyId: 'k1' });
    expect(await readCredential(files(home, engine), target.urlRef as string)).toBe(WITH_TOKEN);

    const { job: held } = await createPendingUpload(engine, home, {
      baseUrl: 'https://assay.example',
      webhook: { url: 'https://hooks.example/plain', keyId: 'k1' },
    });
    expect((held.payload as LabExtractPayload).webhook).toEqual({
      url: 'https://hooks.example/plain',
      keyId: 'k1',
    });
    expect(sealed(home)).toHaveLength(1);
  });

  it('a repeated submission returns the existing job and deletes the copy it sealed', async () => {
    const { home, engine } = await setup();
    const submit = () =>
      submitLabFile(engine, home, { pdf: PDF, filename: 'a.pdf', webhook: { url: WITH_TOKEN, keyId: 'k1' } });
    const first = await submit();
    const again = await submit();
    expect(again.id).toBe(first.id);
    const ref = ((first.payload as LabExtractPayload).webhook as WebhookTarget).urlRef as string;
    expect(sealed(home)).toEqual([`${ref}.secret`]);
  });

  it('`jobs prune` keeps the sealed URL while the lab job or its webhook may still run', async () => {
    const { home, engine } = await setup();
    const job = await submitLabFile(engine, home, {
      pdf: PDF,
      filename: 'a.pdf',
      dedupe: false,
      webhook: { url: WITH_TOKEN, keyId: 'k1' },
    });
    const target = (job.payload as LabExtractPayload).webhook as WebhookTarget;
    const key = blobKeys.credential(target.urlRef as string);
    const later = Date.now() + PRUNE_GRACE_MS + 1_000;
    expect(await pruneBlobs(engine, later, later)).toBe(0);
    // The lab job ends (its upload may go) and hands the target to its webhook, which has not run yet.
    await engine.store.cancel(job.id);
    const [hook] = await engine.enqueueMany([labWebhookJob(target, 'job.failed', job.id, {})]);
    expect(await pruneBlobs(engine, later, later)).toBe(1);
    expect(await engine.blobs.get(key)).not.toBeNull();
    await engine.store.cancel(hook?.id as string);
    expect(await pruneBlobs(engine, later, later)).toBe(1);
    expect(await engine.blobs.get(key)).toBeNull();
  });

  it('a webhook whose sealed URL is gone fails WebhookUrlMissing at once', async () => {
    const { home, engine } = await setup();
    const db = openDatabase(home);
    const keyId = new ApiKeys(db, { home }).create('hooks').apiKey.id;
    db.close();
    const [hook] = await engine.enqueueMany([
      labWebhookJob({ url: 'http://127.0.0.1:9/h', urlRef: 'gone', keyId }, 'job.completed', 'lab-1', {}),
    ]);
    engine.startWorker({ pollMs: 5 });
    const [final] = await engine.waitFor([hook?.id as string]);
    expect(final).toMatchObject({ state: 'failed', errorType: 'WebhookUrlMissing', attempts: 1 });
  });
});
