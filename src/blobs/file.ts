import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type BlobInfo, type BlobStore, checkBlobKey } from './store.js';

const TMP = /\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * Blobs as files under the home, at the paths earlier versions used (`<home>/uploads/<id>.pdf`,
 * `<home>/reports/...`): one box needs no copy in the database, an operator can still find a kept PDF,
 * and a home upgraded with jobs in flight keeps working. Files are 0600 in 0700 folders, written under a
 * private name and renamed into place.
 */
export class FileBlobStore implements BlobStore {
  constructor(readonly home: string) {}

  private path(key: string): string {
    return join(this.home, checkBlobKey(key));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, path);
    } catch (error) {
      // A full disk leaves no part of the file behind (it may be a PDF with health information).
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async putNew(key: string, bytes: Uint8Array): Promise<boolean> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await writeFile(tmp, bytes, { mode: 0o600 });
      // link(2) never replaces: of writers racing for one name, one links and the others get EEXIST.
      await link(tmp, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    // Keys are paths: walk the deepest folder the prefix names, and every folder under it.
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    const found: BlobInfo[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(join(this.home, dir || '.'), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const key = `${dir}${entry.name}`;
        if (entry.isDirectory()) {
          if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(`${key}/`);
          continue;
        }
        if (!entry.isFile() || !key.startsWith(prefix) || TMP.test(entry.name)) continue;
        const info = await stat(join(this.home, key)).catch(() => null);
        if (info) found.push({ key, size: info.size, writtenAt: info.mtimeMs });
      }
    };
    await walk(folder);
    return found.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  }

  async close(): Promise<void> {}
}
