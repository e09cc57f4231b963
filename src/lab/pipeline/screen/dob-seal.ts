/**
 * The requester's date of birth, compared but never kept. Apart from the pipeline so that submitting a job
 * (the CLI, the server's main thread) seals a date without loading the pipeline's PDF and OCR modules.
 */
import { scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * The requester's date of birth as the pipeline may know it: a scrypt digest under a per-job salt and a
 * per-home key. Neither the date nor anything it can be recovered from without the key is ever stored.
 */
export interface DobSeal {
  salt: string;
  digest: string;
}

/**
 * A deliberately slow hash: a DOB has only some 40,000 plausible values, so a fast hash of it would be
 * reversible by trying them all. The key lives in the home, apart from the database rows.
 */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1 } as const;
const DIGEST_BYTES = 32;

function keyMaterial(key: string, salt: string): Buffer {
  return Buffer.concat([Buffer.from(key, 'base64'), Buffer.from(salt, 'base64')]);
}

/** For the submitting side: asynchronous (libuv's pool), so sealing a batch never blocks the event loop. */
export function dobDigest(isoDate: string, key: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(isoDate, keyMaterial(key, salt), DIGEST_BYTES, SCRYPT, (error, digest) =>
      error ? reject(error) : resolve(digest.toString('base64')),
    );
  });
}

/**
 * For the pipeline, which runs in a worker thread of its own: the PHI stage asks synchronously, once per
 * printed date of birth (rarely more than one), so a synchronous digest costs nobody anything.
 */
export function dobMatcher(request: {
  dob?: DobSeal;
  dobKey?: string;
}): ((iso: string) => boolean) | undefined {
  const { dob, dobKey } = request;
  if (!dob || !dobKey) return undefined;
  const expected = Buffer.from(dob.digest, 'base64');
  return (iso) => {
    const actual = scryptSync(iso, keyMaterial(dobKey, dob.salt), DIGEST_BYTES, SCRYPT);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  };
}
