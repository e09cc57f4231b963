import type { ApiKey, ApiKeyWithSecret } from './api-keys.js';

/**
 * Where API keys live: the home's SQLite file (sqlite.ts) or a PostgreSQL database every node shares
 * (postgres.ts). Webhook secrets are sealed with the home's keys/webhook-secrets.key in both, so a node
 * reads them only with that file. Requests do not come here one by one: `assay serve` checks keys through
 * KeyVerifier's short cache (verifier.ts).
 */
export interface KeyStore {
  /** A new key; the plain key and webhook secret are returned here and never again. */
  create(name: string): Promise<{ key: string; apiKey: ApiKeyWithSecret }>;
  list(): Promise<ApiKey[]>;
  /** NotFoundError for an unknown id, ConflictError for a key already revoked. */
  revoke(id: string): Promise<ApiKey>;
  /** The active key whose hash is `keyHash` (material.ts hashKey), or null. */
  findActive(keyHash: string): Promise<ApiKey | null>;
  /** The signing secret of an active key, or null when revoked or unknown. */
  webhookSecret(id: string): Promise<string | null>;
  /** Seal the secrets older versions wrote in the clear; how many. */
  sealPlainSecrets(): Promise<number>;
  close(): Promise<void>;
}
