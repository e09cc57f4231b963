import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey } from '../server/support/test-server.js';
import { holdLock } from './support/hold-lock.js';
import { killAll, ROOT, serveProcess } from './support/serve-process.js';

const report = () => {
  const request = JSON.parse(
    readFileSync(join(ROOT, 'fixtures/reports/condensed-one-event.json'), 'utf8'),
  ) as { report_metadata: { configuration: Record<string, string> } };
  request.report_metadata.configuration = { callback_url: 'http://127.0.0.1:9/hook' };
  return JSON.stringify(request);
};

const timed = async (url: string, init?: RequestInit) => {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Issue #17 item 1: a store that cannot be written never ends `assay serve` nor stalls its event loop. */
describe('store faults: a locked or full database under a running server (real processes)', () => {
  const children: ChildProcess[] = [];
  const homes: { cleanup: () => void }[] = [];
  afterEach(async () => {
    killAll(children);
    for (const h of homes.splice(0)) h.cleanup();
  });

  it("another process holding the write lock past the store's patience: the server stays up, answers, and is not ready", async () => {
    const home = tmpHome('assay-store-lock-');
    homes.push(home);
    const { key } = createKey(home.dir, 'lock');
    // The store's patience with a locked file (ASSAY_BUSY_BUDGET_MS, 15 s by default) shortened to 1 s, so a
    // 3 s lock outlasts it as an 8 s lock outlasted the default, without the wait.
    const server = await serveProcess(home.dir, children, {
      flags: ['--allow-private-targets'],
      env: { ASSAY_BUSY_BUDGET_MS: '1000' },
    });
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };

    const locker = await holdLock(home.dir, 3_000, children);
    // A write during the lock: it waits without holding the event loop, then is stored or told to retry.
    const during = fetch(`${server.url}/health-score/report/condensed`, {
      method: 'POST',
      headers,
      body: report(),
    }).then(
      (res) => res.status,
      () => 0,
    );
    let slowest = 0;
    let notReady = 0;
    while (locker.exitCode === null) {
      slowest = Math.max(slowest, (await timed(`${server.url}/healthz`)).ms);
      if ((await timed(`${server.url}/readyz`)).status === 503) notReady += 1;
      await sleep(200);
    }
    expect(server.child.exitCode).toBeNull();
    expect(slowest).toBeLessThan(1_000);
    expect(notReady).toBeGreaterThan(0);
    expect([202, 503]).toContain(await during);

    let ready = 0;
    for (let i = 0; i < 50 && ready !== 200; i++) {
      await sleep(100);
      ready = (await timed(`${server.url}/readyz`)).status;
    }
    expect(ready).toBe(200);
    const after = await fetch(`${server.url}/health-score/report/condensed`, {
      method: 'POST',
      headers,
      body: report(),
    });
    expect(after.status).toBe(202);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it('a full disk (files capped at 1 MB): writes answer 503, the process stays up, /readyz is not ready', async () => {
    const home = tmpHome('assay-store-full-');
    homes.push(home);
    const { key } = createKey(home.dir, 'full');
    const server = await serveProcess(home.dir, children, {
      shellLimit: 'ulimit -f 1024',
      flags: ['--allow-private-targets'],
    });
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };

    const statuses: number[] = [];
    for (let i = 0; i < 600 && !statuses.includes(503) && server.child.exitCode === null; i++) {
      const res = await fetch(`${server.url}/health-score/report/condensed`, {
        method: 'POST',
        headers,
        body: report(),
      }).catch(() => null);
      statuses.push(res?.status ?? 0);
    }
    expect(statuses).toContain(503);
    expect(statuses).not.toContain(500);
    // Background writers (the workers, the rate counters) meet the same full disk for a while.
    await sleep(2_000);
    expect(server.child.exitCode).toBeNull();
    expect((await timed(`${server.url}/healthz`)).status).toBe(200);
    expect((await timed(`${server.url}/readyz`)).status).toBe(503);
  }, 120_000);
});
