import { createCipheriv, createHash } from 'node:crypto';
import { createDeflate, deflateSync } from 'node:zlib';
import {
  hashR6,
  objectKey,
  PASSWORD_PADDING,
  rc4,
  rc4FileKey,
  userCheck,
} from '../../../src/lab/pipeline/pdf/budget/pdf-crypto.js';

/**
 * The ways one stream can hide a huge decoded size from a check that only knows plain Flate (issue #30
 * item 1): other filters, filter chains, zlib headers zlib itself would not write, a /Filter that is an
 * indirect object or spelt with `#xx` escapes, a dictionary padded past any fixed look-back window, and
 * encryption with the empty user password, which pdf.js undoes without asking (RC4, AES-128, AES-256).
 */
export const BOMB_ENCODINGS = [
  'flate',
  'lzw',
  'ascii85-flate',
  'asciihex-flate',
  'zlib-header-58',
  'zlib-wide-window',
  'indirect-filter',
  'escaped-filter-name',
  'padded-dictionary',
  'rc4-encrypted',
  'rc4-crypt-filter-encrypted',
  'aes-encrypted',
  'aes256-encrypted',
] as const;
export type BombEncoding = (typeof BOMB_ENCODINGS)[number];

/**
 * A one-page PDF whose content stream decodes to `decodedBytes` of spaces, made in bounded memory: a few
 * kilobytes per 100 MB with Flate, about 400 KB per GB with LZW.
 */
export async function pdfBomb(decodedBytes: number, encoding: BombEncoding = 'flate'): Promise<Buffer> {
  const encoded = await encodeContent(
    encoding,
    (windowBits) => deflateSpaces(decodedBytes, windowBits),
    () => lzwRunOfSpaces(decodedBytes),
  );
  return onePagePdf(encoded);
}

/**
 * A one-page PDF that shows `text` in Helvetica, its content stream (the text operators, then `padding`
 * spaces) written with `encoding`: what pdf.js reads from it proves the encoding is one pdf.js decodes.
 * The content is `contentOf(text, padding)`, byte for byte.
 */
export async function pdfShowing(text: string, padding: number, encoding: BombEncoding): Promise<Buffer> {
  const content = contentOf(text, padding);
  const encoded = await encodeContent(
    encoding,
    (windowBits) => Promise.resolve(deflateSync(content, { windowBits })),
    () => lzwEncode(content),
  );
  return onePagePdf(encoded);
}

export const contentOf = (text: string, padding: number): Buffer =>
  Buffer.concat([Buffer.from(`BT /F1 24 Tf 72 700 Td (${text}) Tj ET\n`), Buffer.alloc(padding, 0x20)]);

/** The content stream's data and /Filter, objects from 6 on, and what the trailer adds. */
interface Encoded {
  data: Buffer;
  filter: string;
  extra: string[];
  trailer?: string;
}

async function encodeContent(
  encoding: BombEncoding,
  deflate: (windowBits?: number) => Promise<Buffer>,
  lzw: () => Buffer,
): Promise<Encoded> {
  switch (encoding) {
    case 'lzw':
      return { data: lzw(), filter: '/LZWDecode', extra: [] };
    case 'ascii85-flate':
      return { data: ascii85(await deflate()), filter: '[/ASCII85Decode /FlateDecode]', extra: [] };
    case 'asciihex-flate': {
      const data = Buffer.from(`${(await deflate()).toString('hex')}>`);
      return { data, filter: '[/ASCIIHexDecode /FlateDecode]', extra: [] };
    }
    case 'zlib-header-58':
      return { data: await deflate(13), filter: '/FlateDecode', extra: [] };
    case 'zlib-wide-window': {
      // CINFO 8 (a 64 KB window) is not zlib, and Node's zlib refuses it; pdf.js checks only method and FCHECK.
      const data = Buffer.concat([Buffer.from([0x88, 0x1c]), (await deflate()).subarray(2)]);
      return { data, filter: '/FlateDecode', extra: [] };
    }
    case 'indirect-filter':
      return { data: await deflate(), filter: '6 0 R', extra: ['/FlateDecode'] };
    case 'escaped-filter-name':
      return { data: await deflate(), filter: '/Fl#61te#44ecode', extra: [] };
    case 'padded-dictionary':
      return { data: await deflate(), filter: `${' '.repeat(4096)}/FlateDecode`, extra: [] };
    case 'rc4-encrypted':
    case 'rc4-crypt-filter-encrypted':
    case 'aes-encrypted':
      return { ...encryptedV2V4(encoding, await deflate()), filter: '/FlateDecode' };
    case 'aes256-encrypted':
      return { ...encryptedR6(await deflate()), filter: '/FlateDecode' };
    default:
      return { data: await deflate(), filter: '/FlateDecode', extra: [] };
  }
}

