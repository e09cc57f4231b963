/**
 * The review page in a real browser (Debian's chromium through puppeteer-core), against the built CLI:
 * `assay review` of a scanned PDF whose OCR leaves doubtful rows, corrected with the keyboard alone, then
 * the exported JSON, FHIR and CSV checked, and the same for a result file reviewed beside itself.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, KeyInput, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/blobs/file.js';
import { reviewedResult } from '../../src/review/job-reviews.js';
import { REVIEW_CSP } from '../../src/review/routes.js';
import type { RunningServer } from '../../src/server/serve.js';
import { assay, assayMany, type CliResult, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from '../server/support/test-server.js';
import {
  browserAvailable,
  launchBrowser,
  type ReviewCli,
  screenshotDir,
  startReviewCli,
} from './browser-support.js';

const FIXTURES = new URL('../../fixtures/labs/', import.meta.url).pathname;

interface Row {
  id: string;
  biomarker: string;
  resultValue: string | null;
  resultUnit: string | null;
  ucumCode?: string | null;
  doubts?: Array<{ code: string }>;
  bbox?: { page: number; x: number; y: number; width: number; height: number } | null;
  reviewed?: { by: string; action: string };
}
interface Result {
  panels: Array<{ panelResults: Row[] }>;
  validationFlags: Array<{ code: string; resultId?: string }>;
  review?: { revisions: number; rowsRemoved: number };
}
const rowsOf = (r: Result) => r.panels.flatMap((p) => p.panelResults);

/** The row the page has selected: its id, class and cells as shown. */
const currentRow = (page: Page) =>
  page.$eval('#rows tbody tr.current', (tr) => ({
    id: (tr as HTMLElement).dataset.id ?? '',
    doubtful: tr.classList.contains('doubt'),
    cells: [...tr.children].map((td) => td.textContent ?? ''),
  }));

const revisionsShown = (page: Page, n: number) =>
  page.waitForFunction((count) => document.querySelectorAll('#revisions li').length === count, {}, n);

/** Open a field with its key, replace what it holds by typing, save with Enter. */
async function editWithKeys(page: Page, key: KeyInput, field: string, value: string) {
  await page.keyboard.press(key);
  await page.waitForFunction((f) => document.activeElement?.id === `f-${f}`, {}, field);
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
}

const runBrowser = browserAvailable();

