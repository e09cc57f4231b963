import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import { openKeyStore } from '../../src/keys/open.js';
import { openRefdataStore } from '../../src/refdata/open-store.js';
import { syncRefdata } from '../../src/refdata/sync.js';
import { startServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { testRefdataStore } from './refdata-store-conformance.js';

const server = postgresForSuite();

testRefdataStore('postgres', async () => {
  const url = await server.createDatabase();
  const home = tmpHome('assay-refdata-pg-');
  return {
    open: (metaTtlMs) => openRefdataStore({ home: home.dir, store: url, metaTtlMs }),
    cleanup: home.cleanup,
  };
});

describe('reference data in PostgreSQL beside the SQLite home', () => {
  it('the same syncs read back equal from both backends', async () => {
    const home = tmpHome('assay-refdata-both-');
    const url = await server.createDatabase();
    const sqlite = await openRefdataStore({ home: home.dir });
    const pg = await openRefdataStore({ home: home.dir, store: url });
    try {
      const when = { now: () => new Date('2026-02-03T04:05:06Z') };
      const [a, b] = [await syncRefdata(sqlite, undefined, when), await syncRefdata(pg, undefined, when)];
      expect(b).toEqual(a);
      expect(await pg.dataset()).toEqual(await sqlite.dataset());
      expect(await pg.labRanges({ vendor: 'labcorp', sex: 'female' })).toEqual(
        await sqlite.labRanges({ vendor: 'labcorp', sex: 'female' }),
      );
      for (const age of [0, 17.6, 18, 44.5, 85, 120]) {
        const request = { header: { event_id: 'e', event_asof_dtutc: '2026-01-01T00:00:00Z' }, age };
        for (const sex of ['female', 'male'] as const)
          expect(await pg.predictorStatistics({ ...request, sex })).toEqual(
            await sqlite.predictorStatistics({ ...request, sex }),
          );
      }
    } finally {
      await Promise.all([sqlite.close(), pg.close()]);
      home.cleanup();
    }
  });

  it('two servers on one PostgreSQL serve what a sync on either wrote, each within its version TTL', async () => {
    const url = await server.createDatabase();
    const homes = [tmpHome('assay-refdata-node-a-'), tmpHome('assay-refdata-node-b-')];
    const nodes = await Promise.all(
      homes.map(async (home) =>
        startServer(await openEngine({ home: home.dir, store: url }), {
          home: home.dir,
          store: url,
          host: '127.0.0.1',
          port: 0,
          workers: 1,
          logLevel: 'silent',
        }),
      ),
    );
    // API keys live in the same PostgreSQL: one key made on node A is accepted by both.
    const keyStore = await openKeyStore({ home: homes[0]?.dir as string, store: url });
    const { key } = await keyStore.create('refdata-nodes');
    await keyStore.close();
    const keys = [key, key];
    const acme = async (node: 0 | 1) => {
      const res = await fetch(`${nodes[node]?.url}/lab-ranges/?vendor_name=acme%20labs`, {
        headers: { 'x-api-key': keys[node] as string },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Array<{ vendor_name: string }>;
    };
    try {
      expect(await acme(1)).toEqual([]);
      const dir = join(homes[0]?.dir as string, 'acme');
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'lab-ranges.csv'),
        'vendor_name,gender_name,concept_code,reference_range\nAcme Labs,female,2345-7,70-99\n',
      );
      const writer = await openRefdataStore({ home: homes[0]?.dir as string, store: url });
      await syncRefdata(writer, { kind: 'folder', dir });
      await writer.close();
      await sleep(300);
      for (const node of [0, 1] as const)
        expect((await acme(node)).map((r) => r.vendor_name)).toEqual(['Acme Labs']);
    } finally {
      await Promise.all(nodes.map((n) => n.close()));
      for (const home of homes) home.cleanup();
    }
  });
});
