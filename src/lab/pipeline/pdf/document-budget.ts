import { AssayError, EXIT } from '../../../errors.js';
import { InvalidPdfError } from '../errors.js';
import { decodedSize } from './budget/decoded-size.js';
import { streamDecryptor } from './budget/decrypt.js';
import { nameOf, numberOf, type PdfValue } from './budget/pdf-objects.js';
import { filterChain, findStreams, ObjectIndex } from './budget/streams.js';

/**
 * What one document may cost to read. A 2 MB PDF whose one stream decodes to 2 GB took the process to
 * 4.3 GB: pdf.js keeps every decoded stream whole, outside the thread's heap limit, so the budget is
 * checked before pdf.js sees the file, whatever the filters.
 */
export interface DocumentBudget {
  /** Bytes the streams pdf.js keeps whole (page contents, fonts, forms) may decode to, together. */
  maxDecodedBytes: number;
  /** Bytes every image may decode to, together: drawn one page at a time, they cost time, not memory. */
  maxImageBytes: number;
  maxPages: number;
}

const MB = 1024 * 1024;

const fromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/**
 * 256 MB of contents and fonts is some fifty times a large text report. 2 GB of images is eighty pages of
 * lossless 300 dpi colour (25 MB a page). 2,000 pages is more than any lab report.
 */
export function budgetFromEnv(): DocumentBudget {
  return {
    maxDecodedBytes: fromEnv('ASSAY_MAX_INFLATED_BYTES', 256 * MB),
    maxImageBytes: fromEnv('ASSAY_MAX_IMAGE_BYTES', 2048 * MB),
    maxPages: fromEnv('ASSAY_MAX_PAGES', 2_000),
  };
}

export class DocumentTooComplexError extends AssayError {
  constructor() {
    super(
      'document_too_complex',
      'The PDF needs more memory or pages to read than one document may use; it was not processed.',
      {
        exitCode: EXIT.jobFailed,
        suggestions: ['Split the document, or export it again from the source system without embedded data.'],
      },
    );
  }
}

/**
 * Decode every stream through the filter chain pdf.js would apply and count what comes out, keeping
 * nothing, so the document's decoded size is known while memory holds a few kilobytes; counting stops as
 * soon as a budget is spent. An image may decode to twice what its dimensions need (row predictors, padding)
 * and no more: a "picture" whose data runs past that is a bomb dressed as one. An encrypted file's streams
 * are counted decrypted, as pdf.js decodes them, and as the largest of the readings pdf.js may take.
 */
export async function checkDecodedSize(pdf: Uint8Array, budget: DocumentBudget): Promise<void> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const objects = new ObjectIndex(bytes);
  // One walk of the file's streams, for the trailers the decryptor needs and for the count.
  const streams = [...findStreams(bytes, objects)];
  const decryptor = streamDecryptor(bytes, objects, streams);
  // pdf.js fails on these too (a password, a handler it lacks); refusing here leaves no reading unchecked.
  if (decryptor && !decryptor.readable) {
    throw new InvalidPdfError(
      decryptor.problem === 'password' ? 'password_protected' : 'malformed',
      'Encryption',
    );
  }
  let contents = budget.maxDecodedBytes;
  let images = budget.maxImageBytes;
  for (const stream of streams) {
    const stored = bytes.subarray(stream.start, stream.end);
    // Without its object header a stream's key and filters are unknown: in an encrypted file nothing can
    // be counted, elsewhere the expanding filters are tried on it.
    if (!stream.dict && decryptor) throw new DocumentTooComplexError();
    const dict = stream.dict ?? new Map<string, PdfValue>();
    const readings = decryptor?.readings(stream.num, stream.gen, dict, stored) ?? [stored];
    const chain = stream.dict ? filterChain(dict, objects) : { filters: [undefined], params: [undefined] };
    const declared = imageBytes(dict, objects);
    const limit = declared === undefined ? contents : Math.min(images, 2 * declared + MB);
    let size = 0;
    for (const data of readings) {
      if (size <= limit) size = Math.max(size, await decodedSize(data, chain, limit));
    }
    if (size > limit) throw new DocumentTooComplexError();
    if (declared === undefined) contents -= size;
    // What the page images become when drawn for OCR (as files on disk, too), whatever the data holds.
    else images -= Math.max(size, declared);
    if (images < 0) throw new DocumentTooComplexError();
  }
}

/** The bytes an image's dimensions call for, or undefined when the stream is not an image. */
function imageBytes(dict: Map<string, PdfValue>, objects: ObjectIndex): number | undefined {
  if (nameOf(objects.resolve(dict.get('Subtype'))) !== 'Image') return undefined;
  const width = numberOf(objects.resolve(dict.get('Width') ?? dict.get('W')));
  const height = numberOf(objects.resolve(dict.get('Height') ?? dict.get('H')));
  if (!width || !height || width < 0 || height < 0) return undefined;
  const mask = objects.resolve(dict.get('ImageMask') ?? dict.get('IM'));
  const isMask = mask?.kind === 'bool' && mask.value;
  const bits = isMask ? 1 : (numberOf(objects.resolve(dict.get('BitsPerComponent'))) ?? 8);
  const components = isMask ? 1 : colourComponents(objects.resolve(dict.get('ColorSpace')), objects);
  return Math.ceil((width * components * bits) / 8) * height;
}

const COMPONENTS: Record<string, number> = {
  DeviceGray: 1,
  G: 1,
  CalGray: 1,
  Indexed: 1,
  I: 1,
  Separation: 1,
  DeviceRGB: 3,
  RGB: 3,
  CalRGB: 3,
  Lab: 3,
  DeviceCMYK: 4,
  CMYK: 4,
};

/** Components per pixel; four (the most any colour space has) when the space cannot be told. */
function colourComponents(space: PdfValue | undefined, objects: ObjectIndex): number {
  const name =
    nameOf(space) ?? (space?.kind === 'array' ? nameOf(objects.resolve(space.items[0])) : undefined);
  if (name === 'ICCBased' && space?.kind === 'array') {
    const profile = objects.resolve(space.items[1]);
    const n = profile?.kind === 'dict' ? numberOf(objects.resolve(profile.entries.get('N'))) : undefined;
    if (n && n >= 1 && n <= 4) return n;
  }
  if (name === 'DeviceN' && space?.kind === 'array') {
    const names = objects.resolve(space.items[1]);
    if (names?.kind === 'array' && names.items.length > 0) return names.items.length;
  }
  return (name && COMPONENTS[name]) || 4;
}
