import { timingSafeEqual } from 'node:crypto';
import { ConflictError, NotFoundError } from '../errors.js';

// What both key stores (sqlite.ts, postgres.ts) answer and refuse alike, kept apart from their SQL.

export interface ApiKey {
  id: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface ApiKeyWithSecret extends ApiKey {
  webhookSecret: string;
}

/** A row of api_keys, as both stores read it. */
export interface KeyRow {
  id: string;
  name: string;
  key_hash: string;
  webhook_secret: string;
  created_at: number;
  revoked_at: number | null;
}

/** How long `assay serve` trusts a verified key before reading it again (revocation delay). */
export const SERVER_KEY_CACHE_MS = 2_000;

export const toKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  createdAt: Number(r.created_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

/** The stored row matches the hash looked up (compared in constant time, as the index lookup is not). */
export const sameHash = (row: KeyRow, keyHash: string): boolean =>
  timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(keyHash));

export const unknownKey = (id: string) =>
  new NotFoundError(`No API key with id ${id}.`, ['List keys with `assay keys list`.']);
export const alreadyRevoked = (id: string) => new ConflictError(`API key ${id} is already revoked.`);
