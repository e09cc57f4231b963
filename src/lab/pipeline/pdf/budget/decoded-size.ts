import { Readable, type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createInflateRaw, inflateRawSync } from 'node:zlib';
import { decoderFor, inflatesAsPdfJs } from './decoders.js';
import type { PdfValue } from './pdf-objects.js';

export interface FilterChain {
  /** Names in the order pdf.js applies them; undefined where a name could not be resolved. */
  filters: (string | undefined)[];
  params: (PdfValue | undefined)[];
}

/** Small pieces, so that no decoder turns one input chunk into more than a few megabytes at once. */
const PIECE = 4096;
/** What a filter pdf.js would name but this file could not resolve is tried as: the ones that expand. */
const GUESSES = ['FlateDecode', 'LZWDecode', 'RunLengthDecode'];

class OverLimit extends Error {}

/**
 * How many bytes `data` decodes to through `chain`, counting no further than `limit` (a result above
 * `limit` means "more"). Nothing decoded is kept. Where a decoder fails, what it produced so far counts:
 * pdf.js stops at the same point. Image codecs end the count at their input, which pdf.js sizes itself.
 */
export async function decodedSize(data: Buffer, chain: FilterChain, limit: number): Promise<number> {
  if (isFlateOnly(chain)) return flateSize(data, limit);
  const stages: Transform[] = [];
  for (const [i, name] of chain.filters.entries()) {
    if (name === undefined) return guessedSize(data, chain, i, limit);
    const decoder = decoderFor(name, chain.params[i]);
    if (decoder === 'opaque') break;
    // A filter pdf.js does not know passes the bytes through unchanged.
    if (decoder) stages.push(decoder);
  }
  if (stages.length === 0) return data.length;
  let total = 0;
  const counter = new Writable({
    write(chunk: Buffer, _enc, done) {
      total += chunk.length;
      done(total > limit ? new OverLimit() : undefined);
    },
  });
  try {
    await pipeline([Readable.from(pieces(data)), ...stages, counter]);
  } catch {
    // Over the limit, or a decoder gave up on damaged data: either way `total` is what pdf.js would see.
  }
  return total;
}

const FLATE = new Set(['FlateDecode', 'Fl']);
const IMAGE_CODECS = new Set([
  'DCTDecode',
  'DCT',
  'JPXDecode',
  'JPX',
  'CCITTFaxDecode',
  'CCF',
  'JBIG2Decode',
]);

/** Flate alone, or before an image codec: nine streams in ten, worth a path without stream plumbing. */
function isFlateOnly(chain: FilterChain): boolean {
  const [first, second] = chain.filters;
  return (
    first !== undefined &&
    FLATE.has(first) &&
    (chain.filters.length === 1 || (chain.filters.length === 2 && IMAGE_CODECS.has(second ?? '')))
  );
}

/** Below this a stream is inflated in one call: at most 1,032 times its size, some 16 MB. */
const SMALL = 16 * 1024;

/**
 * What a Flate stream inflates to, as pdf.js inflates it (zlib header checked for method and FCHECK only,
 * the body raw, a cut stream counted as far as it goes), counting no further than `limit`.
 */
function flateSize(data: Buffer, limit: number): Promise<number> | number {
  const [cmf = 0, flg = 0] = data;
  if (data.length < 2 || !inflatesAsPdfJs(cmf, flg)) return 0;
  const body = data.subarray(2);
  if (body.length <= SMALL) {
    try {
      return inflateRawSync(body, { finishFlush: constants.Z_SYNC_FLUSH }).length;
    } catch {
      // Damaged data: the streaming path counts what came out before the damage.
    }
  }
  return new Promise((resolve) => {
    let total = 0;
    const inflate = createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
    const settle = () => resolve(total);
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        inflate.destroy();
        settle();
      }
    });
    inflate.on('end', settle);
    inflate.on('error', settle);
    inflate.on('close', settle);
    inflate.end(body);
  });
}

/** An unresolvable name in the chain: the largest of what the expanding filters make of the data. */
async function guessedSize(data: Buffer, chain: FilterChain, at: number, limit: number): Promise<number> {
  let largest = data.length;
  for (const name of GUESSES) {
    const filters = [...chain.filters];
    filters[at] = name;
    largest = Math.max(largest, await decodedSize(data, { filters, params: chain.params }, limit));
    if (largest > limit) break;
  }
  return largest;
}

function* pieces(data: Buffer): Generator<Buffer> {
  for (let at = 0; at < data.length; at += PIECE) yield data.subarray(at, at + PIECE);
}
