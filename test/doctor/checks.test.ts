import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkHome, checkKeys, checkOcrSetting, checkRefdata, checkStore } from '../../src/doctor/checks.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { syncRefdata } from '../../src/refdata/sync.js';
import { tmpHome } from '../engine/support/tmp-home.js';

describe('doctor checks', () => {
  const homes: Array<{ cleanup: () => void }> = [];
  const newHome = () => {
    const h = tmpHome('assay-doctor-');
    homes.push(h);
    return h.dir;
  };
  afterEach(() => {
    for (const h of homes.splice(0)) h.cleanup();
    vi.unstubAllEnvs();
  });

  it('home: a writable directory, a path that can be created, or a file in the way', () => {
    const home = newHome();
    expect(checkHome(home)).toMatchObject({ status: 'ok', detail: expect.stringContaining('writable') });
    expect(checkHome(join(home, 'a', 'b'))).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('created on first use'),
    });
    writeFileSync(join(home, 'file'), '');
    expect(checkHome(join(home, 'file'))).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('--home'),
    });
    expect(checkHome(join(home, 'file', 'below'))).toMatchObject({ status: 'fail' });
  });

  it.skipIf(process.platform === 'win32')('keys: 0700 and 0600, or the chmod that makes them so', () => {
    const home = newHome();
    expect(checkKeys(home).status).toBe('ok');
    const keys = join(home, 'keys');
    mkdirSync(keys, { mode: 0o700 });
    writeFileSync(join(keys, 'payload.key'), 'x', { mode: 0o600 });
    expect(checkKeys(home)).toMatchObject({ status: 'ok' });
    chmodSync(join(keys, 'payload.key'), 0o644);
    chmodSync(keys, 0o755);
    expect(checkKeys(home)).toMatchObject({
      status: 'fail',
      detail: 'keys/ is 0755, payload.key is 0644 (expected 0700 and 0600)',
      fix: `chmod 700 ${keys} && chmod 600 ${keys}/*`,
    });
  });

  it('ocr budget: the default, a setting, or a setting that is ignored', () => {
    expect(checkOcrSetting()).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^40000 ms \(default\)/),
    });
    vi.stubEnv('ASSAY_OCR_PAGE_CPU_MS', '90000');
    expect(checkOcrSetting()).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^90000 ms/) });
    vi.stubEnv('ASSAY_OCR_PAGE_CPU_MS', 'fast');
    expect(checkOcrSetting()).toMatchObject({ status: 'warn', fix: expect.stringContaining('40000') });
  });

  it('store and reference data: the schema, then the bundled dataset until a sync', async () => {
    const home = newHome();
    const store = checkStore(home, openDatabase);
    expect(store.check).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/assay\.db \(schema \d+\)$/),
    });
    const db = store.db;
    if (!db) throw new Error('store not open');
    try {
      expect(checkRefdata(db)).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining('never synced'),
      });
      const synced = await syncRefdata(db);
      expect(checkRefdata(db)).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining(synced.dataset_version),
      });
      db.prepare("UPDATE refdata_meta SET dataset_version = 'bundled-000000000000'").run();
      expect(checkRefdata(db)).toMatchObject({
        status: 'warn',
        fix: expect.stringContaining('assay refdata sync'),
      });
    } finally {
      db.close();
    }
    expect(checkRefdata(undefined).status).toBe('skip');
  });

  it('store: an unusable home fails with the fix', () => {
    const home = newHome();
    writeFileSync(join(home, 'file'), '');
    const store = checkStore(join(home, 'file'), openDatabase);
    expect(store.db).toBeUndefined();
    expect(store.check).toMatchObject({ status: 'fail', fix: expect.stringContaining('--home') });
  });
});
