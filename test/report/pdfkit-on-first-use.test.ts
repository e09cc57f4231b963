import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import PDFDocument from '../../src/report/pdf/pdfkit.js';

/** A font file that ships with a dependency (pdf.js's standard-font substitutes). */
const FONT = join(
  dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts',
  'LiberationSans-Regular.ttf',
);

type Options = ConstructorParameters<typeof PDFDocument>[0];

/** A document with fixed dates (pdfkit's ID comes from them), drawn by `draw`, as bytes. */
function pdf(
  Doc: typeof PDFDocument,
  options: Options,
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  const date = new Date('2024-01-02T03:04:05Z');
  const doc = new Doc({ ...options, info: { CreationDate: date, ModDate: date } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  draw(doc);
  doc.end();
  return ended;
}

/**
 * pdfkit as the renderers load it (src/report/pdf/pdfkit.ts: the CommonJS build, fontkit and AES loaded on
 * first use) makes what pdfkit's own ES module build makes, including for what needs the deferred ones.
 */
describe('pdfkit with fontkit and AES loaded on first use', () => {
  const own = async () => (await import('pdfkit')).default as typeof PDFDocument;

  it('embeds a TrueType font file byte for byte as pdfkit itself does', async () => {
    const draw = (doc: PDFKit.PDFDocument) => {
      doc.font(FONT).fontSize(14).text('Embedded: Liberation Sans, kerning AV To Wa.', 72, 72);
      doc.font('Helvetica').text('And a standard font beside it.');
    };
    const ours = await pdf(PDFDocument, {}, draw);
    expect(ours.includes('/FontFile2')).toBe(true);
    expect(ours.equals(await pdf(await own(), {}, draw))).toBe(true);
  });

  it('encrypts with AES-256 when asked, as pdfkit itself does', async () => {
    const options: Options = { userPassword: 'secret', pdfVersion: '1.7ext3' };
    const draw = (doc: PDFKit.PDFDocument) => {
      doc.text('Encrypted.');
    };
    const ours = await pdf(PDFDocument, options, draw);
    const theirs = await pdf(await own(), options, draw);
    // AES-256 (AESV3, PDF 1.7 extension level 3): /OE and /UE are the file key encrypted with AES, which only AES can make.
    // Its keys and IVs are random, so the bytes differ run to run; what the document declares does not.
    for (const bytes of [ours, theirs])
      for (const entry of ['/Encrypt', '/AESV3', '/OE <', '/UE <'])
        expect(bytes.includes(entry), entry).toBe(true);
  });
});
