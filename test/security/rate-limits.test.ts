import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey } from '../server/support/test-server.js';
import { killAll, serveProcess } from './support/serve-process.js';

const LIMIT = 20;

/** Issue #17 item 9: the hourly upload limit holds across processes on one home and across kill -9. */
describe('rate limits: reserved in the store before an upload is accepted (real processes)', () => {
  const home = tmpHome('assay-rate-limits-');
  const children: ChildProcess[] = [];
  let key: string;

  const serve = () =>
    serveProcess(home.dir, children, { env: { ASSAY_LIMIT_UPLOADS_PER_HOUR: String(LIMIT) } });

  /** A pre-signed upload request: cheap, and counted against the hourly upload limit like any upload. */
  const upload = async (url: string) =>
    (
      await fetch(`${url}/extraction/lab/upload`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: '{}',
      })
    ).status;

  afterAll(() => {
    killAll(children);
    home.cleanup();
  });

  it('hits just before a kill -9 are not forgotten, and two processes together accept exactly the limit', async () => {
    key = createKey(home.dir, 'limits').key;
    const first = await serve();
    const early = await Promise.all(Array.from({ length: 5 }, () => upload(first.url)));
    expect(early).toEqual([200, 200, 200, 200, 200]);
    // At once, before any write-behind could happen.
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    const [a, b] = await Promise.all([serve(), serve()]);
    const statuses = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) =>
        upload(i % 2 === 0 ? (a?.url as string) : (b?.url as string)),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT - 5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3 * LIMIT - (LIMIT - 5));
  }, 60_000);
});
