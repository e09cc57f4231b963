import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { nameOf, numberOf, type PdfValue, parseValue, stringOf } from './pdf-objects.js';
import { filterChain, findStreams, type ObjectIndex } from './streams.js';

/**
 * Encrypted PDFs. pdf.js opens a file encrypted by the standard security handler with an empty user
 * password without asking anyone (permissions-only encryption, common in genuine lab reports) and decrypts
 * each stream before its filters, so the budget must count the same plaintext: counted as stored, an
 * encrypted bomb is ciphertext that inflates to nothing. Keys are derived as ISO 32000-1 7.6.3 and
 * ISO 32000-2 7.6.4 say; where pdf.js reads a file otherwise, it is pdf.js that is followed.
 */

export type DecryptProblem = 'password' | 'unsupported';

export interface StreamDecryptor {
  /**
   * False when an /Encrypt dictionary could not be undone here: it needs a user password (pdf.js then fails
   * with a PasswordException), or its handler, version or method is one this file does not know. Readings
   * are then the stored bytes, which for an encrypted stream says nothing about its decoded size.
   */
  readonly readable: boolean;
  readonly problem?: DecryptProblem;
  /**
   * Every form pdf.js may decode this stream from, decrypted first. More than one where readers differ: a
   * cross-reference or metadata stream is read as stored by pdf.js in one place and decrypted when fetched
   * as an object in another, and a file may carry trailers that disagree. The caller counts the largest.
   */
  readings(num: number, gen: number, dict: Map<string, PdfValue>, data: Buffer): Buffer[];
}

/** One stream's stored bytes as pdf.js decrypts them under one /Encrypt dictionary. */
type Cipher = (num: number, gen: number, data: Buffer) => Buffer;
interface Setup {
  decrypt: Cipher;
  /** pdf.js reads the catalog's metadata as stored (with V 1 and 2 always, as it ignores the key there). */
  storedMetadata: boolean;
}
/** What one trailer makes of the file's streams: no encryption, a setup, or a reason it cannot be read. */
type Outcome = 'plain' | Setup | DecryptProblem;

/** Distinct /Encrypt setups decrypted before giving up: one in a genuine file, each a pass over every stream. */
const MAX_SETUPS = 4;

/** How the document's streams are to be read, or undefined when no trailer encrypts it. */
export function streamDecryptor(bytes: Buffer, objects: ObjectIndex): StreamDecryptor | undefined {
  const outcomes = trailerOutcomes(bytes, objects);
  if (outcomes === undefined) return unreadable('unsupported');
  if (outcomes.every((outcome) => outcome === 'plain')) return undefined;
  const setups = outcomes.filter((outcome): outcome is Setup => typeof outcome === 'object');
  const problems = outcomes.filter(
    (outcome): outcome is DecryptProblem => outcome === 'password' || outcome === 'unsupported',
  );
  const problem = problems.includes('password') ? 'password' : problems[0];
  // A trailer without /Encrypt may be the one pdf.js takes; one this file cannot decrypt leaves nothing else.
  const storedToo = outcomes.includes('plain') || problem !== undefined;
  return {
    readable: problem === undefined,
    ...(problem && { problem }),
    readings(num, gen, dict, data) {
      const found = new Set<Buffer>();
      for (const setup of setups) {
        // Without its object number the key cannot be made; pdf.js could not have fetched it either.
        found.add(num < 0 ? data : setup.decrypt(num, gen, data));
        if (readAsStored(dict, objects, setup)) found.add(data);
      }
      if (storedToo) found.add(data);
      return [...found];
    },
  };
}

function unreadable(problem: DecryptProblem): StreamDecryptor {
  return { readable: false, problem, readings: (_num, _gen, _dict, data) => [data] };
}

/**
 * One outcome per distinct (/Encrypt, /ID) among the trailers pdf.js may take; undefined past MAX_SETUPS.
 * pdf.js takes the trailer startxref leads to, or in recovery the first sound one of all: not always the
 * last in the file (a linearized file's is at its start; a decoy can follow %%EOF), so all are tried.
 */
