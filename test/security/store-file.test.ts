import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

/** Issue #17 item 8: a store deleted or damaged under a running server is noticed, and writes refused. */
describe('store file: deleted or corrupt under a running server', () => {
  let server: RunningServer | undefined;
  let home: { dir: string; cleanup: () => void } | undefined;
  afterEach(async () => {
    await server?.close().catch(() => undefined);
    home?.cleanup();
  });

  const start = async (prefix: string) => {
    home = tmpHome(prefix);
    const { key } = createKey(home.dir, 'file');
    server = await startTestServer(home.dir);
    const upload = () =>
      fetch(`${server?.url}/extraction/lab/upload`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: '{}',
      });
    const ready = async () => (await fetch(`${server?.url}/readyz`)).status;
    return { dir: home.dir, upload, ready };
  };

  it('a deleted database: /readyz is not ready and uploads are refused (503), not accepted and lost', async () => {
    const { dir, upload, ready } = await start('assay-store-deleted-');
    expect(await ready()).toBe(200);
    expect((await upload()).status).toBe(200);
    for (const f of ['assay.db', 'assay.db-wal', 'assay.db-shm']) rmSync(join(dir, f), { force: true });

    expect(await ready()).toBe(503);
    const refused = await upload();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: 'store_unavailable' });
  });

  it('a damaged page in the database file: /readyz is not ready', async () => {
    const { dir, ready } = await start('assay-store-corrupt-');
    expect(await ready()).toBe(200);
    const file = join(dir, 'assay.db');
    expect(statSync(file).size).toBeGreaterThan(3 * 4096);
    // Overwrite the header of the second page (a b-tree page) with garbage, as a bad disk or a stray
    // write would.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, 4096);
    closeSync(fd);

    expect(await ready()).toBe(503);
  });
});
