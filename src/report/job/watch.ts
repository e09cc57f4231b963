import { resolve } from 'node:path';
import chokidar from 'chokidar';
import type { Engine } from '../../engine/engine.js';
import { isRequestFile, loadRequestFile, withoutDestinations } from './request-file.js';
import { waitForReport } from './status.js';
import { submitReport } from './submit.js';

export interface WatchOptions {
  dir: string;
  home: string;
  out?: string;
  condensed: boolean;
  /** false: render to `out` only, whatever destinations a request names (`--no-deliver`). */
  deliver?: boolean;
  log: (line: string) => void;
}

/**
 * Watch a directory for request files: each file, once fully written, becomes a report job. The idempotency
 * key is the file name plus a hash of its content, so after a restart the files already handled are skipped
 * and a file rewritten with new content is reported again. Resolves the returned close() on shutdown.
 */
export function watchRequests(
  engine: Engine,
  opts: WatchOptions,
): { ready: Promise<void>; close: () => Promise<void> } {
  const watcher = chokidar.watch(opts.dir, {
    depth: 0,
    ignoreInitial: false,
    // A file is taken only once its size has been stable this long: a half-copied request is never read.
    awaitWriteFinish: { stabilityThreshold: 300, pollInterval: 50 },
  });
  const take = async (path: string) => {
    if (!isRequestFile(path)) return;
    try {
      const file = loadRequestFile(path, { condensed: opts.condensed, hasOut: Boolean(opts.out) });
      if (opts.deliver === false) withoutDestinations(file);
      const { job, duplicate } = await submitReport(engine, file.parsed, {
        home: opts.home,
        idempotencyKey: `${file.name}.json:${file.hash}`,
        ...(opts.out ? { out: { dir: resolve(opts.out), name: file.name } } : {}),
      });
      if (duplicate)
        return opts.log(`${file.name}: already handled as job ${job.id} (${job.status}), skipped`);
      opts.log(`${file.name}: job ${job.id} pending`);
      const status = await waitForReport(engine.store, job.id);
      const error = status.error_type ? ` (${status.error_type}: ${status.error_message})` : '';
      opts.log(`${file.name}: job ${job.id} ${status.status}${error}`);
    } catch (error) {
      opts.log(`${path}: ${(error as Error).message}`);
    }
  };
  watcher.on('add', (path) => void take(path));
  watcher.on('change', (path) => void take(path));
  const ready = new Promise<void>((done) => watcher.once('ready', () => done()));
  return { ready, close: () => watcher.close() };
}
