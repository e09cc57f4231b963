import { hash, randomBytes, randomUUID } from 'node:crypto';

/** Every API key starts so: anything else is refused before any store is asked. */
export const KEY_PREFIX = 'assay_';

/** A key is the prefix and 43 base64url characters; a longer header value is refused unread. */
export const MAX_KEY_LENGTH = 64;

// Keys are 256 random bits, so a plain SHA-256 is enough: there is nothing to brute-force. The one-shot
// crypto.hash costs half of createHash's object round trip.
export const hashKey = (key: string): string => hash('sha256', key, 'hex');

/** A new key's id, the key (shown once), its hash (stored) and its plain webhook secret (shown once). */
export function newKeyMaterial(): { id: string; key: string; keyHash: string; webhookSecret: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return {
    id: randomUUID(),
    key,
    keyHash: hashKey(key),
    webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
  };
}
