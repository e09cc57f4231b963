import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReportModel } from '../../src/report/model/model.js';
import { PREVENT_MODEL_IDS } from '../../src/report/pdf/cardiovascular-risks.js';
import { renderReport } from '../../src/report/pdf/render.js';
import { PREVENT_IDS } from '../../src/scoring/models/prevent.js';
import { fixtureRequest } from './support/fixtures.js';

const TRACER = fileURLToPath(new URL('../../bench/support/module-trace.mjs', import.meta.url));
const RENDER = new URL('../../src/report/pdf/render.ts', import.meta.url).href;

/** What a render thread loads: only the renderers and pdfkit, not what builds the model or embeds fonts. */
describe('what rendering a report loads (a real process, traced module loads)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-render-modules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the renderers, pdfkit and no scoring, request schemas, fontkit or AES; the same PDF', async () => {
    const { request } = fixtureRequest('full-three-events');
    const model = JSON.parse(JSON.stringify(buildReportModel(request, 'full')));
    const modelFile = join(dir, 'model.json');
    const pdfFile = join(dir, 'report.pdf');
    const trace = join(dir, 'trace.txt');
    writeFileSync(modelFile, JSON.stringify(model));
    const script = [
      'import { readFileSync, writeFileSync } from "node:fs";',
      `const { renderReport } = await import(${JSON.stringify(RENDER)});`,
      `const model = JSON.parse(readFileSync(${JSON.stringify(modelFile)}, "utf8"));`,
      `writeFileSync(${JSON.stringify(pdfFile)}, await renderReport(model));`,
    ].join('\n');
    execFileSync(
      process.execPath,
      ['--import', 'tsx', '--import', TRACER, '--input-type=module', '-e', script],
      {
        env: { ...process.env, ASSAY_MODULE_TRACE: trace },
        stdio: 'pipe',
      },
    );
    const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    const has = (part: string) => loaded.some((line) => line.includes(part));
    // The trace sees what the process really loaded.
    expect(has('/src/report/pdf/charts.ts')).toBe(true);
    expect(has('node_modules/pdfkit/')).toBe(true);
    expect(has('node_modules/linebreak/')).toBe(true);
    for (const part of [
      '/src/scoring/score-request',
      '/src/scoring/models/prevent',
      '/src/schemas/',
      '/src/refdata/',
    ])
      expect(has(part), part).toBe(false);
    for (const part of ['node_modules/zod/', 'node_modules/restructure/', 'node_modules/brotli/'])
      expect(has(part), part).toBe(false);
    // fontkit and AES have a stand-in in the require cache until used: their own dependencies never load.
    expect(has('node_modules/@noble/ciphers/_polyval')).toBe(false);
    expect(readFileSync(pdfFile).equals(await renderReport(model))).toBe(true);
  }, 60_000);

  it("spells PREVENT's model ids as the scoring layer does", () => {
    expect(PREVENT_MODEL_IDS).toEqual(PREVENT_IDS);
  });
});
