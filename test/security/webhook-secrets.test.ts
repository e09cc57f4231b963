import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { SealedValueError } from '../../src/home-secrets.js';
import { ApiKeys } from '../../src/keys/sqlite.js';
import { assay, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startTestServer } from '../server/support/test-server.js';

/** Every byte of the database and its WAL, as text, for searching. */
function databaseText(home: string): string {
  return readdirSync(home)
    .filter((f) => f.startsWith('assay.db') || f.endsWith('.db') || f.endsWith('-wal'))
    .map((f) => readFileSync(join(home, f)).toString('latin1'))
    .join('\n');
}

/** Issue #17 item 4: webhook signing secrets are not readable from a copy of the database. */
describe('webhook secrets: sealed at rest with a key of the home, never in the database in the clear', () => {
  const tmp = tmpHome('assay-webhook-secrets-');
  afterAll(() => tmp.cleanup());

  it('`keys create` shows the secret once and stores it sealed; the key that signs opens it again', async () => {
    const home = join(tmp.dir, 'created');
    const created = json<{ id: string; webhookSecret: string }>(
      await assay(['keys', 'create', '--name', 'hooks', '--json'], { ASSAY_HOME: home }),
    );
    expect(created.webhookSecret).toMatch(/^whsec_/);
    const body = created.webhookSecret.slice('whsec_'.length);
    expect(databaseText(home)).not.toContain(body);
    const db = openDatabase(home);
    try {
      const stored = db.prepare('SELECT webhook_secret FROM api_keys').pluck().get() as string;
      expect(stored).not.toContain(body);
      expect(new ApiKeys(db, { home }).webhookSecret(created.id)).toBe(created.webhookSecret);
    } finally {
      db.close();
    }
  });

  it('a copy of the database without the home keys folder cannot give the secret', async () => {
    const home = join(tmp.dir, 'copied');
    const created = json<{ id: string }>(
      await assay(['keys', 'create', '--name', 'hooks', '--json'], { ASSAY_HOME: home }),
    );
    const elsewhere = join(tmp.dir, 'elsewhere');
    cpSync(home, elsewhere, { recursive: true, filter: (src) => !src.includes(`${join(home, 'keys')}`) });
    const db = openDatabase(elsewhere);
    try {
      expect(() => new ApiKeys(db, { home: elsewhere }).webhookSecret(created.id)).toThrow(SealedValueError);
    } finally {
      db.close();
    }
  });

  it('a secret an older version wrote in the clear is sealed in place when the server starts', async () => {
    const home = join(tmp.dir, 'legacy');
    const plain = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const before = openDatabase(home);
    before
      .prepare('INSERT INTO api_keys (id, name, key_hash, webhook_secret, created_at) VALUES (?, ?, ?, ?, ?)')
      .run('legacy-key', 'old', 'f'.repeat(64), plain, Date.now());
    before.close();
    const server = await startTestServer(home);
    try {
      const db = openDatabase(home);
      try {
        const stored = db.prepare('SELECT webhook_secret FROM api_keys').pluck().get() as string;
        expect(stored).not.toContain(plain.slice(6));
        expect(new ApiKeys(db, { home }).webhookSecret('legacy-key')).toBe(plain);
      } finally {
        db.close();
      }
    } finally {
      await server.close();
    }
  });
});
