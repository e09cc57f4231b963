import type pg from 'pg';
import { openSharedPool, releasePool } from '../engine/postgres/pool.js';
import {
  type ApiKey,
  type ApiKeyWithSecret,
  alreadyRevoked,
  type KeyRow,
  sameHash,
  toKey,
  unknownKey,
} from './api-keys.js';
import { newKeyMaterial } from './material.js';
import type { KeyStore } from './store.js';
import { WebhookSeal } from './webhook-seal.js';

/**
 * API keys in a PostgreSQL database every node shares (migration 0003_keys_limits.sql). Secrets are sealed
 * with the home's key before they are sent, so the database never holds one in the clear.
 */
export class PgKeyStore implements KeyStore {
  private readonly seal: WebhookSeal;
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    home: string,
  ) {
    this.seal = new WebhookSeal(home);
  }

  /** Connect (one pool per URL per process) and bring the schema to this version's. */
  static async open(url: string, opts: { home: string }): Promise<PgKeyStore> {
    const pool = await openSharedPool(url);
    return new PgKeyStore(pool, url, opts.home);
  }

  async create(name: string): Promise<{ key: string; apiKey: ApiKeyWithSecret }> {
    const { id, key, keyHash, webhookSecret } = newKeyMaterial();
    const now = Date.now();
    await this.pool.query(
      'INSERT INTO api_keys (id, name, key_hash, webhook_secret, created_at) VALUES ($1, $2, $3, $4, $5)',
      [id, name, keyHash, this.seal.seal(webhookSecret), now],
    );
    return { key, apiKey: { id, name, createdAt: now, revokedAt: null, webhookSecret } };
  }

  async list(): Promise<ApiKey[]> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    return rows.map(toKey);
  }

  async revoke(id: string): Promise<ApiKey> {
    const { rows } = await this.pool.query<KeyRow>(
      'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING *',
      [Date.now(), id],
    );
    if (rows[0]) return toKey(rows[0]);
    const known = await this.pool.query('SELECT 1 FROM api_keys WHERE id = $1', [id]);
    if (known.rowCount === 0) throw unknownKey(id);
    throw alreadyRevoked(id);
  }

  async findActive(keyHash: string): Promise<ApiKey | null> {
    const { rows } = await this.pool.query<KeyRow>(
      'SELECT * FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    const row = rows[0];
    return row && sameHash(row, keyHash) ? toKey(row) : null;
  }

  async webhookSecret(id: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ webhook_secret: string }>(
      'SELECT webhook_secret FROM api_keys WHERE id = $1 AND revoked_at IS NULL',
      [id],
    );
    return rows[0] ? this.seal.open(rows[0].webhook_secret) : null;
  }

  /** Nothing to do: no version wrote secrets in the clear to PostgreSQL. */
  async sealPlainSecrets(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await releasePool(this.url);
  }
}
