import { execFileSync } from 'node:child_process';
import { appendFileSync, constants, openSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HotFolder, type Skipped, watchHotFolder } from '../../src/hot-folder/hot-folder.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const STABLE_MS = 300;

/** A hot folder over a fresh temp folder that records what it took, skipped and failed, with when. */
function recorded(opts: { isWhole?: (path: string) => Promise<boolean>; take?: () => Promise<void> } = {}) {
  const dir = tmpHome('assay-hot-folder-');
  const taken: Array<{ path: string; at: number; size: number }> = [];
  const skipped: Array<{ path: string; why: Skipped }> = [];
  const errors: Error[] = [];
  const folder = watchHotFolder({
    dir: dir.dir,
    matches: (path) => path.endsWith('.txt'),
    stableMs: STABLE_MS,
    isWhole: opts.isWhole,
    take: async (path) => {
      taken.push({ path, at: Date.now(), size: statSync(path).size });
      await opts.take?.();
    },
    onSkip: (path, why) => skipped.push({ path, why }),
    onError: (_path, error) => errors.push(error),
  });
  return { dir: dir.dir, folder, taken, skipped, errors, cleanup: dir.cleanup };
}

describe('hot folder (real temp folders)', () => {
  const open: Array<{ folder: HotFolder; cleanup: () => void }> = [];
  const start = (opts?: Parameters<typeof recorded>[0]) => {
    const run = recorded(opts);
    open.push(run);
    return run;
  };
  afterEach(async () => {
    for (const run of open.splice(0)) {
      await run.folder.close();
      run.cleanup();
    }
  });

  it('takes a file written in chunks once, only after it has held still', async () => {
    const run = start();
    await run.folder.ready;
    const file = join(run.dir, 'slow.txt');
    // Pauses shorter than the stability window: the writer is still at it.
    let lastWrite = 0;
    for (let i = 0; i < 4; i++) {
      appendFileSync(file, 'x'.repeat(1000));
      lastWrite = Date.now();
      await sleep(STABLE_MS / 3);
    }
    await vi.waitFor(() => expect(run.taken).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(run.taken[0]?.size).toBe(4000);
    expect(run.taken[0]?.at).toBeGreaterThanOrEqual(lastWrite + STABLE_MS);
    await sleep(STABLE_MS * 2);
    expect(run.taken).toHaveLength(1);
    expect(run.errors).toEqual([]);
  });

  it('leaves a still file that is not whole waiting, says so once, and takes it when it is', async () => {
    const run = start({ isWhole: async (path) => (await readFile(path, 'utf8')).endsWith('END') });
    await run.folder.ready;
    const file = join(run.dir, 'paused.txt');
    // Pauses longer than the window: only the per-use check tells the file is not whole yet.
    appendFileSync(file, 'first part ');
    await sleep(STABLE_MS * 2);
    appendFileSync(file, 'second part ');
    await sleep(STABLE_MS * 2);
    expect(run.taken).toEqual([]);
    appendFileSync(file, 'END');
    await vi.waitFor(() => expect(run.taken).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(run.skipped).toEqual([{ path: file, why: 'incomplete' }]);
  });

  it('skips a FIFO and a link out of the folder with a warning, never blocking, and still takes a later file', async () => {
    const outside = tmpHome('assay-hot-folder-outside-');
    try {
      writeFileSync(join(outside.dir, 'secret.txt'), 'not yours');
      const run = start();
      await run.folder.ready;
      execFileSync('mkfifo', [join(run.dir, 'pipe.txt')]);
      symlinkSync(join(outside.dir, 'secret.txt'), join(run.dir, 'link.txt'));
      await vi.waitFor(() => expect(run.skipped).toHaveLength(2), { timeout: 5_000, interval: 20 });
      expect(run.skipped).toEqual(
        expect.arrayContaining([
          { path: join(run.dir, 'pipe.txt'), why: 'not_a_file' },
          { path: join(run.dir, 'link.txt'), why: 'not_a_file' },
        ]),
      );
      writeFileSync(join(run.dir, 'real.txt'), 'a real file');
      await vi.waitFor(() => expect(run.taken.map((t) => t.path)).toEqual([join(run.dir, 'real.txt')]), {
        timeout: 5_000,
        interval: 20,
      });
      expect(run.errors).toEqual([]);
      // Nothing holds the FIFO open for reading: a writer that will not wait finds no reader.
      const fifo = () => openSync(join(run.dir, 'pipe.txt'), constants.O_WRONLY | constants.O_NONBLOCK);
      expect(fifo).toThrow(expect.objectContaining({ code: 'ENXIO' }));
    } finally {
      outside.cleanup();
    }
  });

  it('close() returns at once, with a file half settled and a take that never ends, and takes nothing after', async () => {
    const run = start({ take: () => new Promise<void>(() => {}) });
    await run.folder.ready;
    writeFileSync(join(run.dir, 'taken.txt'), 'taken');
    await vi.waitFor(() => expect(run.taken).toHaveLength(1), { timeout: 5_000, interval: 20 });
    writeFileSync(join(run.dir, 'settling.txt'), 'still settling');
    await sleep(STABLE_MS / 3);
    const before = Date.now();
    await run.folder.close();
    expect(Date.now() - before).toBeLessThan(STABLE_MS);
    await sleep(STABLE_MS * 2);
    expect(run.taken.map((t) => t.path)).toEqual([join(run.dir, 'taken.txt')]);
  });
});
