import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

const pdf = readFileSync(new URL('../../fixtures/labs/quest-annual-male.pdf', import.meta.url)).toString(
  'base64',
);

/** Issue #17 item 6: one key's backlog does not queue another key's upload behind all of it. */
describe('fair scheduling across API keys', () => {
  const home = tmpHome('assay-fair-');
  let server: RunningServer;
  let keyA: string;
  let keyB: string;
  const upload = async (key: string) => {
    const res = await fetch(`${server.url}/extraction/lab/upload`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ pdfFile: pdf }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { jobId: string }).jobId;
  };
  const status = async (key: string, id: string) =>
    (
      (await (
        await fetch(`${server.url}/extraction/lab/status/${id}`, { headers: { 'x-api-key': key } })
      ).json()) as { status: string }
    ).status;

  beforeAll(async () => {
    keyA = createKey(home.dir, 'flood').key;
    keyB = createKey(home.dir, 'single').key;
    // One extraction slot, so the order in which jobs are claimed is the order in which they finish.
    server = await startTestServer(home.dir, { workers: 1 });
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it("key B's one upload is taken before the rest of key A's earlier backlog", async () => {
    const flood: string[] = [];
    for (let i = 0; i < 5; i++) flood.push(await upload(keyA));
    const single = await upload(keyB);

    let done = '';
    for (let i = 0; i < 1200 && done !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      done = await status(keyB, single);
    }
    expect(done).toBe('completed');
    const floodDone = (await Promise.all(flood.map((id) => status(keyA, id)))).filter(
      (s) => s === 'completed',
    );
    // First come, first served would have finished all five of A's first.
    expect(floodDone.length).toBeLessThanOrEqual(2);
  }, 120_000);
});