function trailerOutcomes(bytes: Buffer, objects: ObjectIndex): Outcome[] | undefined {
  const outcomes = new Map<string, Outcome>();
  for (const trailer of trailers(bytes, objects)) {
    const key = setupKey(trailer, objects);
    if (outcomes.has(key)) continue;
    if (outcomes.size === MAX_SETUPS) return undefined;
    outcomes.set(key, outcomeOf(trailer, objects));
  }
  return [...outcomes.values()];
}

const TRAILER = Buffer.from('trailer');

/**
 * Classic `trailer << >>` dictionaries and cross-reference stream dictionaries. pdf.js only settles on one
 * with a /Root (without one it cannot open the file), so the others (a linearized file's last trailer holds
 * only /Size) are left out unless no trailer has one.
 */
function trailers(bytes: Buffer, objects: ObjectIndex): Map<string, PdfValue>[] {
  const found: Map<string, PdfValue>[] = [];
  for (let at = bytes.indexOf(TRAILER); at !== -1; at = bytes.indexOf(TRAILER, at + TRAILER.length)) {
    const parsed = parseValue(bytes, at + TRAILER.length);
    if (parsed?.value.kind === 'dict') found.push(parsed.value.entries);
  }
  for (const stream of findStreams(bytes, objects)) {
    if (stream.dict && nameOf(objects.resolve(stream.dict.get('Type'))) === 'XRef') found.push(stream.dict);
  }
  const rooted = found.filter((trailer) => trailer.has('Root'));
  return rooted.length > 0 ? rooted : found;
}

function setupKey(trailer: Map<string, PdfValue>, objects: ObjectIndex): string {
  const encrypt = trailer.get('Encrypt');
  if (encrypt === undefined) return 'plain';
  return `${written(encrypt)} ${written(objects.resolve(encrypt))} ${firstId(trailer, objects).toString('hex')}`;
}

/** A value as text, to tell two setups apart. */
function written(value: PdfValue | undefined): string {
  switch (value?.kind) {
    case undefined:
      return '?';
    case 'name':
      return `/${value.name}`;
    case 'number':
    case 'bool':
      return String(value.value);
    case 'ref':
      return `${value.num} ${value.gen} R`;
    case 'string':
      return `<${value.bytes.toString('hex')}>`;
    case 'array':
      return `[${value.items.map(written).join(' ')}]`;
    case 'dict':
      return `<<${[...value.entries].map(([key, item]) => `/${key} ${written(item)}`).join(' ')}>>`;
    default:
      return 'null';
  }
}

function firstId(trailer: Map<string, PdfValue>, objects: ObjectIndex): Buffer {
  const ids = objects.resolve(trailer.get('ID'));
  const first = ids?.kind === 'array' ? objects.resolve(ids.items[0]) : undefined;
  return stringOf(first) ?? Buffer.alloc(0);
}

function outcomeOf(trailer: Map<string, PdfValue>, objects: ObjectIndex): Outcome {
  const value = trailer.get('Encrypt');
  if (value === undefined) return 'plain';
  const encrypt = objects.resolve(value);
  // A reference this index cannot follow (into an object stream, say) may still be one pdf.js follows.
  if (encrypt === undefined) return 'unsupported';
  // pdf.js reads a file whose /Encrypt is not a dictionary (null, a number) as not encrypted.
  if (encrypt.kind !== 'dict') return 'plain';
  const get = (key: string) => objects.resolve(encrypt.entries.get(key));
  const decrypt = standardCipher(get, firstId(trailer, objects), objects);
  if (typeof decrypt === 'string') return decrypt;
  return { decrypt, storedMetadata: !encryptsMetadata(get, numberOf(get('V'))) };
}

type Lookup = (key: string) => PdfValue | undefined;

