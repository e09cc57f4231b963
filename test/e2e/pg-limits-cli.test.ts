import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { killAll, serveProcess } from '../security/support/serve-process.js';
import { postgresForSuite } from '../support/postgres-suite.js';
import { assay, json } from './cli.js';

/** Issue #16: 100 uploads an hour per key, not per node (real `serve` processes, real PostgreSQL). */
describe('two `serve` nodes on one PostgreSQL share the hourly upload limit', () => {
  // The run's shared PostgreSQL (test/support/postgres-global.ts), a database of this file's own.
  const server = postgresForSuite();
  let url: string;
  const homeA = tmpHome('assay-e2e-limits-a-');
  const homeB = tmpHome('assay-e2e-limits-b-');
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    url = await server.createDatabase();
  }, 60_000);
  afterAll(async () => {
    killAll(children);
    homeA.cleanup();
    homeB.cleanup();
  });

  it('of 150 uploads spread over both nodes exactly 100 are accepted; the rest get 429', async () => {
    const created = await assay(['keys', 'create', '--name', 'limits', '--json'], {
      ASSAY_HOME: homeA.dir,
      ASSAY_STORE: url,
    });
    expect(created.exitCode, created.stderr).toBe(0);
    const { key } = json<{ key: string }>(created);
    const [a, b] = await Promise.all(
      [homeA, homeB].map((home) => serveProcess(home.dir, children, { env: { ASSAY_STORE: url } })),
    );
    // Pre-signed upload requests: cheap, and counted against the hourly limit like any upload.
    const upload = async (base: string) =>
      (
        await fetch(`${base}/extraction/lab/upload`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status;
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => upload((i % 2 ? a : b)?.url as string)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    // The 101st is refused whichever node receives it.
    expect([await upload(a?.url as string), await upload(b?.url as string)]).toEqual([429, 429]);
  }, 90_000);
});
