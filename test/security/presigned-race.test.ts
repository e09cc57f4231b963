import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

const PDF = readFileSync(new URL('../../fixtures/labs/quest-cbc-a1c.pdf', import.meta.url));
const PUTS = 12;
const RUNS = 10;

/**
 * Issue #30 item 3: PUTs racing on one pre-signed URL (a client retrying a PUT that timed out) must not
 * destroy the job. One PUT wins and releases the job; the others answer 409 and never delete the file
 * the winner stored, so the job completes, every time. A real server on 127.0.0.1 with its worker.
 */
describe('concurrent PUTs to one pre-signed URL (#30 item 3)', () => {
  const home = tmpHome('assay-presigned-race-');
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    key = createKey(home.dir, 'race').key;
    server = await startTestServer(home.dir);
  });
  afterAll(async () => {
    await server?.close();
    home.cleanup();
  });

  const statusOf = async (jobId: string) => {
    const res = await fetch(`${server.url}/extraction/lab/status/${jobId}`, {
      headers: { 'x-api-key': key },
    });
    return (await res.json()) as { status: string; error?: { code: string } };
  };

  it(`${PUTS} parallel PUTs: one 200, the rest 409, and the job completes, in ${RUNS} runs of ${RUNS}`, async () => {
    const ended: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const res = await fetch(`${server.url}/extraction/lab/upload`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'race.pdf' }),
      });
      expect(res.status).toBe(200);
      const { jobId, uploadUrl } = (await res.json()) as { jobId: string; uploadUrl: string };
      const puts = await Promise.all(
        Array.from({ length: PUTS }, () =>
          fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: PDF }).then(
            async (r) => ({ status: r.status, body: await r.text() }),
          ),
        ),
      );
      const codes = puts.map((p) => p.status).sort();
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c !== 200 && c !== 409)).toEqual([]);
      let body = await statusOf(jobId);
      for (let i = 0; i < 400 && !['completed', 'failed'].includes(body.status); i++) {
        await new Promise((r) => setTimeout(r, 25));
        body = await statusOf(jobId);
      }
      ended.push(body.error ? `${body.status} ${body.error.code}` : body.status);
    }
    expect(ended).toEqual(Array.from({ length: RUNS }, () => 'completed'));
  }, 120_000);
});
