import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import type { ExtractionCore } from '../../src/lab/types.js';
import { REVIEW_CSP } from '../../src/review/routes.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';

const pdf = readFileSync(new URL('../../fixtures/labs/quest-cbc-a1c.pdf', import.meta.url));

describe('/review/{jobId} under serve: for the key that owns the job, through a one-time signed URL', () => {
  const home = tmpHome('assay-serve-review-');
  let server: RunningServer;
  let owner: ReturnType<typeof createKey>;
  let other: ReturnType<typeof createKey>;
  let jobId: string;

  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { 'x-api-key': key, ...(init.headers ?? {}) } });
  const session = (id: string, key: string) => api(`/review/${id}/session`, key, { method: 'POST' });
  /** Open a minted URL as a browser would: the ticket becomes a cookie and a redirect to the clean page. */
  async function openTicket(key = owner.key) {
    const { url } = (await (await session(jobId, key)).json()) as { url: string };
    const res = await fetch(url, { redirect: 'manual' });
    return { url, res, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
  }

  beforeAll(async () => {
    owner = createKey(home.dir, 'owner');
    other = createKey(home.dir, 'other');
    server = await startTestServer(home.dir);
    const upload = await api('/extraction/lab/upload', owner.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pdfFile: pdf.toString('base64'), filename: 'cbc.pdf' }),
    });
    jobId = ((await upload.json()) as { jobId: string }).jobId;
    for (let i = 0; i < 300; i++) {
      const body = (await (await api(`/extraction/lab/status/${jobId}`, owner.key)).json()) as {
        status: string;
      };
      if (body.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('mints a URL only for the owner: another key gets 404, as for the job routes, and no key 401', async () => {
    expect((await session(jobId, other.key)).status).toBe(404);
    expect((await api(`/extraction/lab/status/${jobId}`, other.key)).status).toBe(404);
    expect((await fetch(`${server.url}/review/${jobId}/session`, { method: 'POST' })).status).toBe(401);
    expect((await session('6f1c1d0e-2b7a-4c55-9d1e-3a4b5c6d7e8f', owner.key)).status).toBe(404);
    const res = await session(jobId, owner.key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; expiresAt: string };
    expect(body.url).toMatch(new RegExp(`^${server.url}/review/${jobId}\\?ticket=[^&]+&signature=`));
    expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it('trades the ticket once for an HttpOnly SameSite=Strict cookie and redirects to the clean page', async () => {
    const { url, res, cookie } = await openTicket();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/review/${jobId}`);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(new RegExp(`Path=/review/${jobId}`));
    // Used once: the same URL opens nothing again.
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(403);

    const page = await fetch(`${server.url}/review/${jobId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(REVIEW_CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<script src="/review/assets/review.js" defer></script>');
  });

  it('answers 404 without a session, with an API key header alone, or with a forged cookie', async () => {
    expect((await fetch(`${server.url}/review/${jobId}`)).status).toBe(404);
    expect((await api(`/review/${jobId}/api/state`, owner.key)).status).toBe(404);
    const forged = `assay_review=${Buffer.from(JSON.stringify({ use: 'session', jobId, keyId: owner.apiKey.id, expires: Date.now() + 60_000 })).toString('base64url')}.AAAA`;
    expect(
      (await fetch(`${server.url}/review/${jobId}/api/state`, { headers: { cookie: forged } })).status,
    ).toBe(404);
  });

  it('saves a change as a revision by the key, and readers of the job get the reviewed result', async () => {
    const { cookie } = await openTicket();
    const state = (await (
      await fetch(`${server.url}/review/${jobId}/api/state`, { headers: { cookie } })
    ).json()) as {
      rows: Array<{ id: string; biomarker: string }>;
      images: boolean;
    };
    // The upload is deleted once its job ends: no page images under serve.
    expect(state.images).toBe(false);
    const hemoglobin = state.rows.find((r) => r.biomarker === 'HEMOGLOBIN');
    expect(hemoglobin?.id).toBe('p1-hemoglobin-1');
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/review/${jobId}/api/revisions`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          resultId: 'p1-hemoglobin-1',
          action: 'edit',
          changes: { resultValue: '10.6' },
        }),
      });
    expect((await post({ origin: 'https://elsewhere.example' })).status).toBe(403);
    const saved = await post({ origin: server.url });
    expect(saved.status).toBe(200);
    const next = (await saved.json()) as { revisions: Array<{ by: string; action: string }> };
    expect(next.revisions).toEqual([expect.objectContaining({ by: owner.apiKey.id, action: 'edit' })]);

    // The status and results routes answer with the reviewed result.
    for (const route of ['status', 'results']) {
      const body = await (await api(`/extraction/lab/${route}/${jobId}`, owner.key)).json();
      const row = body.panels
        .flatMap((p: { panelResults: unknown[] }) => p.panelResults)
        .find((r: { id: string }) => r.id === 'p1-hemoglobin-1');
      expect(row).toMatchObject({ resultValue: '10.6', reviewed: { by: owner.apiKey.id } });
    }
    // The extracted result is kept as it was: the job row is untouched, the revisions live beside it.
    const reader = await openEngine({ home: home.dir });
    try {
      const job = await reader.store.get(jobId);
      const extracted = ((job?.result ?? { panels: [] }) as ExtractionCore).panels.flatMap(
        (p) => p.panelResults,
      );
      expect(extracted.find((r) => r.id === 'p1-hemoglobin-1')?.resultValue).toBe('10.5');
    } finally {
      await reader.close();
    }
  });

  it('exports the reviewed result as JSON, FHIR and CSV', async () => {
    const { cookie } = await openTicket();
    const get = (f: string) =>
      fetch(`${server.url}/review/${jobId}/api/export/${f}`, { headers: { cookie } });
    const json = await (await get('json')).json();
    expect(json.review).toMatchObject({ revisions: 1 });
    const fhir = await (await get('fhir')).json();
    expect(JSON.stringify(fhir)).toContain('"value":10.6');
    expect(await (await get('csv')).text()).toContain('10.6');
  });

  it('lists the session route in the API description', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toContain('/review/{jobId}/session');
  });
});
