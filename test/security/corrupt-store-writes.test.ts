import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IntegrityCheck } from '../../src/engine/sqlite/file-check.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { StoreError } from '../../src/errors.js';
import type { RunningServer } from '../../src/server/serve.js';
import { INTEGRITY_RECHECK_MS, StoreHealth } from '../../src/server/store-health.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';
import { ROOT } from './support/serve-process.js';

const PDF = readFileSync(join(ROOT, 'fixtures/labs/quest-cbc-a1c.pdf'));
const REPORT = readFileSync(join(ROOT, 'fixtures/reports/condensed-one-event.json'), 'utf8');

/**
 * Garbage over the header of a page no upload or report request touches (the reference data's), as a bad
 * disk or a stray write would leave it: writes would still go through, into a damaged file. The WAL is
 * checkpointed first, so the damaged page is the one every reader gets.
 */
function damageReferencePage(home: string): void {
  const file = join(home, 'assay.db');
  const probe = new Database(file);
  probe.pragma('wal_checkpoint(TRUNCATE)');
  const { page, size } = probe
    .prepare(
      "SELECT max(pageno) AS page, (SELECT page_size FROM pragma_page_size) AS size FROM dbstat WHERE name = 'refdata_concepts'",
    )
    .get() as { page: number; size: number };
  probe.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, (page - 1) * size);
  closeSync(fd);
}

/**
 * Issue #30 item 8: a database file whose pages fail `PRAGMA quick_check` made /readyz answer 503 while
 * uploads were still accepted (202) into a store that cannot keep them. Every route that writes work into
 * the store follows the readiness verdict: 503 with Retry-After and the "store unavailable" body.
 */
describe('a store failing its integrity check refuses new work (#30 item 8)', () => {
  let server: RunningServer | undefined;
  let home: { dir: string; cleanup: () => void } | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await server?.close().catch(() => undefined);
    home?.cleanup();
  });

  it('uploads, pre-signed URLs and their PUT, report requests: 503 + Retry-After once quick_check fails', async () => {
    home = tmpHome('assay-corrupt-writes-');
    const { key } = createKey(home.dir, 'corrupt');
    server = await startTestServer(home.dir);
    const base = server.url;
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    // Made while the store is sound: what a client holds when the damage happens.
    const made = await fetch(`${base}/extraction/lab/upload`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ filename: 'a.pdf' }),
    });
    expect(made.status).toBe(200);
    const { uploadUrl } = (await made.json()) as { uploadUrl: string };

    damageReferencePage(home.dir);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);

    const requests: Array<[string, string, RequestInit]> = [
      [
        'upload',
        '/extraction/lab/upload',
        { method: 'POST', headers, body: JSON.stringify({ pdfFile: PDF.toString('base64') }) },
      ],
      [
        'pre-signed URL',
        '/extraction/lab/upload',
        { method: 'POST', headers, body: JSON.stringify({ filename: 'b.pdf' }) },
      ],
      [
        'PUT',
        uploadUrl.replace(/^https?:\/\/[^/]+/, ''),
        { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: PDF },
      ],
      ['report', '/health-score/report/condensed', { method: 'POST', headers, body: REPORT }],
    ];
    const answers: string[] = [];
    const bodies: Record<string, unknown> = {};
    for (const [name, path, init] of requests) {
      const res = await fetch(`${base}${path}`, init);
      answers.push(`${name} ${res.status} ${res.headers.get('retry-after') ?? '-'}`);
      bodies[name] = await res.json();
    }
    expect(answers).toEqual(requests.map(([name]) => `${name} 503 5`));
    // The project's one "store unavailable" body: the lab shape under /extraction, `{detail}` elsewhere.
    expect(bodies.upload).toMatchObject({ error: 'store_unavailable', requestId: expect.any(String) });
    expect(bodies.PUT).toMatchObject({ error: 'store_unavailable' });
    expect(bodies.report).toEqual({ detail: expect.stringMatching(/store/) });
    // Reads still answer: the caller can see what it already has.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('without /readyz polled, the writes find the damage on their own within INTEGRITY_RECHECK_MS', () => {
    home = tmpHome('assay-corrupt-unpolled-');
    const db = openDatabase(home.dir);
    try {
      const health = new StoreHealth(db);
      const now = Date.now();
      expect(() => health.assertWritable(now)).not.toThrow();
      damageReferencePage(home.dir);
      // The verdict of a moment ago stands for a while (a write costs no look at the file) ...
      expect(() => health.assertWritable(now + 1)).not.toThrow();
      // ... then the next write looks again.
      expect(() => health.assertWritable(now + INTEGRITY_RECHECK_MS)).toThrow(StoreError);
      expect(health.problem()).toBe('store_corrupt');
    } finally {
      db.close();
    }
  });

  it('a sound store: the check behind each write is a cached verdict, not a quick_check per request', async () => {
    home = tmpHome('assay-corrupt-cheap-');
    const { key } = createKey(home.dir, 'cheap');
    server = await startTestServer(home.dir);
    const checks = vi.spyOn(IntegrityCheck.prototype, 'ok');
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const started = performance.now();
    const n = 60;
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${server.url}/extraction/lab/upload`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ filename: `${i}.pdf` }),
      });
      expect(res.status).toBe(200);
    }
    const seconds = (performance.now() - started) / 1000;
    // One integrity verdict per INTEGRITY_RECHECK_MS of writes, however many writes there were.
    expect(checks.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(checks.mock.calls.length).toBeLessThanOrEqual(
      1 + Math.floor((seconds * 1000) / INTEGRITY_RECHECK_MS),
    );
  });
});
