import type Database from 'better-sqlite3';
import { openDatabase } from '../engine/sqlite/open-database.js';
import type { StoreTarget } from '../store/target.js';
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
import { PLAIN_SECRET, WebhookSeal } from './webhook-seal.js';

/**
 * API keys in the home's SQLite file, synchronously (SqliteKeyStore, below, wraps it). The key itself is
 * kept as a hash; the webhook secret must be recovered to sign with, so it is sealed (AES-256-GCM) with a
 * key of the home's keys/ folder: a copy of the database alone does not give it away.
 */
export class ApiKeys {
  private readonly byHash;
  private readonly insert;
  private readonly all;
  private readonly activeById;
  private readonly revokeStmt;
  private readonly plainRows;
  private readonly resealStmt;
  private readonly seal: WebhookSeal;

  constructor(db: Database.Database, opts: { home: string }) {
    this.seal = new WebhookSeal(opts.home);
    this.byHash = db.prepare<[string], KeyRow>(
      'SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
    );
    this.insert = db.prepare(
      'INSERT INTO api_keys (id, name, key_hash, webhook_secret, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.all = db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at');
    this.activeById = db.prepare<[string], KeyRow>(
      'SELECT * FROM api_keys WHERE id = ? AND revoked_at IS NULL',
    );
    this.revokeStmt = db.prepare<[number, string], KeyRow>(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING *',
    );
    this.plainRows = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE webhook_secret LIKE ?');
    this.resealStmt = db.prepare(
      'UPDATE api_keys SET webhook_secret = ? WHERE id = ? AND webhook_secret = ?',
    );
  }

  /** Seal the webhook secrets written in the clear by versions before sealing; returns how many. */
  sealPlainSecrets(): number {
    let sealed = 0;
    for (const row of this.plainRows.all(`${PLAIN_SECRET}%`))
      sealed += this.resealStmt.run(this.seal.seal(row.webhook_secret), row.id, row.webhook_secret).changes;
    return sealed;
  }

  /** A new key; the plain key and webhook secret are returned here and never again. */
  create(name: string): { key: string; apiKey: ApiKeyWithSecret } {
    const { id, key, keyHash, webhookSecret } = newKeyMaterial();
    const now = Date.now();
    this.insert.run(id, name, keyHash, this.seal.seal(webhookSecret), now);
    return { key, apiKey: { id, name, createdAt: now, revokedAt: null, webhookSecret } };
  }

  /** The active key with this hash (material.ts hashKey), or null. */
  findActive(keyHash: string): ApiKey | null {
    const row = this.byHash.get(keyHash);
    return row && sameHash(row, keyHash) ? toKey(row) : null;
  }

  /** The signing secret of an active key (webhooks are not sent for revoked keys). */
  webhookSecret(id: string): string | null {
    const row = this.activeById.get(id);
    return row ? this.seal.open(row.webhook_secret) : null;
  }

  list(): ApiKey[] {
    return this.all.all().map(toKey);
  }

  revoke(id: string): ApiKey {
    const row = this.revokeStmt.get(Date.now(), id);
    if (row) return toKey(row);
    if (!this.all.all().some((r) => r.id === id)) throw unknownKey(id);
    throw alreadyRevoked(id);
  }
}

/** The KeyStore over the home's SQLite file: ApiKeys, answered as promises. */
export class SqliteKeyStore implements KeyStore {
  private readonly keys: ApiKeys;
  private readonly owned: boolean;

  /** `owned`: the store opened `db` and closes it with itself. */
  constructor(
    private readonly db: Database.Database,
    opts: { home: string; owned?: boolean },
  ) {
    this.keys = new ApiKeys(db, opts);
    this.owned = opts.owned ?? false;
  }

  static open(target: StoreTarget): SqliteKeyStore {
    if (target.db) return new SqliteKeyStore(target.db, { home: target.home });
    return new SqliteKeyStore(openDatabase(target.home), { home: target.home, owned: true });
  }

  async create(name: string): Promise<{ key: string; apiKey: ApiKeyWithSecret }> {
    return this.keys.create(name);
  }

  async list(): Promise<ApiKey[]> {
    return this.keys.list();
  }

  async revoke(id: string): Promise<ApiKey> {
    return this.keys.revoke(id);
  }

  async findActive(keyHash: string): Promise<ApiKey | null> {
    return this.keys.findActive(keyHash);
  }

  async webhookSecret(id: string): Promise<string | null> {
    return this.keys.webhookSecret(id);
  }

  async sealPlainSecrets(): Promise<number> {
    return this.keys.sealPlainSecrets();
  }

  async close(): Promise<void> {
    if (this.owned) this.db.close();
  }
}
