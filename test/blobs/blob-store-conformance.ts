import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/blobs/store.js';

/** A backing (a home, a database) and a way to open another instance of the store over it, as a node does. */
export interface BlobBacking {
  open(): Promise<BlobStore>;
  cleanup(): void | Promise<void>;
}

const MIB = 1024 * 1024;

/** Bytes that differ at every position a chunking bug could land on: no two 1 MiB stretches alike. */
const bytesOf = (size: number) => randomBytes(size);

/**
 * The promises every BlobStore keeps: test/blobs/file-blob-store.test.ts (the home's files) and
 * test/blobs/pg-blob-store.test.ts (a real PostgreSQL server) run it.
 */
export function testBlobStore(name: string, backing: () => BlobBacking | Promise<BlobBacking>): void {
  describe(`BlobStore conformance: ${name}`, () => {
    let current: BlobBacking;
    let store: BlobStore;
    const opened: BlobStore[] = [];
    const another = async () => {
      const s = await current.open();
      opened.push(s);
      return s;
    };

    beforeEach(async () => {
      current = await backing();
      store = await another();
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      await current.cleanup();
    });

    it.each([
      ['empty', 0],
      ['1 byte', 1],
      ['5 MiB - 1', 5 * MIB - 1],
      ['5 MiB', 5 * MIB],
      ['5 MiB + 1', 5 * MIB + 1],
    ])('gives back exactly what was put: %s', async (_label, size) => {
      const bytes = bytesOf(size);
      await store.put('uploads/a.pdf', bytes);
      const back = await store.get('uploads/a.pdf');
      expect(back?.length).toBe(size);
      expect(back?.equals(bytes)).toBe(true);
    });

    it('a missing key is null, not an error or empty bytes', async () => {
      expect(await store.get('uploads/none.pdf')).toBeNull();
      await store.put('uploads/empty.pdf', new Uint8Array(0));
      expect(await store.get('uploads/empty.pdf')).toEqual(Buffer.alloc(0));
    });

    it('deletes a key, and deleting a missing one is not an error', async () => {
      await store.put('reports/r.pdf', bytesOf(3 * MIB));
      await store.delete('reports/r.pdf');
      expect(await store.get('reports/r.pdf')).toBeNull();
      await expect(store.delete('reports/r.pdf')).resolves.toBeUndefined();
      expect(await store.list('reports/')).toEqual([]);
    });

    it('an overwrite replaces the whole blob, shorter or longer, leaving no chunk of the old one', async () => {
      await store.put('k/x', bytesOf(3 * MIB + 5));
      const shorter = bytesOf(MIB - 1);
      await store.put('k/x', shorter);
      expect((await store.get('k/x'))?.equals(shorter)).toBe(true);
      const longer = bytesOf(4 * MIB + 1);
      await store.put('k/x', longer);
      expect((await store.get('k/x'))?.equals(longer)).toBe(true);
    });

    it('a reader during an overwrite sees the old blob or the new one whole, never a mix or a part', async () => {
      const old = Buffer.alloc(5 * MIB + 1, 0xaa);
      const next = Buffer.alloc(4 * MIB + 7, 0xbb);
      await store.put('uploads/race.pdf', old);
      const reader = await another();
      let writing = true;
      const seen = new Set<string>();
      const reads = (async () => {
        while (writing) {
          const got = await reader.get('uploads/race.pdf');
          if (got?.equals(old)) seen.add('old');
          else if (got?.equals(next)) seen.add('new');
          else seen.add(`torn:${got?.length}`);
        }
      })();
      for (let i = 0; i < 3; i++) {
        await store.put('uploads/race.pdf', i % 2 ? old : next);
      }
      writing = false;
      await reads;
      expect([...seen].filter((s) => s.startsWith('torn'))).toEqual([]);
      expect((await reader.get('uploads/race.pdf'))?.equals(next)).toBe(true);
    });

    it('two writers of one key at once: the blob ends as one of them, whole', async () => {
      const a = Buffer.alloc(2 * MIB + 3, 1);
      const b = Buffer.alloc(3 * MIB + 9, 2);
      const other = await another();
      await Promise.all([store.put('k/both', a), other.put('k/both', b)]);
      const got = await store.get('k/both');
      expect(got?.equals(a) || got?.equals(b)).toBe(true);
    });

    it('putNew: of writers racing for one key exactly one stores, the rest change nothing', async () => {
      const writers = [store, await another(), await another()];
      const bodies = Array.from({ length: 9 }, (_, i) => Buffer.alloc(MIB + i, i + 1));
      const won = await Promise.all(
        bodies.map((b, i) => (writers[i % 3] as BlobStore).putNew('uploads/n.pdf', b)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = bodies[won.indexOf(true)];
      expect((await store.get('uploads/n.pdf'))?.equals(winner as Buffer)).toBe(true);
      // A loser later still finds the key taken, and leaves it whole; no private copy is left listed.
      expect(await store.putNew('uploads/n.pdf', bytesOf(10))).toBe(false);
      expect((await store.get('uploads/n.pdf'))?.equals(winner as Buffer)).toBe(true);
      expect((await store.list('uploads/')).map((b) => b.key)).toEqual(['uploads/n.pdf']);
      // Once deleted, the key is free again.
      await store.delete('uploads/n.pdf');
      expect(await store.putNew('uploads/n.pdf', bytesOf(10))).toBe(true);
    });

    it('two instances over one backing (two nodes) see each other’s writes and deletes', async () => {
      const other = await another();
      const bytes = bytesOf(MIB + 1);
      await store.put('uploads/shared.pdf', bytes);
      expect((await other.get('uploads/shared.pdf'))?.equals(bytes)).toBe(true);
      await other.delete('uploads/shared.pdf');
      expect(await store.get('uploads/shared.pdf')).toBeNull();
    });

    it('lists by prefix with sizes and write times, for pruning', async () => {
      const before = Date.now() - 1_000;
      await store.put('uploads/1.pdf', bytesOf(10));
      await store.put('uploads/2.pdf', bytesOf(MIB + 1));
      await store.put('reports/1.pdf', bytesOf(1));
      await store.put('reports/credentials/c.secret', bytesOf(1));
      const uploads = await store.list('uploads/');
      expect(uploads.map((b) => [b.key, b.size])).toEqual([
        ['uploads/1.pdf', 10],
        ['uploads/2.pdf', MIB + 1],
      ]);
      for (const b of uploads) expect(b.writtenAt).toBeGreaterThanOrEqual(before);
      expect((await store.list('reports/credentials/')).map((b) => b.key)).toEqual([
        'reports/credentials/c.secret',
      ]);
      // A prefix covers every key under it, as in the database: the home store walks sub-folders.
      expect((await store.list('reports/')).map((b) => b.key)).toEqual([
        'reports/1.pdf',
        'reports/credentials/c.secret',
      ]);
    });

    it('refuses keys that could leave the store’s folder', async () => {
      for (const key of ['../x', '/etc/passwd', 'uploads/../../x', 'a//b', '']) {
        await expect(store.put(key, bytesOf(1))).rejects.toThrow(/invalid blob key/);
      }
    });
  });
}
