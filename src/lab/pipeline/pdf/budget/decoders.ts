import { Transform, type TransformCallback } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { PdfValue } from './pdf-objects.js';

/**
 * Streaming decoders for every filter pdf.js expands without bound, so a stream's decoded size can be
 * counted in a few kilobytes of memory. Image codecs (DCT, JPX, JBIG2, CCITT) are not here: pdf.js decodes
 * them only to draw a page, to the image's own dimensions, which `maxImageSize` caps.
 */
export type Decoder = Transform | 'opaque';

export function decoderFor(name: string, params: PdfValue | undefined): Decoder | undefined {
  switch (name) {
    case 'Fl':
    case 'FlateDecode':
      return new ZlibBody();
    case 'LZW':
    case 'LZWDecode':
      return new LzwDecoder(earlyChange(params));
    case 'A85':
    case 'ASCII85Decode':
      return new Ascii85Decoder();
    case 'AHx':
    case 'ASCIIHexDecode':
      return new AsciiHexDecoder();
    case 'RL':
    case 'RunLengthDecode':
      return new RunLengthDecoder();
    case 'DCT':
    case 'DCTDecode':
    case 'JPX':
    case 'JPXDecode':
    case 'CCF':
    case 'CCITTFaxDecode':
    case 'JBIG2Decode':
      return 'opaque';
    default:
      return undefined;
  }
}

function earlyChange(params: PdfValue | undefined): number {
  const value = params?.kind === 'dict' ? params.entries.get('EarlyChange') : undefined;
  return value?.kind === 'number' ? value.value : 1;
}

/** The zlib header pdf.js inflates after: method 8, check bits right, no preset dictionary; window ignored. */
export function inflatesAsPdfJs(cmf: number, flg: number): boolean {
  return (cmf & 0x0f) === 8 && ((cmf << 8) + flg) % 31 === 0 && (flg & 0x20) === 0;
}

/**
 * pdf.js checks only the method and check bits of a zlib header and ignores the window size and the
 * trailing checksum, so the body is inflated raw: a header zlib itself would refuse (a window past 32 KB)
 * still gets counted.
 */
class ZlibBody extends Transform {
  #header: number[] = [];
  #inflate?: ReturnType<typeof createInflateRaw>;
  // zlib ends at the deflate data's last block; the checksum and anything after it are not inflated.
  #ended = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let body = chunk;
    if (!this.#inflate) {
      while (this.#header.length < 2 && body.length > 0) {
        this.#header.push(body[0] as number);
        body = body.subarray(1);
      }
      if (this.#header.length < 2) {
        done();
        return;
      }
      const [cmf = 0, flg = 0] = this.#header;
      if (!inflatesAsPdfJs(cmf, flg)) {
        done(new Error('not a zlib stream pdf.js would inflate'));
        return;
      }
      this.#inflate = createInflateRaw({ finishFlush: 2 /* Z_SYNC_FLUSH: a cut stream still counts */ });
      this.#inflate.on('data', (out: Buffer) => this.push(out));
      this.#inflate.on('error', (error) => this.destroy(error));
      this.#inflate.on('end', () => {
        this.#ended = true;
      });
    }
    if (body.length === 0 || this.#ended) {
      done();
      return;
    }
    // Waiting for zlib to take each piece keeps at most one input chunk's output in flight.
    this.#inflate.write(body, () => done());
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.#inflate?.destroy();
    done(error);
  }

  override _flush(done: TransformCallback): void {
    if (!this.#inflate || this.#ended) {
      done();
      return;
    }
    this.#inflate.once('end', () => done());
    this.#inflate.end();
  }
}

/** LZW as PDF uses it: 9-12 bit codes, 256 clears, 257 ends, EarlyChange 1 unless the stream says 0. */
class LzwDecoder extends Transform {
  readonly #early: number;
  #bits = 0;
  #cached = 0;
  #codeLength = 9;
  #next = 258;
  #prev = -1;
  #ended = false;
  // Each entry is its previous code plus one byte; sequences are rebuilt by walking back.
  readonly #prefix = new Int32Array(4096);
  readonly #last = new Uint8Array(4096);
  readonly #first = new Uint8Array(4096);
  readonly #length = new Uint16Array(4096);
  readonly #scratch = new Uint8Array(4096);

