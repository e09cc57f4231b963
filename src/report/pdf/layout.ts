import type { ReportModel } from '../model/model.js';
import { formatDate } from './format.js';
import PDFDocument from './pdfkit.js';
import { COLOR, CONTENT_WIDTH, FONT, FOOTER_Y, PAGE, SIZE } from './theme.js';

export type Doc = PDFKit.PDFDocument;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const NOT_ADVICE =
  'This report is not medical advice or a clinical diagnosis. Discuss your results with a qualified health professional.';

/**
 * A new report document. CreationDate and ModDate come from the request's event_asof_dtutc, and the file ID
 * pdfkit derives from them, so the same request always renders the same bytes.
 */
export function createDocument(model: ReportModel, title: string): Doc {
  const date = new Date(model.asof);
  return new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    bufferPages: true,
    autoFirstPage: false,
    compress: true,
    info: {
      Title: title,
      Subject: 'Health scores, health ages and risk ratios by health domain',
      Creator: 'assay',
      Producer: 'assay (pdfkit)',
      CreationDate: date,
      ModDate: date,
    },
  });
}

/** Collect the document's bytes; resolves once pdfkit has written the trailer. */
export function toBuffer(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** A continuation page: a slim running header, the cursor placed below it. */
export function addPage(doc: Doc, model: ReportModel, section: string): void {
  doc.addPage();
  doc.rect(0, 0, PAGE.width, 6).fill(COLOR.brand);
  doc
    .font(FONT.bold)
    .fontSize(SIZE.small)
    .fillColor(COLOR.brand)
    .text('Health report', PAGE.margin, 22, { lineBreak: false });
  doc
    .font(FONT.regular)
    .fillColor(COLOR.muted)
    .text(`${section}  ·  as of ${formatDate(model.asof)}`, PAGE.margin, 22, {
      width: CONTENT_WIDTH,
      align: 'right',
      lineBreak: false,
    });
  doc
    .moveTo(PAGE.margin, 36)
    .lineTo(PAGE.width - PAGE.margin, 36)
    .lineWidth(0.5)
    .stroke(COLOR.rule);
  doc.x = PAGE.margin;
  doc.y = 52;
}

export function sectionTitle(doc: Doc, title: string, subtitle?: string): void {
  doc.font(FONT.bold).fontSize(SIZE.heading).fillColor(COLOR.ink).text(title, PAGE.margin, doc.y);
  if (subtitle) {
    doc.moveDown(0.15).font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.muted).text(subtitle);
  }
  doc.moveDown(0.6);
}

/** Room left above the footer. */
export function spaceLeft(doc: Doc): number {
  return FOOTER_Y - 14 - doc.y;
}

/**
 * Footers on every page once all pages exist, so "Page n of N" knows N. The bottom margin is lifted while
 * writing: text below it would otherwise make pdfkit start a new page.
 */
export function drawFooters(doc: Doc, note: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.moveTo(PAGE.margin, FOOTER_Y - 6).lineTo(PAGE.width - PAGE.margin, FOOTER_Y - 6);
    doc.lineWidth(0.5).stroke(COLOR.rule);
    doc
      .font(FONT.regular)
      .fontSize(SIZE.tiny)
      .fillColor(COLOR.muted)
      .text(note, PAGE.margin, FOOTER_Y, { width: CONTENT_WIDTH - 70, lineBreak: false, height: 10 });
    doc.font(FONT.bold).text(`Page ${i + 1 - range.start} of ${range.count}`, PAGE.margin, FOOTER_Y, {
      width: CONTENT_WIDTH,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** Text in a fixed box, truncated with an ellipsis rather than spilling into the next element. */
export function boxedText(
  doc: Doc,
  text: string,
  box: Box,
  opts: { font?: string; size?: number; color?: string; align?: 'left' | 'center' | 'right' } = {},
): void {
  doc
    .font(opts.font ?? FONT.regular)
    .fontSize(opts.size ?? SIZE.body)
    .fillColor(opts.color ?? COLOR.ink)
    .text(text, box.x, box.y, {
      width: box.w,
      height: box.h,
      ellipsis: true,
      align: opts.align ?? 'left',
    });
}
