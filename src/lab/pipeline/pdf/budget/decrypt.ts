import { aes256FileKey, aesCbcDecrypt, objectKey, padded, rc4, rc4FileKey, userCheck } from './pdf-crypto.js';
import { nameOf, numberOf, type PdfValue, parseValue, stringOf } from './pdf-objects.js';
import { filterChain, findStreams, type ObjectIndex, type StreamRecord } from './streams.js';

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

/**
 * How the document's streams are to be read, or undefined when no trailer encrypts it. `streams` are the
 * file's streams when the caller has already found them (the budget walks them anyway).
 */
export function streamDecryptor(
  bytes: Buffer,
  objects: ObjectIndex,
  streams: Iterable<StreamRecord> = findStreams(bytes, objects),
): StreamDecryptor | undefined {
  const outcomes = trailerOutcomes(bytes, objects, streams);
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
function trailerOutcomes(
  bytes: Buffer,
  objects: ObjectIndex,
  streams: Iterable<StreamRecord>,
): Outcome[] | undefined {
  const outcomes = new Map<string, Outcome>();
  for (const trailer of trailers(bytes, objects, streams)) {
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
function trailers(
  bytes: Buffer,
  objects: ObjectIndex,
  streams: Iterable<StreamRecord>,
): Map<string, PdfValue>[] {
  const found: Map<string, PdfValue>[] = [];
  for (let at = bytes.indexOf(TRAILER); at !== -1; at = bytes.indexOf(TRAILER, at + TRAILER.length)) {
    const parsed = parseValue(bytes, at + TRAILER.length);
    if (parsed?.value.kind === 'dict') found.push(parsed.value.entries);
  }
  for (const stream of streams) {
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
