/**
 * A hot folder: files dropped into one folder are taken, each once it is whole. Every watch mode goes
 * through it (`lab extract --watch` for PDFs, `report generate --watch` for request files), so a FIFO, a
 * device or a link dropped into any of them is skipped the same way, and a file copied in slowly is taken
 * once, after its writer is done.
 */
import type { Stats } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { whenStable } from './stable.js';

export type Skipped = 'not_a_file' | 'incomplete';

export interface HotFolderOptions {
  dir: string;
  /** The files the folder is for; dot files (editors' temporaries, our own markers) are never looked at. */
  matches: (path: string) => boolean;
  /** How long a file's size and time must hold still before it is looked at (watchStableMs). */
  stableMs: number;
  /**
   * Whether a still file is whole (a PDF ends with its trailer, a JSON file parses): a copy can pause
   * longer than any stability window. One that is not waits for its next change.
   */
  isWhole?: (path: string) => Promise<boolean>;
  /** Take a whole file; each version of a file (size, time, inode) is taken once. */
  take: (path: string) => Promise<void>;
  /** A file skipped (no regular file) or left waiting (not whole yet): said once until that changes. */
  onSkip: (path: string, why: Skipped) => void;
  /** A look or a take that failed; the watcher's own errors come with the folder as path. */
  onError: (path: string, error: Error) => void;
  /** Closes the folder when aborted. */
  signal?: AbortSignal;
}

export interface HotFolder {
  /** Resolves once the files already in the folder have been seen, or once the folder is closed. */
  ready: Promise<void>;
  /** Stop watching: no file is taken once it resolves. Takes under way are not waited for. */
  close(): Promise<void>;
}

export function watchHotFolder(opts: HotFolderOptions): HotFolder {
  const stop = new AbortController();
  // Per file: looked at or taken now, changed meanwhile, the version last looked at, what was last said.
  const busy = new Set<string>();
  const dirty = new Set<string>();
  const version = new Map<string, Stats>();
  const said = new Map<string, Skipped>();

  const skip = (path: string, why: Skipped) => {
    if (said.get(path) === why) return;
    said.set(path, why);
    opts.onSkip(path, why);
  };

  const look = async (path: string) => {
    const now = await whenStable(path, opts.stableMs, stop.signal);
    if (stop.signal.aborted || now === 'gone') return;
    if (now === 'not_a_file') return skip(path, 'not_a_file');
    // A change seen while the file was already being looked at brings it back unchanged: taken already.
    if (sameVersion(version.get(path), now)) return;
    version.set(path, now);
    if (opts.isWhole && !(await opts.isWhole(path))) return skip(path, 'incomplete');
    if (stop.signal.aborted) return;
    said.delete(path);
    await opts.take(path);
  };

  const seen = (path: string) => {
    if (stop.signal.aborted || !opts.matches(path)) return;
    if (busy.has(path)) {
      dirty.add(path);
      return;
    }
    busy.add(path);
    look(path)
      .catch((error: Error) => opts.onError(path, error))
      .finally(() => {
        busy.delete(path);
        if (dirty.delete(path)) seen(path);
      });
  };

  const forget = (path: string) => {
    version.delete(path);
    said.delete(path);
  };

  let watcher: FSWatcher | undefined;
  let seenAll = () => {};
  const listed = new Promise<void>((done) => {
    seenAll = done;
  });
  const root = resolve(opts.dir);
  // chokidar is loaded by the watch modes only: a one-off run does not pay for it.
  const started = import('chokidar').then(({ watch }) => {
    if (stop.signal.aborted) return;
    watcher = watch(opts.dir, {
      depth: 0,
      ignoreInitial: false,
      // A link is reported and skipped, never read through: it may lead out of the folder.
      followSymlinks: false,
      ignored: (path, stats) =>
        resolve(path) !== root &&
        (basename(path).startsWith('.') || (!!stats?.isFile() && !opts.matches(path))),
    });
    watcher
      .on('add', seen)
      .on('change', seen)
      .on('unlink', forget)
      .on('error', (error) => opts.onError(opts.dir, error as Error))
      .once('ready', seenAll);
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stop.abort();
      seenAll();
      await started.catch(() => {});
      await watcher?.close();
    })();
    return closing;
  };
  if (opts.signal?.aborted) void close();
  else opts.signal?.addEventListener('abort', () => void close(), { once: true });
  return { ready: started.then(() => listed), close };
}

function sameVersion(before: Stats | undefined, now: Stats): boolean {
  return before?.size === now.size && before.mtimeMs === now.mtimeMs && before.ino === now.ino;
}