/** The standard security handler with the empty user password: pdf.js's V 1, 2, 4 and 5. */
function standardCipher(get: Lookup, id: Buffer, objects: ObjectIndex): Cipher | DecryptProblem {
  if (nameOf(get('Filter')) !== 'Standard') return 'unsupported';
  const v = numberOf(get('V'));
  const o = stringOf(get('O'));
  const u = stringOf(get('U'));
  const bits = keyBits(get, v, objects);
  if (!o || !u || bits === undefined) return 'unsupported';
  // pdf.js tests R only against thresholds (3 and up: 50 rounds; 4 and up: /EncryptMetadata), so an
  // unusual R is read as it reads it rather than refused.
  const r = numberOf(get('R')) ?? 0;
  if (v === 1 || v === 2 || v === 4) {
    if (bits > 128) return 'unsupported';
    const p = numberOf(get('P')) ?? 0;
    const key = rc4FileKey({ o, p, id, r, bits, encryptMetadata: encryptsMetadata(get, v) });
    if (!userCheck(key, id, r).equals(u.subarray(0, r >= 3 ? 16 : 32))) return 'password';
    // pdf.js widens a V 4 key shorter than 128 bits with zeros.
    return v === 4 ? cryptFilterCipher(get, objects, padded(key, 16)) : methodCipher('V2', key);
  }
  if (v === 5) {
    const ue = stringOf(get('UE'));
    if (!ue || ue.length < 32 || u.length < 48) return 'unsupported';
    const key = aes256FileKey(u, ue, r);
    return key ? cryptFilterCipher(get, objects, key) : 'password';
  }
  return 'unsupported';
}

/** pdf.js honours /EncryptMetadata false from V 4 only, and treats V 1 and 2 as not encrypting it. */
function encryptsMetadata(get: Lookup, v: number | undefined): boolean {
  const flag = get('EncryptMetadata');
  return (v === 4 || v === 5) && !(flag?.kind === 'bool' && !flag.value);
}

/** The file key's length in bits as pdf.js settles it, or undefined where pdf.js refuses the file. */
function keyBits(get: Lookup, v: number | undefined, objects: ObjectIndex): number | undefined {
  let bits = numberOf(get('Length'));
  if (!bits) bits = v !== undefined && v <= 3 ? 40 : cryptFilterBits(get, objects);
  return bits !== undefined && Number.isInteger(bits) && bits >= 40 && bits % 8 === 0 ? bits : undefined;
}

function cryptFilterBits(get: Lookup, objects: ObjectIndex): number | undefined {
  const filter = streamCryptFilter(get, objects);
  if (filter === undefined) return undefined;
  const length = numberOf(objects.resolve(filter?.get('Length'))) || 128;
  // Some writers give the length in bytes.
  return length < 40 ? length * 8 : length;
}

/** The /CF entry /StmF names (null when /CF has no such entry); undefined where pdf.js cannot look it up. */
function streamCryptFilter(get: Lookup, objects: ObjectIndex): Map<string, PdfValue> | null | undefined {
  const cf = get('CF');
  const stmf = get('StmF') ?? { kind: 'name', name: 'Identity' };
  if (cf?.kind !== 'dict' || stmf.kind !== 'name') return undefined;
  const filter = objects.resolve(cf.entries.get(stmf.name));
  return filter?.kind === 'dict' ? filter.entries : null;
}

type Method = 'V2' | 'AESV2' | 'AESV3';

/**
 * V 4 and 5 name their stream method in a crypt filter. /Identity is no entry of /CF, so it has no method:
 * streams are stored as they are (pdf.js would use an entry that a file does name /Identity).
 */
function cryptFilterCipher(get: Lookup, objects: ObjectIndex, key: Buffer): Cipher | DecryptProblem {
  const filter = streamCryptFilter(get, objects);
  if (filter === undefined) return 'unsupported';
  const cfm = filter && objects.resolve(filter.get('CFM'));
  if (!cfm || nameOf(cfm) === 'None') return (_num, _gen, data) => data;
  const method = nameOf(cfm);
  return method === 'V2' || method === 'AESV2' || method === 'AESV3'
    ? methodCipher(method, key)
    : 'unsupported';
}

