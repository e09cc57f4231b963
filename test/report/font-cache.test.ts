import { afterAll, describe, expect, it } from 'vitest';
import { buildReportModel } from '../../src/report/model/model.js';
import { shareStandardFontMetrics, stopSharingStandardFontMetrics } from '../../src/report/pdf/font-cache.js';
import { renderReport } from '../../src/report/pdf/render.js';
import { fixtureNames, fixtureRequest } from './support/fixtures.js';

/** Standard-font metrics shared across renders (font-cache.ts) change nothing in the bytes. */
describe('shared standard-font metrics', () => {
  afterAll(() => {
    shareStandardFontMetrics();
  });

  it('are in use wherever reports render (render.ts turns them on)', () => {
    expect(shareStandardFontMetrics()).toBe(true);
  });

  it.each(fixtureNames())(
    '%s: the same bytes as with pdfkit building the fonts for each report',
    async (name) => {
      const { request, variant } = fixtureRequest(name);
      for (const v of new Set([variant, variant === 'full' ? 'condensed' : 'full'] as const)) {
        const model = buildReportModel(request, v);
        stopSharingStandardFontMetrics();
        const own = await renderReport(model);
        expect(shareStandardFontMetrics()).toBe(true);
        const shared = [await renderReport(model), await renderReport(model)];
        expect(shared[0]?.equals(own), `${name} ${v}`).toBe(true);
        expect(shared[1]?.equals(own), `${name} ${v} again`).toBe(true);
      }
    },
  );

  it('measure every character pair as pdfkit does, and leave other fonts and registered ones to pdfkit', async () => {
    // The PDFDocument the renderers use (pdfkit.ts), whose font() font-cache.ts wraps.
    const { default: PDFDocument } = await import('../../src/report/pdf/pdfkit.js');
    const text = Array.from({ length: 224 }, (_, i) => String.fromCharCode(32 + i)).join('');
    const pairs = Array.from(text, (a) => Array.from(text, (b) => a + b).join(' ')).join(' ');
    const measure = () => {
      const doc = new PDFDocument({ autoFirstPage: false });
      doc.registerFont('Body', 'Times-Roman');
      const widths = ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Body', 'Courier'].map((font) =>
        doc.font(font).widthOfString(pairs),
      );
      doc.font('Courier', 9).font('Helvetica-Bold', 'Helvetica-Bold', 7);
      const families = (doc as unknown as { _fontFamilies: Record<string, { id: string; name: string }> })
        ._fontFamilies;
      return { widths, fonts: Object.entries(families).map(([k, f]) => `${k}=${f.id} ${f.name}`) };
    };
    stopSharingStandardFontMetrics();
    const own = measure();
    shareStandardFontMetrics();
    expect(measure()).toEqual(own);
    expect(own.fonts).toEqual([
      'Helvetica=F1 Helvetica',
      'Helvetica-Bold=F2 Helvetica-Bold',
      'Helvetica-Oblique=F3 Helvetica-Oblique',
      'Body=F4 Times-Roman',
      'Times-Roman=F4 Times-Roman',
      'Courier=F5 Courier',
    ]);
  });
});
