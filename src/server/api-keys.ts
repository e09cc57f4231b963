import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ConflictError, NotFoundError } from '../errors.js';

export interface ApiKey {
  id: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface ApiKeyWithSecret extends ApiKey {
  webhookSecret: string;
}

interface KeyRow {
  id: string;
  name: string;
  key_hash: string;
  webhook_secret: string;
  created_at: number;
  revoked_at: number | null;
}

const KEY_PREFIX = 'assay_';
const MAX_CACHED_KEYS = 1_000;
/** How long `assay serve` trusts a verified key before reading it again (revocation delay). */
export const SERVER_KEY_CACHE_MS = 2_000;

// Keys are 256 random bits, so a plain SHA-256 is enough: there is nothing to brute-force. The one-shot
// crypto.hash is used because this runs on every request and costs half of createHash's object round trip.
const hashKey = (key: string): string => hash('sha256', key, 'hex');

const toKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** API keys in the job store's SQLite file, so `assay keys ...` and `assay serve` share them. */
export class ApiKeys {
  private readonly byHash;
  private readonly insert;
  private readonly all;
  private readonly activeById;
  private readonly revokeStmt;

  /**
   * Keys verified in the last `cacheMs`, by hash: a database read per request was a large share of a small
   * request's cost. A revoked key is therefore refused at most `cacheMs` later (by this process).
   */
  private readonly recent = new Map<string, { key: ApiKeyWithSecret; until: number }>();

  constructor(
    db: Database.Database,
    private readonly cacheMs = 0,
  ) {
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
  }

  /** A new key; the plain key and webhook secret are returned here and never again. */
  create(name: string): { key: string; apiKey: ApiKeyWithSecret } {
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const id = randomUUID();
    const now = Date.now();
    this.insert.run(id, name, hashKey(key), webhookSecret, now);
    return { key, apiKey: { id, name, createdAt: now, revokedAt: null, webhookSecret } };
  }

  /** The active key matching a presented header value, or null. */
  verify(presented: string | undefined, now = Date.now()): ApiKeyWithSecret | null {
    if (!presented?.startsWith(KEY_PREFIX)) return null;
    const hash = hashKey(presented);
    const cached = this.recent.get(hash);
    if (cached && cached.until > now) return cached.key;
    const row = this.byHash.get(hash);
    if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) return null;
    const key = { ...toKey(row), webhookSecret: row.webhook_secret };
    if (this.recent.size >= MAX_CACHED_KEYS) this.recent.clear();
    this.recent.set(hash, { key, until: now + this.cacheMs });
    return key;
  }

  /** The signing secret of an active key (webhooks are not sent for revoked keys). */
  webhookSecret(id: string): string | null {
    return this.activeById.get(id)?.webhook_secret ?? null;
  }

  list(): ApiKey[] {
    return this.all.all().map(toKey);
  }

  revoke(id: string): ApiKey {
    const row = this.revokeStmt.get(Date.now(), id);
    if (row) return toKey(row);
    if (!this.all.all().some((r) => r.id === id))
      throw new NotFoundError(`No API key with id ${id}.`, ['List keys with `assay keys list`.']);
    throw new ConflictError(`API key ${id} is already revoked.`);
  }
}
