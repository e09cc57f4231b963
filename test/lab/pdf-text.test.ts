import { describe, expect, it } from 'vitest';
import { InvalidPdfError } from '../../src/lab/pipeline/errors.js';
import type { Line } from '../../src/lab/pipeline/pdf/layout.js';
import { extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { expectedExtraction, fixture, manifest, pdfBytes, phiOf } from './fixture-files.js';

const readable = manifest().filter((e) => e.pages !== null);

function result(name: string, panelName: string, biomarker: string) {
  const panel = expectedExtraction(name).panels.find((p) => p.panelName === panelName);
  const found = panel?.panelResults.find((r) => r.biomarker === biomarker);
  if (!found) throw new Error(`${name}: no ${biomarker} in ${panelName}`);
  return found;
}

function lineStarting(lines: readonly Line[], first: string): Line {
  const line = lines.find((l) => l.cells[0]?.text === first);
  if (!line) throw new Error(`no line starting with ${first}`);
  return line;
}

async function invalidPdf(bytes: Uint8Array): Promise<InvalidPdfError> {
  const error = await extractLayout(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidPdfError);
  return error as InvalidPdfError;
}

describe('extractLayout', () => {
  it.each(readable.map((e) => [e.name, e.pages] as const))('%s has %i page(s)', async (name, pages) => {
    const layout = await extractLayout(pdfBytes(name));
    expect(layout.pages.map((p) => p.pageNumber)).toEqual(
      Array.from({ length: pages ?? 0 }, (_, i) => i + 1),
    );
    expect(layout.pages[0]).toMatchObject({ width: 612, height: 792 });
  });

  it('rebuilds a Quest glucose row with its cells in column order', async () => {
    const layout = await extractLayout(pdfBytes('quest-cmp-lipid'));
    const lines = layout.pages[0]?.lines ?? [];
    const glucose = result('quest-cmp-lipid', 'COMPREHENSIVE METABOLIC PANEL', 'GLUCOSE');
    const row = lineStarting(lines, 'GLUCOSE');
    expect(row.cells.map((c) => c.text)).toEqual([
      'GLUCOSE',
      glucose.resultValue,
      '65-99 mg/dL',
      expect.any(String),
    ]);
    expect(row.cells.map((c) => c.x)).toEqual([...row.cells.map((c) => c.x)].sort((a, b) => a - b));
    const header = lineStarting(lines, 'Test Name');
    expect(header.cells.map((c) => c.text)).toEqual([
      'Test Name',
      'In Range',
      'Out Of Range',
      'Reference Range',
      'Lab',
    ]);
    // The value sits under the In Range heading.
    expect(row.cells[1]?.x).toBe(header.cells[1]?.x);
  });

  it('rebuilds a Labcorp glucose row: name with lab code, result, previous result and date, units, range', async () => {
    const layout = await extractLayout(pdfBytes('labcorp-cmp-lipid'));
    const lines = layout.pages[0]?.lines ?? [];
    const glucose = result('labcorp-cmp-lipid', 'Comp. Metabolic Panel (14)', 'Glucose');
    const row = lineStarting(lines, 'Glucose 01');
    const texts = row.cells.map((c) => c.text);
    expect(texts[1]).toBe(glucose.resultValue);
    expect(texts.slice(-2)).toEqual(['mg/dL', '70-99']);
    const header = lineStarting(lines, 'Test');
    expect(header.cells.map((c) => c.text)).toEqual([
      'Test',
      'Current Result and Flag',
      'Previous Result and Date',
      'Units',
      'Reference Interval',
    ]);
  });

  it('keeps the collection date line readable', async () => {
    const layout = await extractLayout(pdfBytes('quest-cmp-lipid'));
    const text = layout.pages[0]?.lines.map((l) => l.text).join('\n') ?? '';
    expect(text).toContain('Collected: 03/14/2025');
  });

  it.each(['quest-annual-male', 'labcorp-annual-female'])(
    '%s: wrapped test names continue on the next line',
    async (name) => {
      const layout = await extractLayout(pdfBytes(name));
      const lines = layout.pages.flatMap((p) => p.lines);
      const wrapped = fixture(name).wrappedNames ?? [];
      expect(wrapped.length).toBeGreaterThan(0);
      for (const testName of wrapped) {
        const joined = lines.slice(0, -1).map((line, i) => {
          const next = lines[i + 1];
          const first = line.cells[0]?.text ?? '';
          const rest = next?.cells.length === 1 ? (next.cells[0]?.text ?? '') : '';
          // Labcorp's performing-lab code follows the last line of the name.
          return `${first} ${rest}`.replace(/ 01$/, '');
        });
        expect(joined).toContain(testName);
      }
    },
  );

  it('reports no text layer for a scanned report', async () => {
    const layout = await extractLayout(pdfBytes('scanned-no-text'));
    expect(layout.hasTextLayer).toBe(false);
    expect(layout.pages).toHaveLength(1);
    expect(layout.pages[0]?.items).toEqual([]);
  });

  it('reports a text layer for a normal report', async () => {
    expect((await extractLayout(pdfBytes('labcorp-a1c-thyroid-lipid'))).hasTextLayer).toBe(true);
  });

  it('throws invalid_pdf for a truncated file, with a message free of document text', async () => {
    const error = await invalidPdf(pdfBytes('corrupt-truncated'));
    expect(error.code).toBe('invalid_pdf');
    expect(error.reason).toBe('malformed');
    for (const value of phiOf('corrupt-truncated')) expect(error.message).not.toContain(value);
    expect(error.message).not.toMatch(/\d/);
  });

  it('throws invalid_pdf for empty input and for bytes that are not a PDF', async () => {
    expect((await invalidPdf(new Uint8Array())).reason).toBe('empty');
    expect((await invalidPdf(new TextEncoder().encode('GLUCOSE 89 mg/dL'))).reason).toBe('not_a_pdf');
  });

  it('leaves the caller’s bytes untouched', async () => {
    const bytes = pdfBytes('labcorp-a1c-thyroid-lipid');
    const copy = bytes.slice();
    await extractLayout(bytes);
    expect(bytes).toEqual(copy);
  });
});

describe('characters as printed', () => {
  it('keeps the micro sign of a unit (pdf.js NFKC would make it Greek mu) and a printed Greek mu', async () => {
    const { drawPdf } = await import('./support/draw-pdf.js');
    const bytes = await drawPdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Iron  95  \u00b5g/dL', 36, 60, { lineBreak: false });
      doc.font('Helvetica').text('non\u00a0breaking', 36, 80, { lineBreak: false });
    });
    const text = (await extractLayout(bytes)).pages[0]?.items.map((item) => item.str).join(' ') ?? '';
    expect(text).toContain('\u00b5g/dL');
    expect(text).not.toContain('\u03bc');
    // The rest of pdf.js's normalisation stands: a no-break space reads as a space.
    expect(text).toContain('non breaking');
  });
});
