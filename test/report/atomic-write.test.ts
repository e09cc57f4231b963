/** writeFileAtomic: whole or nothing, and a failed write leaves no temporary copy behind (#30: ENOSPC). */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/report/job/files.js';
import { tmpHome } from '../engine/support/tmp-home.js';

describe('writeFileAtomic', () => {
  const dir = tmpHome('assay-atomic-');
  afterAll(() => dir.cleanup());

  it('writes 0600 and replaces an older file whole', () => {
    const path = join(dir.dir, 'a', 'report.request.json');
    writeFileAtomic(path, 'first');
    writeFileAtomic(path, 'second');
    expect(readFileSync(path, 'utf8')).toBe('second');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir.dir, 'a'))).toEqual(['report.request.json']);
  });

  it('leaves no temporary file when the write cannot complete', () => {
    const folder = join(dir.dir, 'b');
    // The target is a folder: the rename fails after the bytes were written, as a full disk fails the write.
    mkdirSync(join(folder, 'taken.pdf'), { recursive: true });
    expect(() => writeFileAtomic(join(folder, 'taken.pdf'), Buffer.alloc(4096))).toThrow();
    expect(readdirSync(folder)).toEqual(['taken.pdf']);
    expect(existsSync(join(folder, 'taken.pdf'))).toBe(true);
  });
});
