import type Database from 'better-sqlite3';
import { openDatabase } from '../engine/sqlite/open-database.js';
import { type ApiKey, ApiKeys, type ApiKeyWithSecret } from './api-keys.js';
import type { KeyStore } from './store.js';

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

  static open(target: { home: string; db?: Database.Database }): SqliteKeyStore {
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
