import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalReview, startLocalReview } from '../../src/review/local-server.js';
import { PdfMemory } from '../../src/review/pdf-memory.js';
import type { ReviewDoc } from '../../src/review/review-doc.js';
import type { Revision } from '../../src/review/revisions.js';
import { sampleResult } from './support.js';

function memoryDoc(id: string): ReviewDoc {
  const revisions: Revision[] = [];
  return {
    id,
    label: `${id}.json`,
    original: async () => sampleResult(),
    revisions: async () => revisions,
    append: async (r) => {
      revisions.push(r);
      return revisions;
    },
    pdf: null,
    reviewedPath: null,
  };
}

/** A GET with a Host header of our choosing (fetch will not send another host's name to 127.0.0.1). */
function get(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the local review server', () => {
  let review: LocalReview;
  afterAll(() => review?.close());

  it('binds 127.0.0.1 and turns away another host name (DNS rebinding)', async () => {
    review = await startLocalReview([memoryDoc('file-1'), memoryDoc('file-2')]);
    const { hostname, port } = new URL(review.url);
    expect(hostname).toBe('127.0.0.1');
    expect(await get(review.url, `attacker.example:${port}`)).toBe(421);
  });

  it('redirects a token only to its own pages; with several documents the start page lists them', async () => {
    const crafted = review.url.replace('/?token=', '//evil.example/?token=');
    const res = await fetch(crafted, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const index = await fetch(new URL('/', review.url), { headers: { cookie } });
    const html = await index.text();
    expect(html).toContain('href="/review/file-1"');
    expect(html).toContain('href="/review/file-2"');
    // Spent: the printed link works once.
    expect((await fetch(review.url, { redirect: 'manual' })).status).toBe(403);
    const unknown = await fetch(new URL('/review/file-9/api/state', review.url), { headers: { cookie } });
    expect(unknown.status).toBe(404);
    const bad = await fetch(new URL('/review/file-1/api/revisions', review.url), {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ resultId: 'p1-glucose-1', action: 'edit' }),
    });
    expect(bad.status).toBe(400);
    const ok = await fetch(new URL('/review/file-1/api/revisions', review.url), {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ resultId: 'p1-glucose-1', action: 'accept' }),
    });
    expect(((await ok.json()) as { revisions: Revision[] }).revisions).toEqual([
      expect.objectContaining({ by: 'cli', action: 'accept' }),
    ]);
  });
});

describe('PdfMemory', () => {
  it('forgets PDFs after their time, and the oldest first past its bounds', () => {
    const memory = new PdfMemory(1_000, 10, 2);
    memory.put('a', new Uint8Array(4), 0);
    memory.put('b', new Uint8Array(4), 0);
    memory.put('c', new Uint8Array(4), 0);
    expect(memory.get('a', 1)).toBeNull();
    expect(memory.get('b', 1)).not.toBeNull();
    memory.put('d', new Uint8Array(8), 2);
    expect(memory.get('b', 3)).toBeNull();
    expect(memory.get('c', 3)).toBeNull();
    expect(memory.get('d', 3)).not.toBeNull();
    expect(memory.get('d', 1_002)).toBeNull();
  });
});
