import { basename, resolve } from 'node:path';
import type { Engine } from '../../engine/engine.js';
import { type HotFolder, watchHotFolder } from '../../hot-folder/hot-folder.js';
import { readRegular } from '../../hot-folder/regular-file.js';
import { watchStableMs } from '../../hot-folder/stable.js';
import { isRequestFile, loadRequestFile, withoutDestinations } from './request-file.js';
import { waitForReport } from './status.js';
import { submitReport } from './submit.js';

/** Request files are small: they are whole well within this when ASSAY_WATCH_STABLE_MS does not say. */
const REQUEST_STABLE_MS = 300;

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
export function watchRequests(engine: Engine, opts: WatchOptions): HotFolder {
  const take = async (path: string) => {
    const file = loadRequestFile(path, { condensed: opts.condensed, hasOut: Boolean(opts.out) });
    if (opts.deliver === false) withoutDestinations(file);
    const { job, duplicate } = await submitReport(engine, file.parsed, {
      home: opts.home,
      idempotencyKey: `${file.name}.json:${file.hash}`,
      ...(opts.out ? { out: { dir: resolve(opts.out), name: file.name } } : {}),
    });
    if (duplicate) return opts.log(`${file.name}: already handled as job ${job.id} (${job.status}), skipped`);
    opts.log(`${file.name}: job ${job.id} pending`);
    const status = await waitForReport(engine.store, job.id);
    const error = status.error_type ? ` (${status.error_type}: ${status.error_message})` : '';
    opts.log(`${file.name}: job ${job.id} ${status.status}${error}`);
  };
  return watchHotFolder({
    dir: opts.dir,
    matches: isRequestFile,
    stableMs: watchStableMs(process.env, REQUEST_STABLE_MS),
    isWhole: parsesAsJson,
    take,
    onSkip: (path, why) =>
      opts.log(
        why === 'not_a_file'
          ? `${basename(path)}: not a regular file in the folder (a link, FIFO or device): skipped.`
          : `${basename(path)}: not valid JSON (yet): waiting for the rest, or for a corrected file.`,
      ),
    onError: (path, error) => opts.log(`${path}: ${error.message}`),
  });
}

/** A request still being written does not parse; one that parses is read whole by loadRequestFile. */
async function parsesAsJson(path: string): Promise<boolean> {
  const bytes = await readRegular(path);
  if (!bytes) return false;
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