/** `count` spaces through zlib, fed in 1 MB pieces so memory holds only the compressed result. */
async function deflateSpaces(count: number, windowBits = 15): Promise<Buffer> {
  const deflate = createDeflate({ level: 9, windowBits });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const piece = Buffer.alloc(1024 * 1024, 0x20);
  for (let left = count; left > 0; left -= piece.length) {
    const chunk = left >= piece.length ? piece : piece.subarray(0, left);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** PDF's LZW (EarlyChange 1) of `count` spaces: each code names a run one longer, up to 3,839 bytes. */
export function lzwRunOfSpaces(count: number): Buffer {
  const bits = new BitWriter();
  const lengthOf = new Map<number, number>([[0x20, 1]]);
  let next = 258;
  let width = 9;
  let written = 0;
  let previous = 0; // length of the run the last code named; 0 before the first
  while (written < count) {
    const left = count - written;
    // The decoder defines `next` on seeing it: the previous run plus one space. Once full, 4095 is longest.
    let code = 0x20;
    if (previous > 0 && next < 4096 && previous + 1 <= left) code = next;
    else if (next >= 4096 && (lengthOf.get(4095) ?? 0) <= left) code = 4095;
    const length = code === next ? previous + 1 : (lengthOf.get(code) ?? 1);
    bits.write(code, width);
    written += length;
    if (previous > 0 && next < 4096) lengthOf.set(next++, previous + 1);
    previous = length;
    const reach = next + 1;
    width = reach >= 2048 ? 12 : reach >= 1024 ? 11 : reach >= 512 ? 10 : 9;
  }
  bits.write(257, width);
  return bits.bytes();
}

/** PDF's LZW (EarlyChange 1) of any small input, no clear codes: for contents of some kilobytes. */
export function lzwEncode(data: Buffer): Buffer {
  const bits = new BitWriter();
  const codes = new Map<string, number>();
  for (let i = 0; i < 256; i++) codes.set(String.fromCharCode(i), i);
  let next = 258;
  let emitted = 0;
  let word = '';
  const emit = (code: number) => {
    // The decoder widens one code early: code j is read at the width that 258 + j needs.
    const reach = emitted === 0 ? 0 : 258 + emitted;
    bits.write(code, reach >= 2048 ? 12 : reach >= 1024 ? 11 : reach >= 512 ? 10 : 9);
    emitted++;
  };
  for (const byte of data) {
    const grown = word + String.fromCharCode(byte);
    if (codes.has(grown)) {
      word = grown;
      continue;
    }
    emit(codes.get(word) as number);
    if (next >= 4095) throw new Error('lzwEncode is for small inputs (no clear codes)');
    codes.set(grown, next++);
    word = String.fromCharCode(byte);
  }
  if (word) emit(codes.get(word) as number);
  emit(257);
  return bits.bytes();
}

/** Codes written most significant bit first, as PDF's LZW reads them. */
class BitWriter {
  readonly #out: number[] = [];
  #acc = 0;
  #count = 0;

  write(code: number, width: number): void {
    this.#acc = (this.#acc << width) | code;
    this.#count += width;
    while (this.#count >= 8) {
      this.#count -= 8;
      this.#out.push((this.#acc >>> this.#count) & 0xff);
    }
    this.#acc &= (1 << this.#count) - 1;
  }

  bytes(): Buffer {
    if (this.#count > 0) this.#out.push((this.#acc << (8 - this.#count)) & 0xff);
    return Buffer.from(this.#out);
  }
}

/** Adobe's ASCII85, with the `~>` end marker. */
export function ascii85(data: Buffer): Buffer {
  const out: string[] = [];
  for (let at = 0; at < data.length; at += 4) {
    const group = data.subarray(at, at + 4);
    const padded = Buffer.concat([group, Buffer.alloc(4 - group.length)]);
    const value = padded.readUInt32BE(0);
    if (value === 0 && group.length === 4) {
      out.push('z');
      continue;
    }
    let digits = '';
    let rest = value;
    for (let i = 0; i < 5; i++) {
      digits = String.fromCharCode((rest % 85) + 0x21) + digits;
      rest = Math.floor(rest / 85);
    }
    out.push(digits.slice(0, group.length + 1));
  }
  return Buffer.from(`${out.join('')}~>`, 'latin1');
}

/** The content stream (object 4), /Encrypt (object 6) and /ID of a file whose user password is empty. */
type Encryption = Omit<Encoded, 'filter'>;

const FILE_ID = createHash('md5').update('assay pdf bomb').digest();
const hex = (bytes: Buffer) => `<${bytes.toString('hex')}>`;

/**
 * RC4-128 (V 2, R 3), or with V 4 and R 4 a crypt filter of RC4-128 (/V2) or AES-128 (/AESV2), owner
 * password "owner": /O from Algorithm 3, the file key from Algorithm 2, /U from Algorithm 5.
 */
function encryptedV2V4(
  kind: 'rc4-encrypted' | 'rc4-crypt-filter-encrypted' | 'aes-encrypted',
  stream: Buffer,
): Encryption {
  const aes = kind === 'aes-encrypted';
  const r = kind === 'rc4-encrypted' ? 3 : 4;
  const p = -4; // every permission
  const o = ownerEntry('owner');
  const key = rc4FileKey({ o, p, id: FILE_ID, r, bits: 128, encryptMetadata: true });
  const u = Buffer.concat([userCheck(key, FILE_ID, r), Buffer.alloc(16)]);
  const cf = (cfm: string) =>
    `/V 4 /CF << /StdCF << /CFM /${cfm} /Length 16 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF`;
  const filters = r === 3 ? '/V 2' : cf(aes ? 'AESV2' : 'V2');
  const data = aes
    ? aesCbc('aes-128-cbc', objectKey(key, 4, 0, true), stream)
    : rc4(objectKey(key, 4, 0, false), stream);
  return {
    data,
    extra: [`<< /Filter /Standard ${filters} /R ${r} /Length 128 /O ${hex(o)} /U ${hex(u)} /P ${p} >>`],
    trailer: `/Encrypt 6 0 R /ID [${hex(FILE_ID)} ${hex(FILE_ID)}]`,
  };
}

/** Algorithm 3: /O for an owner password and the empty user password, R 3 and up. */
function ownerEntry(password: string): Buffer {
  const padded = Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PADDING]).subarray(0, 32);
  let hash: Buffer = padded;
  for (let i = 0; i < 51; i++) hash = createHash('md5').update(hash).digest();
  let entry: Buffer = PASSWORD_PADDING;
  for (let i = 0; i <= 19; i++) entry = rc4(Buffer.from(hash.map((byte) => byte ^ i)), entry);
  return entry;
}

/**
 * AES-256 (V 5, R 6): a file key wrapped in /UE under the empty password's Algorithm 2.B hash. The owner
 * entries are filler: a reader opening the file with the empty user password does not look at them.
 */
function encryptedR6(stream: Buffer): Encryption {
  const fileKey = createHash('sha256').update('assay file key').digest();
  const validationSalt = Buffer.from('validate');
  const keySalt = Buffer.from('key salt');
  const none = Buffer.alloc(0);
  const u = Buffer.concat([hashR6(none, validationSalt), validationSalt, keySalt]);
  const wrap = createCipheriv('aes-256-cbc', hashR6(none, keySalt), Buffer.alloc(16)).setAutoPadding(false);
  const ue = Buffer.concat([wrap.update(fileKey), wrap.final()]);
  const filters =
    '/CF << /StdCF << /CFM /AESV3 /Length 32 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF';
  const owner = `/O ${hex(Buffer.alloc(48, 1))} /OE ${hex(Buffer.alloc(32, 2))} /Perms ${hex(Buffer.alloc(16, 3))}`;
  return {
    data: aesCbc('aes-256-cbc', fileKey, stream),
    extra: [
      `<< /Filter /Standard /V 5 /R 6 /Length 256 ${filters} ${owner} /U ${hex(u)} /UE ${hex(ue)} /P -4 >>`,
    ],
    trailer: `/Encrypt 6 0 R /ID [${hex(FILE_ID)} ${hex(FILE_ID)}]`,
  };
}

/** AES-CBC with PKCS#7 padding, the IV in front, as encrypted PDF streams carry it. */
function aesCbc(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Buffer, data: Buffer): Buffer {
  const iv = createHash('md5').update(data).digest();
  const cipher = createCipheriv(algorithm, key, iv);
  return Buffer.concat([iv, cipher.update(data), cipher.final()]);
}

/** Catalog, pages, one page whose content is object 4 (the stream), Helvetica as 5; `extra` objects from 6. */
function onePagePdf({ data: stream, filter, extra, trailer = '' }: Encoded): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let size = parts[0]?.length ?? 0;
  const add = (b: Buffer) => {
    parts.push(b);
    size += b.length;
  };
  objects.forEach((body, i) => {
    offsets.push(size);
    add(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(size);
  add(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter ${filter} >>\nstream\n`));
  add(stream);
  add(Buffer.from('\nendstream\nendobj\n'));
  ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', ...extra].forEach((body, i) => {
    offsets.push(size);
    add(Buffer.from(`${i + 5} 0 obj\n${body}\nendobj\n`));
  });
  const xref = size;
  const count = offsets.length + 1;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  add(
    Buffer.from(
      `xref\n0 ${count}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${count} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
