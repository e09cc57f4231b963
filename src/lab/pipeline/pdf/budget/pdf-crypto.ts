import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

/**
 * The cryptography of PDF's standard security handler: RC4 and AES key derivation (ISO 32000-1 7.6.3,
 * ISO 32000-2 7.6.4) and the ciphers, for the empty user password pdf.js opens files with.
 */

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
export function aesCbcDecrypt(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Buffer, data: Buffer): Buffer {
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
export function aes256FileKey(u: Buffer, ue: Buffer, r: number): Buffer | undefined {
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

export function padded(key: Buffer, length: number): Buffer {
  return key.length >= length ? key : Buffer.concat([key, Buffer.alloc(length - key.length)]);
}
