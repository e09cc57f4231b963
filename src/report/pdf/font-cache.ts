/**
 * Standard-font metrics built once per thread instead of once per report.
 *
 * pdfkit builds a new AFMFont (a standard font's widths and kerning pairs, thousands of string keys) each
 * time a document first uses a standard font: four times per report (Helvetica when the document is
 * created, then bold and oblique), and looks kerning up by a string made for every pair of glyphs. pdfkit
 * has no option to share them (its layout cache is for embedded fonts only), so `shareStandardFontMetrics`
 * wraps `PDFDocument.prototype.font` for one case: a standard font by its own name, first used in a
 * document. There it does what pdfkit does (the next font id, the document's font cache) but gives the
 * document's font the metrics this thread built the first time, with the same values in Maps. Every other
 * call is pdfkit's own. The metrics are read-only once built and the per-document state (the font's id and
 * PDF object) stays per document, so the bytes are the same (test/report/font-cache.test.ts renders every
 * fixture both ways).
 */
import PDFDocument from './pdfkit.js';

/** pdfkit's AFMFont, as much of it as is used here. */
interface Metrics {
  glyphWidths: Record<string, number>;
  kernPairs: Record<string, number>;
  ascender: number;
  descender: number;
  bbox: number[];
  lineGap: number;
  xHeight: number;
  capHeight: number;
  widthOfGlyph(glyph: string): number;
  getKernPair(left: string, right: string | undefined): number;
  advancesForGlyphs(glyphs: string[]): number[];
}

/** pdfkit's StandardFont: the per-document font object. */
interface StandardFont {
  document: unknown;
  name: string;
  id: string;
  font: Metrics;
}

/** The document's font state (pdfkit's FontsMixin). */
interface FontState {
  _fontFamilies: Record<string, StandardFont>;
  _registeredFonts: Record<string, unknown>;
  _fontCount: number;
  _fontSource: unknown;
  _fontFamily: unknown;
  _font: StandardFont;
  fontSize(size: number | string): unknown;
}

type FontMethod = (this: FontState, src: unknown, family?: unknown, size?: unknown) => unknown;

/** PDF's 14 standard fonts, whose metrics pdfkit carries. */
const STANDARD = new Set([
  'Courier',
  'Courier-Bold',
  'Courier-BoldOblique',
  'Courier-Oblique',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-BoldOblique',
  'Helvetica-Oblique',
  'Symbol',
  'Times-Bold',
  'Times-BoldItalic',
  'Times-Italic',
  'Times-Roman',
  'ZapfDingbats',
]);

const proto = PDFDocument.prototype as unknown as { font: FontMethod };
const pdfkitFont = proto.font;
let installed = false;
/** One document, never written, whose fonts this thread's metrics are taken from. */
let probe: FontState | undefined;
const shared = new Map<string, { metrics: Metrics; prototype: object }>();

/**
 * The font pdfkit itself builds for `name`, built once per thread, its lookups made Map reads with the
 * same values and the same arithmetic: a width plus the kerning with the next glyph, 0 where pdfkit's
 * objects have no entry.
 */
function metricsFor(name: string): { metrics: Metrics; prototype: object } {
  const known = shared.get(name);
  if (known) return known;
  probe ??= new PDFDocument({ autoFirstPage: false }) as unknown as FontState;
  pdfkitFont.call(probe, name);
  const metrics = probe._font.font;
  const widths = new Map(Object.entries(metrics.glyphWidths));
  const kerns = new Map<string, Map<string, number>>();
  for (const [pair, amount] of Object.entries(metrics.kernPairs)) {
    const [left = '', right = ''] = pair.split('\0');
    const row = kerns.get(left) ?? new Map<string, number>();
    row.set(right, amount);
    kerns.set(left, row);
  }
  const width = (glyph: string) => widths.get(glyph) || 0;
  const kern = (left: string, right: string | undefined) =>
    right === undefined ? 0 : kerns.get(left)?.get(right) || 0;
  metrics.widthOfGlyph = width;
  metrics.getKernPair = kern;
  metrics.advancesForGlyphs = (glyphs) => {
    const advances: number[] = [];
    for (let i = 0; i < glyphs.length; i++) {
      const left = glyphs[i] as string;
      advances.push(width(left) + kern(left, glyphs[i + 1]));
    }
    return advances;
  };
  const entry = { metrics, prototype: Object.getPrototypeOf(probe._font) as object };
  shared.set(name, entry);
  return entry;
}

/** pdfkit's StandardFont for `document`, as its constructor makes it, over the shared metrics. */
function standardFont(document: unknown, name: string, id: string): StandardFont {
  const { metrics, prototype } = metricsFor(name);
  const font = Object.create(prototype) as StandardFont & Record<string, unknown>;
  font.document = document;
  font.name = name;
  font.id = id;
  font.font = metrics;
  font.ascender = metrics.ascender;
  font.descender = metrics.descender;
  font.bbox = metrics.bbox;
  font.lineGap = metrics.lineGap;
  font.xHeight = metrics.xHeight;
  font.capHeight = metrics.capHeight;
  return font;
}

/** `doc.font(...)`: a standard font by its own name, first used in this document, over shared metrics. */
const sharingFont: FontMethod = function (this: FontState, src, family, size) {
  const byName =
    typeof src === 'string' &&
    STANDARD.has(src) &&
    (family == null || typeof family === 'number') &&
    !this._registeredFonts?.[src] &&
    !this._fontFamilies?.[src];
  if (!byName) return pdfkitFont.call(this, src, family, size);
  // pdfkit's font() for this case: the size given as second or third argument, the next id, one cache entry.
  const fontSize = typeof family === 'number' ? family : size;
  this._fontSource = src;
  this._fontFamily = typeof family === 'number' ? null : family;
  if (fontSize != null) this.fontSize(fontSize as number);
  this._font = standardFont(this, src, `F${++this._fontCount}`);
  this._fontFamilies[src] = this._font;
  return this;
};

/**
 * From now on, documents in this thread share standard-font metrics. Checks first that pdfkit's fonts are
 * still shaped as this module expects (same fields, same values as pdfkit's own); if not, leaves pdfkit as
 * it is and returns false.
 */
export function shareStandardFontMetrics(): boolean {
  if (installed) return true;
  try {
    const own = new PDFDocument({ autoFirstPage: false }) as unknown as FontState;
    pdfkitFont.call(own, 'Helvetica-Bold');
    const theirs = own._font as unknown as Record<string, unknown>;
    const ours = standardFont(own, 'Helvetica-Bold', theirs.id as string) as unknown as Record<
      string,
      unknown
    >;
    const keys = Object.keys(theirs);
    const same =
      keys.join() === Object.keys(ours).join() &&
      keys.every(
        (k) => k === 'font' || theirs[k] === ours[k] || (k === 'bbox' && `${theirs[k]}` === `${ours[k]}`),
      ) &&
      typeof (theirs.font as Metrics).getKernPair === 'function' &&
      Object.getPrototypeOf(theirs) === Object.getPrototypeOf(ours);
    if (!same) return false;
  } catch {
    return false;
  }
  proto.font = sharingFont;
  installed = true;
  return true;
}

/** Back to pdfkit's own font(), for the test that renders both ways. */
export function stopSharingStandardFontMetrics(): void {
  proto.font = pdfkitFont;
  installed = false;
}
