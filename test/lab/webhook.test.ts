import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { allowPrivateTargets } from '../../src/delivery/target-guard.js';
import { Engine } from '../../src/engine/engine.js';
import { JobRegistry } from '../../src/engine/registry.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys, SqliteKeyStore } from '../../src/keys/sqlite.js';
import { labWebhookJob, labWebhookKind } from '../../src/lab/http/webhook.js';
import { LAB_EXTRACT, labExtractKind } from '../../src/lab/job/kind.js';
import { tmpHome } from '../engine/support/tmp-home.js';

// The receivers here listen on 127.0.0.1, which deliveries refuse unless the process allows it.
allowPrivateTargets(true);

/** A receiver answering from a script of statuses, recording every attempt's time and webhook-id. */
function scriptedReceiver(script: Array<{ status: number; headers?: Record<string, string> }>) {
  const attempts: Array<{ at: number; id: string }> = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      attempts.push({ at: Date.now(), id: String(req.headers['webhook-id']) });
      const step = script[Math.min(attempts.length - 1, script.length - 1)] ?? { status: 200 };
      res.writeHead(step.status, step.headers).end();
    });
  });
  return new Promise<{ server: Server; url: string; attempts: typeof attempts }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, attempts }),
    ),
  );
}

describe('lab webhooks as outbox jobs', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(script: Array<{ status: number; headers?: Record<string, string> }>) {
    const home = tmpHome();
    const db = openDatabase(home.dir);
    const keyId = new ApiKeys(db, { home: home.dir }).create('hooks').apiKey.id;
    const receiver = await scriptedReceiver(script);
    const registry = new JobRegistry().register(
      labWebhookKind({
        keys: async () => new SqliteKeyStore(db, { home: home.dir }),
        files: { home: home.dir },
        scheduleMs: [50, 100, 150, 200, 250],
      }),
    );
    const engine = Engine.open(home.dir, registry);
    engine.startWorker({ pollMs: 5 });
    cleanups.push(
      home.cleanup,
      () => db.close(),
      () => receiver.server.close(),
      () => engine.close(),
    );
    const [job] = await engine.enqueueMany([
      labWebhookJob({ url: receiver.url, keyId }, 'job.completed', 'lab-1', {}),
    ]);
    return { engine, receiver, jobId: job?.id as string };
  }

  it('a receiver that fails twice then succeeds gets three attempts with one stable webhook-id', async () => {
    const { engine, receiver, jobId } = await setup([{ status: 500 }, { status: 503 }, { status: 200 }]);
    const [final] = await engine.waitFor([jobId]);
    expect(final).toMatchObject({ state: 'done', attempts: 3 });
    expect(new Set(receiver.attempts.map((a) => a.id)).size).toBe(1);
  });

  it('410 stops at once; 3xx is not followed; Retry-After holds the next attempt back', async () => {
    const gone = await setup([{ status: 410 }]);
    expect((await gone.engine.waitFor([gone.jobId]))[0]).toMatchObject({
      state: 'failed',
      errorType: 'WebhookGone',
      attempts: 1,
    });

    const redirect = await setup([{ status: 302, headers: { location: 'http://127.0.0.1:9/' } }]);
    expect((await redirect.engine.waitFor([redirect.jobId]))[0]).toMatchObject({
      state: 'failed',
      attempts: 1,
    });

    const busy = await setup([{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);
    await busy.engine.waitFor([busy.jobId]);
    const [first, second] = busy.receiver.attempts;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('gives up after the first attempt plus 5 retries', async () => {
    const { engine, receiver, jobId } = await setup([{ status: 500 }]);
    const [final] = await engine.waitFor([jobId]);
    expect(final).toMatchObject({ state: 'failed', attempts: 6 });
    expect(receiver.attempts).toHaveLength(6);
  });

  it('a lab job whose worker died on its last attempt still sends job.failed and deletes its copy', async () => {
    const home = tmpHome();
    const db = openDatabase(home.dir);
    const keyId = new ApiKeys(db, { home: home.dir }).create('hooks').apiKey.id;
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const registry = new JobRegistry().register(labExtractKind({ home: home.dir })).register(
      labWebhookKind({
        keys: async () => new SqliteKeyStore(db, { home: home.dir }),
        files: { home: home.dir },
        scheduleMs: [50],
      }),
    );
    const engine = Engine.open(home.dir, registry);
    cleanups.push(
      home.cleanup,
      () => db.close(),
      () => receiver.close(),
      () => engine.close(),
    );
    mkdirSync(join(home.dir, 'uploads'), { recursive: true });
    const file = join(home.dir, 'uploads', 'lost.pdf');
    writeFileSync(file, '%PDF-1.4 never parsed');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    const job = await engine.enqueue(LAB_EXTRACT, {
      file,
      filename: 'lost.pdf',
      rejectIfPHI: false,
      anyLab: false,
      webhook: { url, keyId },
    });
    // Both attempts taken by workers that died: each lease runs out with nobody to finish the job.
    for (const attempt of [1, 2]) {
      const [claimed] = await engine.store.claim({
        workerId: `dead-${attempt}`,
        kinds: [LAB_EXTRACT],
        leaseMs: 20,
        limit: 1,
      });
      expect(claimed).toMatchObject({ id: job.id, attempts: attempt });
      await sleep(30);
    }
    engine.startWorker({ pollMs: 5, leaseMs: 50 });
    const [final] = await engine.waitFor([job.id]);
    expect(final).toMatchObject({ state: 'failed', errorType: 'WorkerLost' });
    const [hook] = await engine.store.list({ parentId: job.id });
    expect((await engine.waitFor([hook?.id as string]))[0]).toMatchObject({ state: 'done' });
    expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({
      event: 'job.failed',
      jobId: job.id,
      data: { error: { code: 'WorkerLost' } },
    });
    expect(existsSync(file)).toBe(false);
  });
});
