/**
 * Secrets that belong to one ASSAY_HOME: random keys kept in `<home>/keys/<name>.key` (0600, in a 0700
 * folder), or in ASSAY_KEYS_DIR, and JSON sealed with one of them. Keys never go in a database: nodes
 * sharing one PostgreSQL store share the keys folder (or a copy of it) through ASSAY_KEYS_DIR instead. The job store holds what commands and routes enqueue, and its
 * rows are printed by `assay jobs show`, copied with the database and kept until pruned: a value sealed
 * here is unreadable to anyone holding the database without the home's keys folder.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AssayError } from './errors.js';

/** A sealed JSON value: AES-256-GCM, base64 parts, versioned so the scheme can change. */
export interface Sealed {
  sealed: 'aes-256-gcm/1';
  iv: string;
  tag: string;
  data: string;
}

const SCHEME = 'aes-256-gcm/1';

/**
 * The folder holding the keys: ASSAY_KEYS_DIR when set (several nodes with their own homes pointing at one
 * folder, or at copies of it), else `<home>/keys`.
 */
export function keysDir(home: string): string {
  const shared = process.env.ASSAY_KEYS_DIR;
  return shared ? resolve(shared) : join(home, 'keys');
}

/** The home's key named `name` (base64 of 32 random bytes), made on first use. */
export async function homeKey(home: string, name: string): Promise<string> {
  return homeKeySync(home, name);
}

/**
 * The same, for callers that cannot wait (a key store built inside a synchronous constructor). The key is
 * a 44-byte file read once per use, so the synchronous read costs less than the promise around it.
 */
export function homeKeySync(home: string, name: string): string {
  const dir = keysDir(home);
  const file = join(dir, `${name}.key`);
  try {
    // Read first: the key exists on every call but the first, and a read is one system call.
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written whole under a private name, then linked into place: a reader never sees a half-written key, and
  // link fails if the key exists, so processes racing to create it agree on the one linked first.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}

export function sealJson(value: unknown, key: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return {
    sealed: SCHEME,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}

/** The sealed value, or a SealedValueError when the key is not the one it was sealed with. */
export function openSealedJson(sealed: Sealed, key: string): unknown {
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(key, 'base64'),
      Buffer.from(sealed.iv, 'base64'),
    );
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
    return JSON.parse(text.toString('utf8'));
  } catch {
    throw new SealedValueError();
  }
}

export class SealedValueError extends AssayError {
  constructor() {
    super(
      'sealed_value_unreadable',
      "A sealed job payload cannot be opened with this home's key (keys/ was removed or replaced).",
      { suggestions: ['Submit the job again.'] },
    );
  }
}
