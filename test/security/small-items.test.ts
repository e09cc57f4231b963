import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import type { RunningServer } from '../../src/server/serve.js';
import { assay, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';
import { killAll, serveProcess } from './support/serve-process.js';

/** Issue #17 item 10: the smaller defects, each on real files and processes. */
describe('smaller items', () => {
  const children: ChildProcess[] = [];
  const homes: { cleanup: () => void }[] = [];
  const home = (prefix: string) => {
    const h = tmpHome(prefix);
    homes.push(h);
    return h.dir;
  };
  afterAll(() => {
    killAll(children);
    for (const h of homes) h.cleanup();
  });

  it('an upload that fails on a full disk leaves no copy (or part of one) in uploads/', async () => {
    const dir = home('assay-small-full-');
    const { key } = createKey(dir, 'full');
    // Files capped at 256 KB: the 400 KB upload cannot be written whole.
    const server = await serveProcess(dir, children, { shellLimit: 'ulimit -f 256' });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(400 * 1024, 0x20)]);
    const res = await fetch(`${server.url}/extraction/lab/upload`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ pdfFile: pdf.toString('base64') }),
    });
    expect(res.status).toBe(503);
    const uploads = join(dir, 'uploads');
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it("the caller's filename is not stored: only its extension", async () => {
    const dir = home('assay-small-name-');
    const { key } = createKey(dir, 'name');
    let server: RunningServer | undefined;
    try {
      server = await startTestServer(dir);
      const res = await fetch(`${server.url}/extraction/lab/upload`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'Jane_Doe_1971-02-03_labs.PDF' }),
      });
      expect(res.status).toBe(200);
      const { jobId } = (await res.json()) as { jobId: string };
      const engine = await openEngine({ home: dir });
      const job = await engine.mustGet(jobId);
      await engine.close();
      expect((job.payload as { filename: string }).filename).toBe('upload.pdf');
    } finally {
      await server?.close();
    }
    for (const f of ['assay.db', 'assay.db-wal'])
      if (existsSync(join(dir, f))) expect(readFileSync(join(dir, f)).includes('Jane_Doe')).toBe(false);
  });

  it('one damaged row does not break `jobs list --json`: the row is listed, its payload marked unreadable', async () => {
    const dir = home('assay-small-row-');
    const engine = await openEngine({ home: dir });
    const [good] = await engine.store.enqueue([{ kind: 'demo.hash', payload: { rounds: 1 } }]);
    const [bad] = await engine.store.enqueue([{ kind: 'demo.hash', payload: { rounds: 1 } }]);
    await engine.close();
    const db = new Database(join(dir, 'assay.db'));
    db.prepare('UPDATE jobs SET payload = ? WHERE id = ?').run('{"rounds": 1', bad?.id);
    db.close();

    const list = await assay(['jobs', 'list', '--json', '--home', dir]);
    expect(list.stderr).not.toMatch(/SyntaxError/);
    expect(list.exitCode).toBe(0);
    expect(
      json<{ id: string }[]>(list)
        .map((j) => j.id)
        .sort(),
    ).toEqual([good?.id, bad?.id].sort());
    const show = await assay(['jobs', 'show', bad?.id as string, '--payload', '--json', '--home', dir]);
    expect(show.exitCode).toBe(0);
    expect(json<{ payload: unknown }>(show).payload).toMatchObject({ unreadable: expect.any(String) });
  });

  it('a zero-byte database in a used home is refused, not taken for a new store', async () => {
    const dir = home('assay-small-empty-');
    mkdirSync(join(dir, 'reports'));
    writeFileSync(join(dir, 'assay.db'), '');
    const list = await assay(['jobs', 'list', '--json', '--home', dir]);
    expect(list.exitCode).not.toBe(0);
    expect(`${list.stdout}${list.stderr}`).toMatch(/empty \(0 bytes\)/);
    expect(statSync(join(dir, 'assay.db')).size).toBe(0);
  });
  it('/predictor-statistics/ for a child (SPEC.md allows 0-120) says why it has no statistics', async () => {
    const dir = home('assay-small-child-');
    const { key } = createKey(dir, 'child');
    const server: RunningServer = await startTestServer(dir);
    try {
      const ask = async (age: number) => {
        const r = await fetch(`${server.url}/predictor-statistics/`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({
            header: { event_id: 'e-1', event_asof_dtutc: '2025-01-01T00:00:00Z' },
            sex: 'female',
            age,
          }),
        });
        expect(r.status).toBe(200);
        return (await r.json()) as { predictor_statistics: unknown[]; notice?: string };
      };
      const child = await ask(9);
      expect(child.predictor_statistics).toEqual([]);
      expect(child.notice).toMatch(/adults/);
      const adult = await ask(50);
      expect(adult.predictor_statistics.length).toBeGreaterThan(0);
      expect(adult.notice).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
