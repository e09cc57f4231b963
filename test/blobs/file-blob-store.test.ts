import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/blobs/file.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { testBlobStore } from './blob-store-conformance.js';

testBlobStore('home files', () => {
  const home = tmpHome('assay-blobs-');
  return { open: async () => new FileBlobStore(home.dir), cleanup: home.cleanup };
});

describe('the home’s blob files', () => {
  it('keep the paths earlier versions used, readable by this user only, with no draft left', async () => {
    const home = tmpHome('assay-blobs-');
    try {
      const store = new FileBlobStore(home.dir);
      await store.put('uploads/j.pdf', Buffer.from('%PDF-1.4'));
      await store.put('reports/credentials/r.secret', Buffer.from('sealed'));
      expect(readdirSync(join(home.dir, 'uploads'))).toEqual(['j.pdf']);
      expect(statSync(join(home.dir, 'uploads', 'j.pdf')).mode & 0o777).toBe(0o600);
      expect(statSync(join(home.dir, 'uploads')).mode & 0o777).toBe(0o700);
      expect(statSync(join(home.dir, 'reports', 'credentials')).mode & 0o777).toBe(0o700);
      expect(await store.putNew('uploads/k.pdf', Buffer.from('%PDF-1.4'))).toBe(true);
      expect(await store.putNew('uploads/k.pdf', Buffer.from('%PDF-1.5'))).toBe(false);
      expect(readdirSync(join(home.dir, 'uploads')).sort()).toEqual(['j.pdf', 'k.pdf']);
      expect(statSync(join(home.dir, 'uploads', 'k.pdf')).mode & 0o777).toBe(0o600);
    } finally {
      home.cleanup();
    }
  });
});