function methodCipher(method: Method, fileKey: Buffer): Cipher {
  switch (method) {
    case 'V2':
      return (num, gen, data) => rc4(objectKey(fileKey, num, gen, false), data);
    case 'AESV2':
      return (num, gen, data) => aesCbcDecrypt('aes-128-cbc', objectKey(fileKey, num, gen, true), data);
    case 'AESV3':
      // pdf.js expands a shorter key as if zeros followed it.
      return (_num, _gen, data) => aesCbcDecrypt('aes-256-cbc', padded(fileKey, 32), data);
  }
}

/**
 * pdf.js also reads some streams as stored: cross-reference streams (while finding objects) and the
 * catalog's metadata when it is not encrypted. ISO 32000 adds a stream whose own /Crypt filter is /Identity
 * (pdf.js ignores /Crypt and decrypts it). Any stream can be labelled so, and pdf.js decrypts it when a page
 * draws it, so such a stream has both readings, not the stored one alone.
 */
function readAsStored(dict: Map<string, PdfValue>, objects: ObjectIndex, setup: Setup): boolean {
  const type = nameOf(objects.resolve(dict.get('Type')));
  if (type === 'XRef' || (type === 'Metadata' && setup.storedMetadata)) return true;
  const chain = filterChain(dict, objects);
  if (chain.filters[0] !== 'Crypt') return false;
  const params = chain.params[0];
  const name = params?.kind === 'dict' ? nameOf(objects.resolve(params.entries.get('Name'))) : undefined;
  return (name ?? 'Identity') === 'Identity';
}

/** ISO 32000-1 7.6.3.3: what a password shorter than 32 bytes (the empty one: all of it) is padded with. */
export const PASSWORD_PADDING = Buffer.from(
  '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a',
  'hex',
);

export interface Rc4KeyInput {
  /** /O, /P, the first /ID string, /R, the key length in bits, and whether metadata is encrypted. */
  o: Buffer;
  p: number;
  id: Buffer;
  r: number;
  bits: number;
  encryptMetadata: boolean;
}

/** Algorithm 2 (ISO 32000-1 7.6.3.3) for the empty user password: the file key of V 1, 2 and 4. */
export function rc4FileKey({ o, p, id, r, bits, encryptMetadata }: Rc4KeyInput): Buffer {
  const n = bits / 8;
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(p | 0);
  const noMetadata = r >= 4 && !encryptMetadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0);
  let hash = digest('md5', PASSWORD_PADDING, o.subarray(0, 32), permissions, id, noMetadata);
  if (r >= 3) for (let i = 0; i < 50; i++) hash = digest('md5', hash.subarray(0, n));
  return hash.subarray(0, n);
}

/**
 * What /U holds when `key` is the empty password's: Algorithm 4 (R 2, all 32 bytes) or the first 16 bytes
 * of Algorithm 5 (R 3 and up; the other 16 are arbitrary).
 */
export function userCheck(key: Buffer, id: Buffer, r: number): Buffer {
  if (r < 3) return rc4(key, PASSWORD_PADDING);
  let check = rc4(key, digest('md5', PASSWORD_PADDING, id));
  for (let i = 1; i <= 19; i++) check = rc4(xorEach(key, i), check);
  return check;
}

/** Algorithm 1: each object's own key, from the file key, its number and generation (and "sAlT" for AES). */
export function objectKey(fileKey: Buffer, num: number, gen: number, aes: boolean): Buffer {
  const suffix = Buffer.alloc(5);
  suffix.writeUIntLE(num & 0xffffff, 0, 3);
  suffix.writeUInt16LE(gen & 0xffff, 3);
  const salt = aes ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0);
  return digest('md5', fileKey, suffix, salt).subarray(0, Math.min(fileKey.length + 5, 16));
}

