import { homeKeySync, openSealedJson, type Sealed, sealJson } from '../home-secrets.js';

/** The home's key that seals webhook secrets in the database (`<home>/keys/webhook-secrets.key`). */
export const SEAL_KEY_NAME = 'webhook-secrets';
/** How a secret from before sealing looks in the column; the SQLite store seals it in place at start. */
export const PLAIN_SECRET = 'whsec_';

/**
 * Seals webhook secrets for the api_keys column of either store with a key of the home's keys/ folder, so
 * the database (SQLite file or PostgreSQL) alone never gives them away. Nodes sharing one PostgreSQL must
 * share that key file. The key is read on first use, not at construction: listing keys does not need it.
 */
export class WebhookSeal {
  private key: string | undefined;

  constructor(private readonly home: string) {}

  private get sealKey(): string {
    this.key ??= homeKeySync(this.home, SEAL_KEY_NAME);
    return this.key;
  }

  seal(secret: string): string {
    return JSON.stringify(sealJson(secret, this.sealKey));
  }

  /** The secret; a SealedValueError when this home's key is not the one it was sealed with. */
  open(stored: string): string {
    if (stored.startsWith(PLAIN_SECRET)) return stored;
    return openSealedJson(JSON.parse(stored) as Sealed, this.sealKey) as string;
  }
}
