import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';
import { BOMB_ENCODINGS, pdfBomb } from './support/pdf-bomb.js';

const MB = 1024 * 1024;

/**
 * Issues #17 item 3 and #30 item 1: a document that decodes past its budget ends failed,
 * document_too_complex, whatever filters and spellings carry the bomb.
 */
describe('PDF bombs', () => {
  const home = tmpHome('assay-bombs-');
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    key = createKey(home.dir, 'bombs').key;
    // A small budget, so a bomb of modest size (cheap to make here) is over it.
    process.env.ASSAY_MAX_INFLATED_BYTES = String(16 * MB);
    process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR = '100000';
    server = await startTestServer(home.dir);
  });
  afterAll(async () => {
    delete process.env.ASSAY_MAX_INFLATED_BYTES;
    delete process.env.ASSAY_LIMIT_UPLOADS_PER_HOUR;
    await server.close();
    home.cleanup();
  });

  async function upload(pdf: Buffer): Promise<string> {
    const res = await fetch(`${server.url}/extraction/lab/upload`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ pdfFile: pdf.toString('base64') }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { jobId: string }).jobId;
  }

  async function ending(jobId: string): Promise<{ status: string; error?: { code: string } }> {
    let body: { status: string; error?: { code: string } } = { status: '' };
    for (let i = 0; i < 600; i++) {
      body = (await (
        await fetch(`${server.url}/extraction/lab/status/${jobId}`, { headers: { 'x-api-key': key } })
      ).json()) as typeof body;
      if (!['queued', 'pending_upload'].includes(body.status) && !body.status.startsWith('processing')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return body;
  }

  it('every encoding of a 64 MB-decoding stream in a small PDF ends failed with document_too_complex', async () => {
    const bombs = await Promise.all(BOMB_ENCODINGS.map((encoding) => pdfBomb(64 * MB, encoding)));
    for (const bomb of bombs) expect(bomb.length).toBeLessThan(MB);
    const ids = await Promise.all(bombs.map(upload));
    const endings = await Promise.all(ids.map(ending));
    expect(Object.fromEntries(BOMB_ENCODINGS.map((encoding, i) => [encoding, endings[i]]))).toEqual(
      Object.fromEntries(
        BOMB_ENCODINGS.map((encoding) => [
          encoding,
          expect.objectContaining({
            status: 'failed',
            error: expect.objectContaining({ code: 'document_too_complex' }),
          }),
        ]),
      ),
    );
  }, 120_000);
});
