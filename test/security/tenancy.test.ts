import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import { submitLabFile } from '../../src/lab/job/kind.js';
import type { RunningServer } from '../../src/server/serve.js';
import { assay, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

const reportRequest = () => {
  const request = JSON.parse(
    readFileSync(new URL('../../fixtures/reports/full-three-events.json', import.meta.url), 'utf8'),
  ) as { report_metadata: { configuration: Record<string, string> } };
  // Port 9 (discard) on loopback: nothing answers, and the test only reads status.
  request.report_metadata.configuration = { callback_url: 'http://127.0.0.1:9/hook' };
  return request;
};

/** Issue #17 item 7: a job belongs to the key that created it; any other key is told it does not exist. */
describe('tenancy: jobs belong to the API key that created them', () => {
  const home = tmpHome('assay-tenancy-');
  let server: RunningServer;
  let keyA: string;
  let keyB: string;
  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    keyA = createKey(home.dir, 'tenant-a').key;
    keyB = createKey(home.dir, 'tenant-b').key;
    server = await startTestServer(home.dir, { allowPrivateTargets: true });
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it("another key gets 404 on a lab job's status and results; the owner does not", async () => {
    const res = await call(keyA, '/extraction/lab/upload', {
      method: 'POST',
      body: JSON.stringify({ filename: 'a.pdf' }),
    });
    expect(res.status).toBe(200);
    const { jobId } = (await res.json()) as { jobId: string };

    expect((await call(keyA, `/extraction/lab/status/${jobId}`)).status).toBe(200);
    expect((await call(keyA, `/extraction/lab/results/${jobId}`)).status).toBe(425);

    const status = await call(keyB, `/extraction/lab/status/${jobId}`);
    expect(status.status).toBe(404);
    expect(await status.json()).toMatchObject({ error: 'not_found' });
    expect((await call(keyB, `/extraction/lab/results/${jobId}`)).status).toBe(404);
  });

  it("another key gets 404 on a report job's status; the owner reads it", async () => {
    const res = await call(keyA, '/health-score/report', {
      method: 'POST',
      body: JSON.stringify(reportRequest()),
    });
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };

    expect((await call(keyA, `/health-score/report/status/${job_id}`)).status).toBe(200);
    const other = await call(keyB, `/health-score/report/status/${job_id}`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: `No report job with id ${job_id}.` });
  });

  it('a job made without a key (the CLI) is no key’s, and stays visible to the CLI', async () => {
    const engine = await openEngine({ home: home.dir });
    const pdf = readFileSync(new URL('../../fixtures/labs/quest-annual-male.pdf', import.meta.url));
    const job = await submitLabFile(engine, home.dir, { pdf, filename: 'cli.pdf', dedupe: false });
    await engine.close();

    expect((await call(keyA, `/extraction/lab/status/${job.id}`)).status).toBe(404);
    const shown = await assay(['jobs', 'show', job.id, '--json', '--home', home.dir]);
    expect(shown.exitCode).toBe(0);
    expect(json<{ id: string }>(shown).id).toBe(job.id);
  });
});
