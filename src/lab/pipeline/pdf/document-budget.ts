import { constants, createInflate } from 'node:zlib';
import { AssayError, EXIT } from '../../../errors.js';

/**
 * What one document may cost to read. A 2 MB PDF whose one stream inflates to 2 GB took the process to
 * 4.3 GB; pdf.js keeps every decoded stream whole, so the budget is checked before pdf.js sees the file.
 */
export interface DocumentBudget {
  /** Bytes all FlateDecode streams may inflate to, together. */
  maxInflatedBytes: number;
  maxPages: number;
}

const fromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/** 256 MB inflated is some fifty times a large scanned report; 2,000 pages is more than any lab report. */
export function budgetFromEnv(): DocumentBudget {
  return {
    maxInflatedBytes: fromEnv('ASSAY_MAX_INFLATED_BYTES', 256 * 1024 * 1024),
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

const STREAM = Buffer.from('stream');
const DICT_WINDOW = 2048;

/**
 * Inflate every FlateDecode stream (a zlib header after the `stream` keyword, /FlateDecode in the
 * dictionary before it) and count what comes out, keeping nothing: the document's inflated size is known
 * while memory never holds more than zlib's window and one output chunk, and counting stops as soon as
 * the budget is spent. A stream that does not inflate (damaged, or another filter first) is left to pdf.js.
 */
export async function checkInflatedSize(pdf: Uint8Array, maxBytes: number): Promise<void> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let remaining = maxBytes;
  for (let at = bytes.indexOf(STREAM); at !== -1; at = bytes.indexOf(STREAM, at + STREAM.length)) {
    // `endstream` contains `stream`: skip it.
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (bytes[start] === 0x0d) start += 1;
    if (bytes[start] === 0x0a) start += 1;
    if (bytes[start] !== 0x78) continue; // not a zlib header
    const dict = bytes.toString('latin1', Math.max(0, at - DICT_WINDOW), at);
    if (!dict.slice(dict.lastIndexOf('<<')).includes('/FlateDecode')) continue;
    remaining -= await inflatedSize(bytes.subarray(start), remaining + 1);
    if (remaining < 0) throw new DocumentTooComplexError();
  }
}

/** How many bytes `data` inflates to, counting no further than `limit`; 0 when it does not inflate. */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let total = 0;
    // A stream cut short still counts what it inflated to.
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total >= limit) {
        inflate.destroy();
        resolve(total);
      }
    });
    inflate.on('end', () => resolve(total));
    inflate.on('error', () => resolve(total));
    inflate.on('close', () => resolve(total));
    inflate.end(data);
  });
}
