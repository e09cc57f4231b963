/**
 * Secrets that belong to one ASSAY_HOME: random keys kept in `<home>/keys/<name>.key` (0600, in a 0700
 * folder), and JSON sealed with one of them. The job store holds what commands and routes enqueue, and its
 * rows are printed by `assay jobs show`, copied with the database and kept until pruned: a value sealed
 * here is unreadable to anyone holding the database without the home's keys folder.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AssayError } from './errors.js';

/** A sealed JSON value: AES-256-GCM, base64 parts, versioned so the scheme can change. */
export interface Sealed {
  sealed: 'aes-256-gcm/1';
  iv: string;
  tag: string;
  data: string;
}

const SCHEME = 'aes-256-gcm/1';

/** The home's key named `name` (base64 of 32 random bytes), made on first use. */
export async function homeKey(home: string, name: string): Promise<string> {
  const dir = join(home, 'keys');
  const file = join(dir, `${name}.key`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    // `wx`: two processes racing to create the key agree on the one that was written first.
    await writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(file, 'utf8')).trim();
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
