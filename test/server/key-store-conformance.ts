import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SealedValueError } from '../../src/home-secrets.js';
import { hashKey, MAX_KEY_LENGTH } from '../../src/keys/material.js';
import type { KeyStore } from '../../src/keys/store.js';
import { KeyVerifier } from '../../src/keys/verifier.js';

/** One shared database (SQLite file or PostgreSQL) that several "nodes" open. */
export interface KeyBackend {
  /** A store instance on the shared database, sealing with the keys/ folder of `home`. */
  node(home: string): Promise<KeyStore>;
  /** Every webhook_secret column value as stored, to search for plain secrets. */
  storedSecrets(): Promise<string[]>;
  cleanup(): void | Promise<void>;
}

/**
 * The promises every KeyStore keeps: test/server/sqlite-key-store.test.ts and
 * test/server/pg-key-store.test.ts (against a real PostgreSQL server) run it.
 */
export function testKeyStore(name: string, backend: () => Promise<KeyBackend>): void {
  describe(`KeyStore conformance: ${name}`, () => {
    let db: KeyBackend;
    let homes: string[];
    let opened: KeyStore[];
    const newHome = () => {
      const dir = mkdtempSync(join(tmpdir(), 'assay-keys-'));
      homes.push(dir);
      return dir;
    };
    const node = async (home: string) => {
      const store = await db.node(home);
      opened.push(store);
      return store;
    };

    beforeEach(async () => {
      db = await backend();
      homes = [];
      opened = [];
    });
    afterEach(async () => {
      for (const s of opened) await s.close();
      await db.cleanup();
      for (const h of homes) rmSync(h, { recursive: true, force: true });
    });

    it('creates a key shown once; the store finds it by hash only, and lists it without secrets', async () => {
      const store = await node(newHome());
      const before = Date.now();
      const { key, apiKey } = await store.create('ci');
      expect(key).toMatch(/^assay_[A-Za-z0-9_-]{43}$/);
      expect(apiKey).toMatchObject({
        name: 'ci',
        revokedAt: null,
        webhookSecret: expect.stringMatching(/^whsec_/),
      });
      expect(apiKey.createdAt).toBeGreaterThanOrEqual(before);
      const found = await store.findActive(hashKey(key));
      expect(found).toEqual({ id: apiKey.id, name: 'ci', createdAt: apiKey.createdAt, revokedAt: null });
      expect(await store.findActive(hashKey(`${key}x`))).toBeNull();
      expect(await store.findActive(key)).toBeNull();
      const second = await store.create('other');
      expect((await store.list()).map((k) => k.id)).toEqual([apiKey.id, second.apiKey.id]);
      expect(JSON.stringify(await store.list())).not.toContain('whsec_');
    });

    it('revokes once: the key is no longer found; again is a conflict, an unknown id not found', async () => {
      const store = await node(newHome());
      const { key, apiKey } = await store.create('ci');
      const revoked = await store.revoke(apiKey.id);
      expect(revoked).toMatchObject({ id: apiKey.id, revokedAt: expect.any(Number) });
      expect(await store.findActive(hashKey(key))).toBeNull();
      expect((await store.list())[0]?.revokedAt).toBe(revoked.revokedAt);
      await expect(store.revoke(apiKey.id)).rejects.toMatchObject({ code: 'conflict' });
      await expect(store.revoke('no-such-key')).rejects.toMatchObject({ code: 'not_found' });
    });

    it('a key made on one node is accepted on another; a revoked key stops within the cache time', async () => {
      const home = newHome();
      const [a, b] = [await node(home), await node(home)];
      const { key, apiKey } = await a.create('shared');
      const cacheMs = 300;
      const verifier = new KeyVerifier(b, cacheMs);
      expect(await verifier.check(key)).toMatchObject({ id: apiKey.id });
      // Cached now: answered without a promise, so the request path does not wait on the store.
      expect(verifier.check(key)).toMatchObject({ id: apiKey.id });
      await a.revoke(apiKey.id);
      await sleep(cacheMs + 50);
      expect(await verifier.check(key)).toBeNull();
      // The refusal is remembered as long: a client retrying with it does not reach the store each time.
      expect(verifier.check(key)).toBeNull();
      expect(verifier.check('not-a-key')).toBeNull();
      // Past any key's length the value is refused unread: nothing so long is read or remembered.
      expect(verifier.check(`${key}${'x'.repeat(MAX_KEY_LENGTH)}`)).toBeNull();
    });

    it('webhook secrets are sealed in the database and open on any node holding the same keys folder', async () => {
      const home = newHome();
      const [a, b] = [await node(home), await node(home)];
      const { apiKey } = await a.create('hooks');
      expect(await b.webhookSecret(apiKey.id)).toBe(apiKey.webhookSecret);
      const body = apiKey.webhookSecret.slice('whsec_'.length);
      for (const stored of await db.storedSecrets()) expect(stored).not.toContain(body);
      expect(await b.webhookSecret('no-such-key')).toBeNull();
      await a.revoke(apiKey.id);
      expect(await b.webhookSecret(apiKey.id)).toBeNull();
    });

    it('a node without the keys folder the secrets were sealed with cannot read them', async () => {
      const a = await node(newHome());
      const { apiKey } = await a.create('hooks');
      const stranger = await node(newHome());
      await expect(stranger.webhookSecret(apiKey.id)).rejects.toBeInstanceOf(SealedValueError);
      // The key check does not need the keys folder: only signing webhooks does.
      expect((await stranger.list()).map((k) => k.id)).toEqual([apiKey.id]);
    });
  });
}
