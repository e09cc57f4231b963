/**
 * The report's closing notice on a real pdfkit document, placed where the methods end: boxed where the page
 * has room, a line beside the scoring version where it has not (a real two-visit history's report put the
 * box alone on a sixth page), and on a new page only when not even that line fits.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../src/report/model/model.js';
import { addPage, createDocument, spaceLeft, toBuffer } from '../../src/report/pdf/layout.js';
import { drawClosing } from '../../src/report/pdf/methods-page.js';
import { FOOTER_Y } from '../../src/report/pdf/theme.js';
import { fixtureRequest } from './support/fixtures.js';
import { pageTexts } from './support/pdf.js';

const first = fixtureRequest('full-required-only');
const model = buildReportModel(first.request, 'full');

/** Pages of a document whose methods end with `left` points above the footer's margin. */
async function closedWith(left: number): Promise<string[]> {
  const doc = createDocument(model, 'test');
  addPage(doc, model, 'Methods');
  doc.y = FOOTER_Y - 14 - left;
  expect(spaceLeft(doc)).toBeCloseTo(left);
  drawClosing(doc, model);
  return (await pageTexts(await toBuffer(doc))).map((t) => t.replace(/\s+/g, ' '));
}

describe('the closing notice', () => {
  it('is boxed where the page has room', async () => {
    const pages = await closedWith(200);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Discuss your results with a qualified health professional');
  });

  it('is a line beside the scoring version where the box does not fit, never a page of its own', async () => {
    const pages = await closedWith(40);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Not medical advice: see page 1.');
    expect(pages[0]).toContain(`Scoring version ${model.scoring_version}`);
  });

  it('goes onto a new page, boxed, only when not even that line fits', async () => {
    const pages = await closedWith(4);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('Discuss your results with a qualified health professional');
  });
});
