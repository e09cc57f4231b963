import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { allowPrivateTargets } from '../../src/delivery/target-guard.js';
import { Engine } from '../../src/engine/engine.js';
import { createPool } from '../../src/engine/postgres/connect.js';
import { openKeyStore } from '../../src/keys/open.js';
import { createRegistry } from '../../src/kinds.js';
import { labWebhookJob } from '../../src/lab/http/webhook.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { testKeyStore } from './key-store-conformance.js';

const server = postgresForSuite();

// Each "node" opens the store as `assay serve --store` does, with its own home's keys/ folder.
testKeyStore('postgres', async () => {
  const url = await server.createDatabase();
  let nodes = 0;
  return {
    // A URL of its own per node gives each its own pool: two processes' connections, as on two machines.
    node: (home) => openKeyStore({ home, store: `${url}&application_name=node-${++nodes}` }),
    async storedSecrets() {
      const pool = createPool(url, 1);
      try {
        const { rows } = await pool.query<{ webhook_secret: string }>('SELECT webhook_secret FROM api_keys');
        return rows.map((r) => r.webhook_secret);
      } finally {
        await pool.end();
      }
    },
    cleanup: () => {},
  };
});

describe('lab webhooks with keys in PostgreSQL', () => {
  it('a node signs with the secret another node created, read through the job kinds of its --store', async () => {
    const url = await server.createDatabase();
    const home = tmpHome();
    const creator = await openKeyStore({ home: home.dir, store: url });
    const { apiKey } = await creator.create('hooks');
    await creator.close();
    const received: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    allowPrivateTargets(true);
    // Jobs in this node's SQLite file; the key (and its sealed secret) only in PostgreSQL.
    const engine = Engine.open(home.dir, createRegistry({ home: home.dir, store: url }));
    try {
      engine.startWorker({ pollMs: 5 });
      const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
      const [job] = await engine.enqueueMany([
        labWebhookJob({ url: target, keyId: apiKey.id }, 'job.completed', 'lab-1', {}),
      ]);
      const [final] = await engine.waitFor([job?.id as string]);
      expect(final).toMatchObject({ state: 'done' });
      const [hit] = received;
      expect(hit?.headers['x-api-key']).toBe(apiKey.webhookSecret);
      const headers = hit?.headers as Record<string, string>;
      expect(new Webhook(apiKey.webhookSecret).verify(hit?.body as string, headers)).toMatchObject({
        event: 'job.completed',
      });
    } finally {
      allowPrivateTargets(false);
      await engine.close();
      receiver.close();
      home.cleanup();
    }
  });
});
