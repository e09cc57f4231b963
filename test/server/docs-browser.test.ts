/**
 * Issue #29.7: /docs in a real browser (Debian's chromium through puppeteer-core): Swagger UI renders the
 * operations of /openapi.json, and no request leaves 127.0.0.1 (every request is intercepted; one to any
 * other host is refused and fails the test). The screenshots (the list, then the upload opened) go to
 * ASSAY_DOCS_SCREENSHOT and the same name with -upload (to look at them), else into the test's home.
 */
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { browserAvailable, launchBrowser } from '../review/browser-support.js';
import { startTestServer } from './support/test-server.js';

const runBrowser = browserAvailable();

describe.skipIf(!runBrowser)('/docs in a real browser', () => {
  const home = tmpHome('assay-docs-browser-');
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(home.dir);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    home.cleanup();
  });

  it('renders the operations with no request leaving 127.0.0.1', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 1600 });
    const local: string[] = [];
    const refused: string[] = [];
    const problems: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol === 'data:' || url.protocol === 'blob:') return void req.continue();
      if (url.hostname === '127.0.0.1' && url.port === new URL(server.url).port) {
        local.push(url.pathname);
        return void req.continue();
      }
      refused.push(req.url());
      return void req.abort('blockedbyclient');
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));

    await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.opblock-summary', { timeout: 20_000 });

    expect(await page.title()).toBe('assay API');
    const info = await page.$eval('.info .title', (el) => el.textContent ?? '');
    expect(info).toMatch(/^assay/);
    const operations = await page.$$eval('.opblock-summary', (els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => ({
          method: el.querySelector('.opblock-summary-method')?.textContent ?? '',
          path: (el.querySelector('.opblock-summary-path')?.textContent ?? '').replace(/\u200b/g, ''),
          operationId: el.querySelector('.opblock-summary-operation-id')?.textContent ?? '',
        })),
    );
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: object };
    const documented = Object.values(doc.paths).flatMap((ops) => Object.keys(ops as object)).length;
    expect(operations).toHaveLength(documented);
    expect(operations).toContainEqual({
      method: 'POST',
      path: '/extraction/lab/upload',
      operationId: 'uploadLabPdf',
    });
    expect(operations).toContainEqual({
      method: 'GET',
      path: '/health-score/report/{job_id}/pdf',
      operationId: 'getReportPdf',
    });
    expect(await page.$('.btn.authorize')).not.toBeNull();

    const shot = process.env.ASSAY_DOCS_SCREENSHOT ?? join(home.dir, 'docs.png');
    await page.screenshot({ path: shot as `${string}.png` });

    // Open the upload: its request body offers the three forms, with the JSON example shown.
    await page.click('#operations-lab_extraction-uploadLabPdf .opblock-summary-control');
    await page.waitForSelector('#operations-lab_extraction-uploadLabPdf .body-param-content-type select');
    const types = await page.$$eval(
      '#operations-lab_extraction-uploadLabPdf .body-param-content-type select option',
      (els) => els.map((el) => (el as HTMLOptionElement).value),
    );
    expect(types).toEqual(['application/json', 'application/pdf', 'multipart/form-data']);
    const example = await page.$eval(
      '#operations-lab_extraction-uploadLabPdf .body-param__example',
      (el) => el.textContent ?? '',
    );
    expect(example).toMatch(/"pdfFile": "JVBERi0xLjcKJeLjz9MK"/);

    await page.screenshot({ path: shot.replace(/(\.png)?$/, '-upload.png') as `${string}.png` });

    expect(refused).toEqual([]);
    expect(local).toEqual(
      expect.arrayContaining(['/docs', '/docs/static/swagger-ui-bundle.js', '/docs/json']),
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