describe.skipIf(!runBrowser)('assay review in a real browser', () => {
  const home = tmpHome('assay-review-browser-');
  const shots = screenshotDir(home.dir);
  let browser: Browser;
  const clis: ReviewCli[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    for (const cli of clis) await cli.stop();
    home.cleanup();
  });

  it('corrects the doubtful rows of a scanned PDF with the keyboard; every export reads the review', async () => {
    const cli = await startReviewCli([join(FIXTURES, 'scanned-no-text.pdf')], home.dir);
    clis.push(cli);
    const { url, documents } = cli.summary;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/review\/[0-9a-f-]{36}\?token=[\w-]{43}$/);
    const jobId = documents[0]?.id ?? '';
    expect(documents[0]).toMatchObject({ label: 'scanned-no-text.pdf', pageImages: true });

    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    const images: Array<{ status: number; headers: Record<string, string> }> = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/pages/')) images.push({ status: r.status(), headers: r.headers() });
    });

    const first = await page.goto(url);
    // The token was traded for a cookie and dropped from the address.
    expect(page.url()).toBe(url.replace(/\?token=.*$/, ''));
    expect(first?.headers()['content-security-policy']).toBe(REVIEW_CSP);
    expect(first?.headers()['cache-control']).toBe('no-store');
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(403); // one use only
    expect((await fetch(url.replace(/\?token=.*$/, ''))).status).toBe(403); // no cookie, no page

    await page.waitForSelector('body[data-ready]');
    await page.waitForFunction(() => !(document.getElementById('box') as HTMLElement).hidden);
    await page.screenshot({ path: join(shots, 'scanned-1-open.png') });

    // Doubtful rows come first: the page opens on one, highlighted on the page image where it was read.
    const state = (await page.evaluate(
      async (id) => (await fetch(`/review/${id}/api/state`)).json(),
      jobId,
    )) as {
      dpi: number;
      rows: Array<Row & { open: boolean }>;
    };
    const doubtful = state.rows.filter((r) => r.open);
    expect(doubtful.length).toBeGreaterThanOrEqual(3);
    const [target, dropped, accepted] = doubtful as unknown as [Row, Row, Row];
    expect(await currentRow(page)).toMatchObject({ id: target.id, doubtful: true });
    expect(await page.$eval('#detail', (d) => d.textContent)).toContain('Doubt:');
    const placed = await page.evaluate(() => {
      const img = document.getElementById('page-img') as HTMLImageElement;
      const box = document.getElementById('box') as HTMLElement;
      return {
        left: box.offsetLeft,
        top: box.offsetTop,
        scale: img.clientWidth / img.naturalWidth,
        natural: img.naturalWidth,
      };
    });
    expect(placed.natural).toBe(Math.round((612 * state.dpi) / 72)); // letter width at the review dpi
    const pixels = (placed.scale * state.dpi) / 72;
    expect(placed.left).toBeCloseTo((target.bbox?.x ?? 0) * pixels - 3, -1);
    expect(placed.top).toBeCloseTo((target.bbox?.y ?? 0) * pixels - 3, -1);
    expect(images[0]).toMatchObject({ status: 200 });
    expect(images[0]?.headers['content-type']).toBe('image/png');
    expect(images[0]?.headers['cache-control']).toBe('no-store');

    // e: correct the value; the page moves on, k comes back, u: correct the unit.
    await editWithKeys(page, 'e', 'resultValue', '89');
    await revisionsShown(page, 1);
    expect((await currentRow(page)).id).toBe(dropped.id);
    await page.keyboard.press('k');
    expect((await currentRow(page)).id).toBe(target.id);
    await editWithKeys(page, 'u', 'resultUnit', 'mg/dL');
    await revisionsShown(page, 2);
    await page.screenshot({ path: join(shots, 'scanned-2-edited.png') });
    // x: the next doubtful row is not a result; a: the one after it is right as read.
    expect((await currentRow(page)).id).toBe(dropped.id);
    await page.keyboard.press('x');
    await revisionsShown(page, 3);
    expect((await currentRow(page)).id).toBe(accepted.id);
    await page.keyboard.press('a');
    await revisionsShown(page, 4);
    // An edit can be abandoned: Esc saves nothing.
    await page.keyboard.press('n');
    await page.keyboard.type('SOMETHING ELSE');
    await page.keyboard.press('Escape');
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await page.screenshot({ path: join(shots, 'scanned-3-reviewed.png') });
    expect(await page.$$eval('#revisions li', (li) => li.length)).toBe(4);
    expect(await page.$eval('#rows tbody', (t) => t.textContent)).not.toContain('SOMETHING ELSE');

    const exported = async (format: string) =>
      page.evaluate(async (path) => (await fetch(path)).text(), `/review/${jobId}/api/export/${format}`);
    const reviewed = JSON.parse(await exported('json')) as Result;
    const rows = rowsOf(reviewed);
    expect(rows.find((r) => r.id === target.id)).toMatchObject({
      resultValue: '89',
      resultUnit: 'mg/dL',
      ucumCode: 'mg/dL',
      doubts: [],
      reviewed: { by: 'cli', action: 'edit' },
    });
    expect(rows.find((r) => r.id === dropped.id)).toBeUndefined();
    expect(rows.find((r) => r.id === accepted.id)).toMatchObject({
      doubts: [],
      reviewed: { action: 'accept' },
    });
    const flagged = new Set(reviewed.validationFlags.map((f) => f.resultId));
    for (const id of [target.id, dropped.id, accepted.id]) expect(flagged.has(id)).toBe(false);
    expect(reviewed.review).toMatchObject({ revisions: 4, rowsRemoved: 1 });

    // FHIR: the corrected row is a final Observation of 89 mg/dL; rows still doubted stay preliminary.
    const bundle = JSON.parse(await exported('fhir')) as {
      entry: Array<{
        resource: { resourceType: string; status?: string; valueQuantity?: { value: number; unit: string } };
      }>;
    };
    const observations = bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation');
    expect(observations).toHaveLength(rows.length);
    expect(observations).toContainEqual(
      expect.objectContaining({
        status: 'final',
        valueQuantity: expect.objectContaining({ value: 89, unit: 'mg/dL' }),
      }),
    );
    expect(observations.filter((o) => o.status === 'preliminary')).toHaveLength(
      rows.filter((r) => (r.doubts ?? []).length > 0).length,
    );
    const csv = await exported('csv');
    const line = csv.split('\r\n').find((l) => l.includes(target.id)) ?? '';
    expect(line).toContain(',89,');
    expect(csv).not.toContain(dropped.id);

    // Readers of the job get the reviewed result: `lab status` is what the page exported.
    const status = json<Result>(await assay(['lab', 'status', jobId, '--json', '--home', home.dir]));
    expect(rowsOf(status).find((r) => r.id === target.id)?.resultValue).toBe('89');
    expect(status.panels).toEqual(reviewed.panels);
    // Applying the revisions again changes nothing: they are applied once, to the extracted result.
    const reapplied = await reviewedResult(new FileBlobStore(home.dir), jobId, status);
    expect(reapplied.panels).toEqual(reviewed.panels);
    expect(problems).toEqual([]);
    await page.close();

    // The same job by its id: the same revisions, and no page images unless --pdf names the PDF.
    const byId = await startReviewCli([jobId], home.dir);
    clis.push(byId);
    expect(byId.summary.documents[0]).toMatchObject({ id: jobId, pageImages: false });
    const opened = await fetch(byId.summary.url, { redirect: 'manual' });
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const again = await fetch(byId.summary.url.replace(/\?token=.*$/, '/api/state'), { headers: { cookie } });
    expect(((await again.json()) as { revisions: unknown[] }).revisions).toHaveLength(4);
    expect(await byId.stop()).toBe(0);
  }, 120_000);

  it('reviews a result file beside itself: <name>.review.json and <name>.reviewed.json', async () => {
    const dir = join(home.dir, 'out');
    const extracted = await assay([
      'lab',
      'extract',
      join(FIXTURES, 'quest-cbc-a1c.pdf'),
      '--out',
      dir,
      '--home',
      home.dir,
    ]);
    expect(extracted.exitCode).toBe(0);
    const path = join(dir, 'quest-cbc-a1c.json');
    // This fixture reads cleanly; a doubt is added so the page has one to open on, as an OCR read would.
    const result = JSON.parse(readFileSync(path, 'utf8')) as Result;
    const hemoglobin = rowsOf(result).find((r) => r.biomarker === 'HEMOGLOBIN') as Row;
    hemoglobin.doubts = [
      { code: 'ocr_low_confidence', message: 'HEMOGLOBIN was read by OCR with low confidence' } as never,
    ];
    const original = `${JSON.stringify(result, null, 2)}\n`;
    writeFileSync(path, original);
    copyFileSync(join(FIXTURES, 'quest-cbc-a1c.pdf'), join(dir, 'quest-cbc-a1c.pdf'));

    const cli = await startReviewCli([path], home.dir);
    clis.push(cli);
    expect(cli.summary.documents[0]).toMatchObject({
      reviewed: join(dir, 'quest-cbc-a1c.reviewed.json'),
      pageImages: true,
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(cli.summary.url);
    await page.waitForSelector('body[data-ready]');
    expect((await currentRow(page)).id).toBe(hemoglobin.id);
    await editWithKeys(page, 'n', 'biomarker', 'Hemoglobin');
    await revisionsShown(page, 1);
    await page.waitForFunction(() => !(document.getElementById('box') as HTMLElement).hidden);
    await page.screenshot({ path: join(shots, 'file-1-renamed.png') });

    expect(readFileSync(path, 'utf8')).toBe(original);
    const sidecar = JSON.parse(readFileSync(join(dir, 'quest-cbc-a1c.review.json'), 'utf8'));
    expect(sidecar.revisions).toEqual([
      expect.objectContaining({
        by: 'cli',
        action: 'edit',
        resultId: hemoglobin.id,
        changes: { biomarker: 'Hemoglobin' },
      }),
    ]);
    const reviewed = JSON.parse(readFileSync(join(dir, 'quest-cbc-a1c.reviewed.json'), 'utf8')) as Result;
    expect(rowsOf(reviewed).find((r) => r.id === hemoglobin.id)).toMatchObject({
      biomarker: 'Hemoglobin',
      loincCode: '718-7',
      doubts: [],
    });
    await page.close();
    expect(await cli.stop()).toBe(0);
  }, 120_000);
});

