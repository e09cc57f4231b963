import type { Stats } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { lookAt, type Seen } from './regular-file.js';

/** How long a file's size and time must hold still before it is looked at (ASSAY_WATCH_STABLE_MS). */
export function watchStableMs(env: NodeJS.ProcessEnv = process.env, fallback = 1_000): number {
  const n = Number(env.ASSAY_WATCH_STABLE_MS);
  return Number.isFinite(n) && n >= 50 ? n : fallback;
}

/**
 * `path` once its size, time and inode have held still for `stableMs`: a writer that pauses for less is
 * still writing, and a file replaced by a rename is a new file. Returns at once, without waiting, for what
 * is no regular file, and 'gone' when the file went away or `signal` aborted.
 */
export async function whenStable(path: string, stableMs: number, signal: AbortSignal): Promise<Seen> {
  let last = await lookAt(path);
  let since = Date.now();
  // A few looks per window: a change just after one look is seen well before the window could end.
  const pollMs = Math.max(10, Math.min(100, stableMs / 4));
  while (typeof last !== 'string') {
    const waited = Date.now() - since;
    if (waited >= stableMs) return last;
    const slept = await sleep(Math.min(pollMs, stableMs - waited), true, { signal }).catch(() => false);
    if (!slept) return 'gone';
    const now = await lookAt(path);
    if (typeof now !== 'string' && changed(last, now)) since = Date.now();
    last = now;
  }
  return last;
}

function changed(before: Stats, after: Stats): boolean {
  return before.size !== after.size || before.mtimeMs !== after.mtimeMs || before.ino !== after.ino;
}
