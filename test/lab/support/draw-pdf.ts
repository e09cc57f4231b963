import PDFDocument from 'pdfkit';

/** Drawing instructions for one synthetic page, in PDF points. */
export type Draw = (doc: PDFKit.PDFDocument) => void;

/** A real PDF drawn with pdfkit: the synthetic look-alikes tests parse instead of real reports. */
export function drawPdf(draw: Draw, size: 'LETTER' | 'A4' = 'LETTER'): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size, margin: 36, info: { CreationDate: new Date(0) } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

/** One printed line: each cell's text at its x, on baseline y. */
export function drawRow(doc: PDFKit.PDFDocument, y: number, cells: Array<[number, string]>): void {
  for (const [x, text] of cells) doc.text(text, x, y, { lineBreak: false });
}

/** A Labcorp report page: the vendor only in its copyright footer, as on the genuine ones. */
export function labcorpPage(doc: PDFKit.PDFDocument, body: Draw): void {
  doc.font('Helvetica').fontSize(9);
  drawRow(doc, 60, [[36, 'Patient Report']]);
  drawRow(doc, 80, [[36, 'Date Collected: 03/14/2025']]);
  body(doc);
  drawRow(doc, 740, [[36, '©2025 Laboratory Corporation of America® Holdings']]);
}
