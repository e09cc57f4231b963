import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../src/engine/engine.js';
import { homeKey, keysDir, openSealedJson, SealedValueError, sealJson } from '../src/home-secrets.js';
import { createRegistry } from '../src/kinds.js';
import { checkUploadUrl, createPendingUpload } from '../src/lab/http/presigned-upload.js';

describe('home secrets', () => {
  const homes: string[] = [];
  const newHome = () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-secrets-'));
    homes.push(dir);
    return dir;
  };
  afterEach(() => {
    delete process.env.ASSAY_KEYS_DIR;
    for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('ASSAY_KEYS_DIR gives two homes (two nodes) one keys folder: the same keys, none under either home', async () => {
    const [a, b, shared] = [newHome(), newHome(), newHome()];
    process.env.ASSAY_KEYS_DIR = join(shared, 'keys');
    expect(keysDir(a)).toBe(join(shared, 'keys'));
    expect(await homeKey(a, 'dob')).toBe(await homeKey(b, 'dob'));
    // The upload URL one node signs is accepted by the other.
    const engine = Engine.open(a, createRegistry({ home: a }));
    try {
      const { job, uploadUrl } = await createPendingUpload(engine, a, { baseUrl: 'https://a.example' });
      const url = new URL(uploadUrl);
      const [expires, signature] = [url.searchParams.get('expires'), url.searchParams.get('signature')];
      expect(await checkUploadUrl(b, job.id, expires ?? '', signature ?? '')).toBe('ok');
    } finally {
      await engine.close();
    }
    expect(existsSync(join(a, 'keys')) || existsSync(join(b, 'keys'))).toBe(false);
    expect(statSync(join(shared, 'keys')).mode & 0o777).toBe(0o700);
    delete process.env.ASSAY_KEYS_DIR;
    expect(keysDir(a)).toBe(join(a, 'keys'));
  });

  it('makes a key once, readable by its owner only, and the same for racing callers', async () => {
    const home = newHome();
    const [a, b] = await Promise.all([homeKey(home, 'payload'), homeKey(home, 'payload')]);
    expect(a).toBe(b);
    expect(Buffer.from(a, 'base64')).toHaveLength(32);
    expect(await homeKey(home, 'payload')).toBe(a);
    expect(await homeKey(home, 'other')).not.toBe(a);
    expect(statSync(join(home, 'keys', 'payload.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'keys')).mode & 0o777).toBe(0o700);
  });

  it('seals JSON so that the text is gone and only the same key opens it', async () => {
    const key = await homeKey(newHome(), 'payload');
    const value = { glucose: 'LOINC 2345-7 = 97.3 mg/dL', events: [1, 2] };
    const sealed = sealJson(value, key);
    expect(sealed.sealed).toBe('aes-256-gcm/1');
    expect(JSON.stringify(sealed)).not.toMatch(/glucose|97\.3|2345-7/);
    expect(openSealedJson(sealed, key)).toEqual(value);
    // A fresh IV per seal: the same value never seals to the same bytes.
    expect(sealJson(value, key).data).not.toBe(sealed.data);

    const otherKey = await homeKey(newHome(), 'payload');
    expect(() => openSealedJson(sealed, otherKey)).toThrow(SealedValueError);
    const flipped = Buffer.from(sealed.data, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => openSealedJson({ ...sealed, data: flipped.toString('base64') }, key)).toThrow(
      SealedValueError,
    );
  });

  it('a key file replaced by hand is used as it is: values sealed before no longer open', async () => {
    const home = newHome();
    const sealed = sealJson({ a: 1 }, await homeKey(home, 'payload'));
    writeFileSync(join(home, 'keys', 'payload.key'), Buffer.alloc(32, 7).toString('base64'));
    await expect(async () => openSealedJson(sealed, await homeKey(home, 'payload'))).rejects.toThrow(
      /cannot be opened/,
    );
  });
});
