import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ConflictError, NotFoundError } from '../errors.js';
import { homeKeySync, openSealedJson, type Sealed, sealJson } from '../home-secrets.js';

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

/** The home's key that seals webhook secrets in the database (`<home>/keys/webhook-secrets.key`). */
const SEAL_KEY_NAME = 'webhook-secrets';
/** How a secret from before sealing looks in the column; it is sealed in place the next time keys open. */
const PLAIN_SECRET = 'whsec_';

const toKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/**
 * API keys in the home's SQLite file, so `assay keys ...` and `assay serve` share them. The key itself is
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
  private sealKeyValue: string | undefined;

  /**
   * Keys verified in the last `cacheMs`, by hash: a database read per request was a large share of a small
   * request's cost. A revoked key is therefore refused at most `cacheMs` later (by this process).
   */
  private readonly recent = new Map<string, { key: ApiKey; until: number }>();

  private readonly cacheMs: number;

  constructor(
    db: Database.Database,
    private readonly opts: { home: string; cacheMs?: number },
  ) {
    this.cacheMs = opts.cacheMs ?? 0;
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

  private get sealKey(): string {
    this.sealKeyValue ??= homeKeySync(this.opts.home, SEAL_KEY_NAME);
    return this.sealKeyValue;
  }

  private seal(secret: string): string {
    return JSON.stringify(sealJson(secret, this.sealKey));
  }

  private open(stored: string): string {
    if (stored.startsWith(PLAIN_SECRET)) return stored;
    return openSealedJson(JSON.parse(stored) as Sealed, this.sealKey) as string;
  }

  /** Seal the webhook secrets written in the clear by versions before sealing; returns how many. */
  sealPlainSecrets(): number {
    let sealed = 0;
    for (const row of this.plainRows.all(`${PLAIN_SECRET}%`))
      sealed += this.resealStmt.run(this.seal(row.webhook_secret), row.id, row.webhook_secret).changes;
    return sealed;
  }

  /** A new key; the plain key and webhook secret are returned here and never again. */
  create(name: string): { key: string; apiKey: ApiKeyWithSecret } {
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const id = randomUUID();
    const now = Date.now();
    this.insert.run(id, name, hashKey(key), this.seal(webhookSecret), now);
    return { key, apiKey: { id, name, createdAt: now, revokedAt: null, webhookSecret } };
  }

  /** The active key matching a presented header value, or null. */
  verify(presented: string | undefined, now = Date.now()): ApiKey | null {
    if (!presented?.startsWith(KEY_PREFIX)) return null;
    const hash = hashKey(presented);
    const cached = this.recent.get(hash);
    if (cached && cached.until > now) return cached.key;
    const row = this.byHash.get(hash);
    if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) return null;
    const key = toKey(row);
    if (this.recent.size >= MAX_CACHED_KEYS) this.recent.clear();
    this.recent.set(hash, { key, until: now + this.cacheMs });
    return key;
  }

  /** The signing secret of an active key (webhooks are not sent for revoked keys). */
  webhookSecret(id: string): string | null {
    const row = this.activeById.get(id);
    return row ? this.open(row.webhook_secret) : null;
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
