/**
 * The real-report bench's scanned copies (`bench real --as-scans`): a text PDF printed as page images the
 * pipeline must OCR, each page its own size, the same bytes from the same name and grade.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanCopy } from '../../bench/support/scan-copy.js';
import { extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { drawPdf } from '../lab/support/draw-pdf.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-scan-copy-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pdfinfo's page sizes, in points. */
function pageSizes(pdf: Uint8Array): string[] {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '9', file], { encoding: 'utf8' });
  return [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map(
    ([, w, h]) => `${Math.round(Number(w))}x${Math.round(Number(h))}`,
  );
}

describe('scanCopy', () => {
  it('prints every page as an image of its own size, with no text left to read, the same each time', async () => {
    const text = await drawPdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      doc.text('Hemoglobin   14.2   g/dL   13.0 - 17.0', 40, 80);
      doc.addPage({ size: 'A4' });
      doc.text('Platelet Count   250   10^3/uL   150 - 400', 40, 80);
    });
    expect(pageSizes(text)).toEqual(['612x792', '595x842']);
    const scan = await scanCopy(text, 'report-1', 'noisy-200');
    expect(pageSizes(scan)).toEqual(['612x792', '595x842']);
    const layout = await extractLayout(scan);
    expect(layout.pages.map((page) => page.items.length)).toEqual([0, 0]);
    expect(Buffer.from(await scanCopy(text, 'report-1', 'noisy-200')).equals(Buffer.from(scan))).toBe(true);
    expect(Buffer.from(await scanCopy(text, 'report-2', 'noisy-200')).equals(Buffer.from(scan))).toBe(false);
  });
});