describe.skipIf(!runBrowser)('/review/{jobId} of assay serve in a real browser', () => {
  const home = tmpHome('assay-serve-review-browser-');
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startTestServer(home.dir);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    home.cleanup();
  });

  it('opens from a minted one-time URL; the reviewer gives the PDF to see the pages', async () => {
    const { key } = createKey(home.dir, 'reviewer');
    const pdfPath = join(FIXTURES, 'quest-cbc-a1c.pdf');
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const upload = await fetch(`${server.url}/extraction/lab/upload`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ pdfFile: readFileSync(pdfPath).toString('base64'), filename: 'cbc.pdf' }),
    });
    const { jobId } = (await upload.json()) as { jobId: string };
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${server.url}/extraction/lab/status/${jobId}`, { headers });
      if (((await res.json()) as { status: string }).status === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const minted = await fetch(`${server.url}/review/${jobId}/session`, {
      method: 'POST',
      headers: { 'x-api-key': key },
    });
    const { url } = (await minted.json()) as { url: string };

    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(url);
    expect(page.url()).toBe(`${server.url}/review/${jobId}`);
    await page.waitForSelector('body[data-ready]');
    expect(await page.$eval('#pdf-pick', (l) => (l as HTMLElement).hidden)).toBe(false);
    await page.screenshot({ path: join(screenshotDir(home.dir), 'serve-1-no-pdf.png') });
    const input = await page.$('#pdf-file');
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(pdfPath);
    await page.waitForFunction(() => !(document.getElementById('box') as HTMLElement).hidden);
    await page.keyboard.press('a');
    await revisionsShown(page, 1);
    await page.screenshot({ path: join(screenshotDir(home.dir), 'serve-2-with-pdf.png') });
    const revisions = await page.$$eval('#revisions li', (li) => li.map((l) => l.textContent ?? ''));
    expect(revisions[0]).toMatch(/: accept p1-white-blood-cell-count-1$/);
    await page.close();
  }, 60_000);
});

describe('assay review: inputs it cannot review', () => {
  const home = tmpHome('assay-review-errors-');
  afterAll(() => home.cleanup());

  it('exits 3 for an unknown job and 2 for a file that is not a result', async () => {
    const unknown = await assay([
      'review',
      '6f1c1d0e-2b7a-4c55-9d1e-3a4b5c6d7e8f',
      '--json',
      '--home',
      home.dir,
    ]);
    expect(unknown.exitCode).toBe(3);
    expect(json<{ error: { code: string } }>(unknown).error.code).toBe('not_found');
    // The other refusals run many to one child process (test/e2e/cli.ts, assayMany).
    const notResult = join(home.dir, 'settings.json');
    writeFileSync(notResult, '{"theme": "dark"}');
    const text = join(home.dir, 'notes.txt');
    writeFileSync(text, 'hello');
    const [nothing, bad, notes] = (await assayMany([
      ['review', 'no-such-thing', '--home', home.dir],
      ['review', notResult, '--json', '--home', home.dir],
      ['review', text, '--home', home.dir],
    ])) as [CliResult, CliResult, CliResult];
    expect(nothing.exitCode).toBe(3);
    expect(bad.exitCode).toBe(2);
    expect(json<{ error: { message: string } }>(bad).error.message).toMatch(
      /not a lab result file: it has no panels/,
    );
    expect(notes.exitCode).toBe(2);
  }, 60_000);
});
