import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { createRegistry } from '../../src/kinds.js';
import {
  checkUploadUrl,
  createPendingUpload,
  expireStaleUploads,
  UPLOAD_URL_TTL_MS,
} from '../../src/lab/http/presigned-upload.js';
import { labStatusBody } from '../../src/lab/job/status-body.js';
import { tmpHome } from '../engine/support/tmp-home.js';

describe('pre-signed uploads', () => {
  const home = tmpHome();
  const engine = Engine.open(home.dir, createRegistry({ home: home.dir }));
  afterEach(async () => {
    await engine.close();
    home.cleanup();
  });

  it('signs URLs that expire after 5 minutes, and fails jobs whose file never came, with job.failed', async () => {
    const t0 = Date.now();
    const { job, uploadUrl } = await createPendingUpload(engine, home.dir, {
      baseUrl: 'https://assay.example',
      webhook: { url: 'https://hooks.example/x', keyId: 'k1' },
      now: t0,
    });
    expect(labStatusBody(job)).toEqual({ jobId: job.id, status: 'pending_upload' });
    const url = new URL(uploadUrl);
    const expires = url.searchParams.get('expires') ?? undefined;
    const signature = url.searchParams.get('signature') ?? undefined;
    expect(await checkUploadUrl(home.dir, job.id, expires, signature, t0)).toBe('ok');
    expect(await checkUploadUrl(home.dir, job.id, expires, signature, t0 + UPLOAD_URL_TTL_MS + 1)).toBe(
      'expired',
    );
    expect(await checkUploadUrl(home.dir, 'another-job', expires, signature, t0)).toBe('bad_signature');

    expect(await expireStaleUploads(engine, t0 + 60_000)).toBe(0);
    expect(await expireStaleUploads(engine, t0 + 10 * 60_000)).toBe(1);
    const ended = await engine.mustGet(job.id);
    expect(labStatusBody(ended)).toMatchObject({ status: 'failed', error: { code: 'upload_expired' } });
    const webhooks = await engine.store.list({ parentId: job.id });
    expect(webhooks.map((w) => w.kind)).toEqual(['lab.webhook']);
    const payload = webhooks[0]?.payload as { body: string } | undefined;
    expect(JSON.parse(payload?.body ?? '{}')).toMatchObject({
      event: 'job.failed',
      jobId: job.id,
      data: { error: { code: 'upload_expired' } },
    });
  });
});