  constructor(early: number) {
    super();
    this.#early = early;
    for (let i = 0; i < 256; i++) {
      this.#last[i] = i;
      this.#first[i] = i;
      this.#length[i] = 1;
      this.#prefix[i] = -1;
    }
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const out: Buffer[] = [];
    for (const byte of chunk) {
      if (this.#ended) break;
      this.#cached = ((this.#cached << 8) | byte) & 0xffffff;
      this.#bits += 8;
      while (this.#bits >= this.#codeLength && !this.#ended) {
        this.#bits -= this.#codeLength;
        const code = (this.#cached >>> this.#bits) & ((1 << this.#codeLength) - 1);
        const bytes = this.#code(code);
        if (bytes) out.push(bytes);
      }
    }
    if (out.length > 0) this.push(Buffer.concat(out));
    done();
  }

  #code(code: number): Buffer | undefined {
    if (code === 256) {
      this.#codeLength = 9;
      this.#next = 258;
      this.#prev = -1;
      return undefined;
    }
    if (code === 257) {
      this.#ended = true;
      return undefined;
    }
    let entry = code;
    if (code >= this.#next) {
      // The one code that may be used before it is defined: the previous sequence plus its first byte.
      if (this.#prev < 0 || code > this.#next) {
        this.#ended = true;
        return undefined;
      }
      entry = -1;
    }
    const out = entry >= 0 ? this.#sequence(entry) : this.#kwkwk();
    if (this.#prev >= 0 && this.#next < 4096) {
      this.#prefix[this.#next] = this.#prev;
      this.#last[this.#next] = out[0] as number;
      this.#first[this.#next] = this.#first[this.#prev] as number;
      this.#length[this.#next] = (this.#length[this.#prev] as number) + 1;
      this.#next++;
    }
    this.#prev = code;
    const width = this.#next + this.#early;
    this.#codeLength = width >= 2048 ? 12 : width >= 1024 ? 11 : width >= 512 ? 10 : 9;
    return out;
  }

  #sequence(code: number): Buffer {
    const length = this.#length[code] as number;
    let at = code;
    for (let i = length - 1; i >= 0; i--) {
      this.#scratch[i] = this.#last[at] as number;
      at = this.#prefix[at] as number;
    }
    return Buffer.from(this.#scratch.subarray(0, length));
  }

  #kwkwk(): Buffer {
    const previous = this.#sequence(this.#prev);
    return Buffer.concat([previous, Buffer.of(this.#first[this.#prev] as number)]);
  }
}

/** Five characters to four bytes, `z` for four zeros, `~>` ends; whitespace ignored. */
class Ascii85Decoder extends Transform {
  #group: number[] = [];
  #ended = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const out: number[] = [];
    for (const c of chunk) {
      if (this.#ended) break;
      if (c === 0x7e) {
        this.#ended = true;
      } else if (c === 0x7a && this.#group.length === 0) {
        out.push(0, 0, 0, 0);
      } else if (c >= 0x21 && c <= 0x75) {
        this.#group.push(c - 0x21);
        if (this.#group.length === 5) this.#emit(out, 4);
      }
    }
    if (out.length > 0) this.push(Buffer.from(out));
    done();
  }

  override _flush(done: TransformCallback): void {
    const out: number[] = [];
    const kept = this.#group.length;
    if (kept > 1) {
      while (this.#group.length < 5) this.#group.push(84);
      this.#emit(out, kept - 1);
    }
    if (out.length > 0) this.push(Buffer.from(out));
    done();
  }

  #emit(out: number[], count: number): void {
    let value = 0;
    for (const digit of this.#group) value = value * 85 + digit;
    this.#group = [];
    for (let i = 3; i >= 4 - count; i--) out.push(Math.floor(value / 256 ** i) % 256);
  }
}

/** Two hex digits to a byte, `>` ends, anything else skipped. */
class AsciiHexDecoder extends Transform {
  #high = -1;
  #ended = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const out: number[] = [];
    for (const c of chunk) {
      if (this.#ended) break;
      if (c === 0x3e) {
        this.#ended = true;
        continue;
      }
      const digit = hexDigit(c);
      if (digit < 0) continue;
      if (this.#high < 0) this.#high = digit;
      else {
        out.push((this.#high << 4) | digit);
        this.#high = -1;
      }
    }
    if (out.length > 0) this.push(Buffer.from(out));
    done();
  }
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** A length byte: 0-127 copies that many plus one, 129-255 repeats the next byte 257 minus it times, 128 ends. */
class RunLengthDecoder extends Transform {
  #pending = -1;
  #copy = 0;
  #ended = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const out: Buffer[] = [];
    for (const c of chunk) {
      if (this.#ended) break;
      if (this.#copy > 0) {
        out.push(Buffer.of(c));
        this.#copy--;
      } else if (this.#pending >= 0) {
        out.push(Buffer.alloc(257 - this.#pending, c));
        this.#pending = -1;
      } else if (c === 128) this.#ended = true;
      else if (c < 128) this.#copy = c + 1;
      else this.#pending = c;
    }
    if (out.length > 0) this.push(Buffer.concat(out));
    done();
  }
}