/** RC4, which Node's OpenSSL 3 may not offer (it is in the legacy provider). */
export function rc4(key: Buffer, data: Buffer): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (s[i] as number) + (key[i % key.length] as number)) & 0xff;
    swap(s, i, j);
  }
  const out = Buffer.allocUnsafe(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + (s[i] as number)) & 0xff;
    swap(s, i, j);
    out[k] = (data[k] as number) ^ (s[((s[i] as number) + (s[j] as number)) & 0xff] as number);
  }
  return out;
}

function swap(s: Uint8Array, i: number, j: number): void {
  const t = s[i] as number;
  s[i] = s[j] as number;
  s[j] = t;
}

/**
 * The first 16 bytes are the IV. As pdf.js does, a trailing part block is dropped and the padding is
 * removed only when it is well formed: a damaged end costs a few bytes, not the stream.
 */
function aesCbcDecrypt(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Buffer, data: Buffer): Buffer {
  const blocks = Math.floor((data.length - 16) / 16);
  if (blocks < 1) return Buffer.alloc(0);
  const decipher = createDecipheriv(algorithm, key, data.subarray(0, 16)).setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(data.subarray(16, 16 + blocks * 16)), decipher.final()]);
  return withoutPadding(plain);
}

function withoutPadding(plain: Buffer): Buffer {
  const pad = plain[plain.length - 1] as number;
  if (pad > 16) return plain;
  for (let i = plain.length - pad; i < plain.length; i++) if (plain[i] !== pad) return plain;
  return plain.subarray(0, plain.length - pad);
}

/**
 * V 5: the empty password's check against /U's validation salt, then its key from /U's key salt, which
 * unwraps /UE (AES-256, zero IV, no padding) into the file key. R 6 hashes with Algorithm 2.B; any other R
 * with plain SHA-256 (R 5, deprecated, as pdf.js reads it).
 */
function aes256FileKey(u: Buffer, ue: Buffer, r: number): Buffer | undefined {
  const hash = (salt: Buffer) => (r === 6 ? hashR6(Buffer.alloc(0), salt) : digest('sha256', salt));
  if (!hash(u.subarray(32, 40)).equals(u.subarray(0, 32))) return undefined;
  const decipher = createDecipheriv('aes-256-cbc', hash(u.subarray(40, 48)), Buffer.alloc(16));
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(ue.subarray(0, 32)), decipher.final()]);
}

const R6_HASHES = ['sha256', 'sha384', 'sha512'];

/**
 * Algorithm 2.B (ISO 32000-2 7.6.4.3.4) for a user password (no /U data mixed in): SHA-256 of password and
 * salt, then rounds of AES-128-CBC over 64 copies of password and hash, each hashed again with SHA-256, -384
 * or -512 as the first 16 bytes of the result say, until at least 64 rounds are done and the last byte of
 * the last result is no more than the round number less 32.
 */
export function hashR6(password: Buffer, salt: Buffer): Buffer {
  let k = digest('sha256', password, salt);
  for (let round = 1; ; round++) {
    const block = Buffer.concat([password, k]);
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    const e = Buffer.concat([cipher.update(Buffer.concat(Array(64).fill(block))), cipher.final()]);
    // The first 16 bytes as one big-endian number, mod 3: 256 is 1 mod 3, so the sum of the bytes will do.
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i] as number;
    k = digest(R6_HASHES[sum % 3] as string, e);
    if (round >= 64 && (e[e.length - 1] as number) <= round - 32) return k.subarray(0, 32);
  }
}

function digest(algorithm: string, ...parts: Buffer[]): Buffer {
  const hash = createHash(algorithm);
  for (const part of parts) hash.update(part);
  return hash.digest();
}

function xorEach(key: Buffer, value: number): Buffer {
  return Buffer.from(key.map((byte) => byte ^ value));
}

function padded(key: Buffer, length: number): Buffer {
  return key.length >= length ? key : Buffer.concat([key, Buffer.alloc(length - key.length)]);
}
