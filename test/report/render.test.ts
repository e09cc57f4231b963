import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RenderPool, renderInline } from '../../src/report/job/render-pool.js';
import { buildReportModel, domainOf, type ReportModel } from '../../src/report/model/model.js';
import { preventRisks } from '../../src/report/pdf/cardiovascular-risks.js';
import {
  formatAge,
  formatPercent,
  formatRatio,
  formatScore,
  formatValue,
} from '../../src/report/pdf/format.js';
import { renderReport } from '../../src/report/pdf/render.js';
import { fixtureJson, fixtureNames, fixtureRequest } from './support/fixtures.js';
import { hasPdftoppm, pageTexts } from './support/pdf.js';

const rendered = new Map<string, { model: ReportModel; pdf: Buffer; pages: string[] }>();

async function render(name: string) {
  const cached = rendered.get(name);
  if (cached) return cached;
  const { request, variant } = fixtureRequest(name);
  const model = buildReportModel(request, variant);
  const pdf = await renderReport(model);
  const entry = { model, pdf, pages: await pageTexts(pdf) };
  rendered.set(name, entry);
  return entry;
}

/** pdf.js may break a line between words differently from how it was drawn; compare on collapsed spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

const pngDir = mkdtempSync(join(tmpdir(), 'assay-report-png-'));
afterAll(() => rmSync(pngDir, { recursive: true, force: true }));

describe.each(fixtureNames())('fixture %s', (name) => {
  it('renders a PDF whose text carries the report model numbers on the right pages', async () => {
    const { model, pdf, pages } = await render(name);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const summary = flat(pages[0] ?? '');
    for (const domain of model.latest.domains) {
      if (domain.health_score !== null) {
        expect(summary).toContain(formatScore(domain.health_score));
        expect(summary).toContain(formatAge(domain.health_age));
        expect(summary).toContain(formatRatio(domain.risk_ratio));
      } else if (domain.value !== null) {
        expect(summary).toContain(formatValue(domain.value));
      }
    }
    expect(summary).toContain(formatAge(model.chronological_age));
    if (model.biological_age !== null) expect(summary).toContain(formatAge(model.biological_age));
    const all = flat(pages.join('\n'));
    expect(all).toContain('not medical advice or a clinical diagnosis');
    expect(all).not.toContain(String(fixtureJson(name).uid_ext));
  });

  it('numbers every page and keeps the condensed report to one page', async () => {
    const { model, pages } = await render(name);
    pages.forEach((text, i) => {
      expect(flat(text)).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    if (model.variant === 'condensed') expect(pages).toHaveLength(1);
    else expect(pages.length).toBeGreaterThanOrEqual(5);
  });

  it('renders the same bytes every time (CreationDate from event_asof_dtutc)', async () => {
    const { model, pdf } = await render(name);
    expect((await renderReport(model)).equals(pdf)).toBe(true);
  });

  it.skipIf(!hasPdftoppm())('rasterises every page with pdftoppm', async () => {
    const { pdf, pages } = await render(name);
    const file = join(pngDir, `${name}.pdf`);
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '40', '-png', file, join(pngDir, name)], { stdio: 'pipe' });
    const pngs = readdirSync(pngDir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
    expect(pngs).toHaveLength(pages.length);
    for (const png of pngs) expect(statSync(join(pngDir, png)).size).toBeGreaterThan(1000);
  });
});

describe('full report pages', () => {
  it('puts each event-to-event change on the What changed page and every model on the Methods page', async () => {
    const { model, pages } = await render('full-three-events');
    const changes = flat(pages.find((p) => p.includes('What changed since')) ?? '');
    const overallBefore = domainOf(model.previous as never, 'overall');
    expect(changes).toContain(formatScore(overallBefore?.health_score));
    expect(changes).toContain(formatAge(overallBefore?.health_age));
    const methods = flat(pages.find((p) => p.includes('Methods and sources')) ?? '');
    for (const m of model.methods) expect(methods).toContain(m.name);
    expect(methods).toContain('Levine');
  });

  it("shows PREVENT's 10-year total CVD, ASCVD and heart-failure risks, and on Methods each domain's model", async () => {
    const { model, pages } = await render('full-three-events');
    const summary = flat(pages[0] ?? '');
    const risks = preventRisks(model.latest);
    expect(risks.map((r) => r.outcome)).toEqual(['totalCvd', 'ascvd', 'heartFailure']);
    expect(summary).toContain('Cardiovascular risk by outcome (AHA PREVENT equations)');
    for (const r of risks) expect(summary).toContain(`${r.label} ${formatPercent(r.risk10y)}`);
    expect(summary).toContain('PREVENT (total CVD)');
    const methods = flat(pages.filter((p) => p.includes('Methods')).join(' '));
    expect(methods).toContain('The model behind each domain');
    for (const d of model.latest.domains) expect(methods).toContain(flat(d.model_reason));
    expect(methods).toContain('Khan SS, Matsushita K, Sang Y');
    expect(methods).toContain('Stern MP, Williams K, Haffner SM');
  });

  it('lists every biomarker with its latest value on the biomarker page', async () => {
    const { model, pages } = await render('full-series-20');
    const table = flat(pages.filter((p) => p.includes('biomarkers')).join(' '));
    for (const row of model.biomarkers) {
      expect(table).toContain(row.label);
      expect(table).toContain(formatValue(row.latest));
    }
  });
});

describe.skipIf(hasPdftoppm())('pdftoppm', () => {
  it('is missing: page rasterisation is skipped (install poppler-utils to run it)', () => {
    expect(hasPdftoppm()).toBe(false);
  });
});

describe('render pool', () => {
  it('renders in worker threads the same bytes as inline', async () => {
    const pool = new RenderPool(2);
    try {
      const { model, pdf } = await render('condensed-one-event');
      const full = await render('full-three-events');
      const [a, b] = await Promise.all([pool.render(model), pool.render(full.model)]);
      expect(a.equals(pdf)).toBe(true);
      expect(b.equals(full.pdf)).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('renders a model given as its .report.json text the same bytes as the model itself', async () => {
    // A job writing <name>.report.json hands the thread that text instead of the model (handler.ts).
    const pool = new RenderPool(2);
    try {
      for (const name of fixtureNames()) {
        const { model, pdf } = await render(name);
        const text = JSON.stringify(model, null, 2);
        expect(JSON.parse(text)).toStrictEqual(model);
        const [threaded, inline] = await Promise.all([pool.render(text), renderInline(text)]);
        expect(threaded.equals(pdf), name).toBe(true);
        expect(inline.equals(pdf), name).toBe(true);
      }
    } finally {
      await pool.close();
    }
  });

  it('renders from the .ts sources through tsx when the suite gives no bundle', async () => {
    // The suite runs threads from a bundle of these sources (test/support/worker-bundles.ts); `tsx` and
    // `npm run bench` run them as here.
    const bundles = process.env.ASSAY_TEST_WORKER_BUNDLES;
    delete process.env.ASSAY_TEST_WORKER_BUNDLES;
    const pool = new RenderPool(1);
    try {
      const { model, pdf } = await render('condensed-one-event');
      expect((await pool.render(model)).equals(pdf)).toBe(true);
    } finally {
      if (bundles !== undefined) process.env.ASSAY_TEST_WORKER_BUNDLES = bundles;
      await pool.close();
    }
  });

  it("renders the largest fixture, 20 events, within the threads' heap limits, again and again", async () => {
    const pool = new RenderPool(1);
    try {
      const { model, pdf } = await render('full-series-20');
      for (let i = 0; i < 5; i++) expect((await pool.render(model)).equals(pdf)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
