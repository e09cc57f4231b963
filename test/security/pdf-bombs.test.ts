import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';
import { pdfBomb } from './support/pdf-bomb.js';

/** Issue #17 item 3: a document that inflates past its budget ends failed, document_too_complex. */
describe('PDF bombs', () => {
  const home = tmpHome('assay-bombs-');
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    key = createKey(home.dir, 'bombs').key;
    // A small budget, so a bomb of modest size (cheap to make here) is over it.
    process.env.ASSAY_MAX_INFLATED_BYTES = String(16 * 1024 * 1024);
    server = await startTestServer(home.dir);
  });
  afterAll(async () => {
    delete process.env.ASSAY_MAX_INFLATED_BYTES;
    await server.close();
    home.cleanup();
  });

  it('a 64 MB-inflating stream in a few-KB PDF ends failed with document_too_complex', async () => {
    const bomb = await pdfBomb(64 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const res = await fetch(`${server.url}/extraction/lab/upload`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ pdfFile: bomb.toString('base64') }),
    });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    let body: { status: string; error?: { code: string } } = { status: '' };
    for (let i = 0; i < 600; i++) {
      body = (await (
        await fetch(`${server.url}/extraction/lab/status/${jobId}`, { headers: { 'x-api-key': key } })
      ).json()) as typeof body;
      if (!['queued', 'pending_upload'].includes(body.status) && !body.status.startsWith('processing')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(body).toMatchObject({ status: 'failed', error: { code: 'document_too_complex' } });
  }, 90_000);
});
