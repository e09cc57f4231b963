/**
 * What a hot folder may take: a regular file inside the folder (never a FIFO, a device, or a link that
 * leads elsewhere: reading a FIFO blocks forever), and a PDF whose writer has finished: the file ends with
 * the `%%EOF` trailer. A copy written in chunks can pause longer than any stability window; the trailer
 * says when it is whole.
 */
import { lstat, open } from 'node:fs/promises';

/** The trailer is within the last kilobyte: writers may append a line end or a few bytes after it. */
const TAIL = 1024;

export type WatchedFile = { take: true } | { take: false; why: 'not_a_file' | 'incomplete' };

export async function watchedFile(path: string): Promise<WatchedFile> {
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile()) return { take: false, why: 'not_a_file' };
  return (await endsWithTrailer(path, info.size)) ? { take: true } : { take: false, why: 'incomplete' };
}

async function endsWithTrailer(path: string, size: number): Promise<boolean> {
  if (size < 8) return false;
  const file = await open(path, 'r');
  try {
    const length = Math.min(TAIL, size);
    const tail = Buffer.alloc(length);
    await file.read(tail, 0, length, size - length);
    return tail.includes('%%EOF');
  } finally {
    await file.close();
  }
}

/** How long a file's size and time must hold still before it is looked at (ASSAY_WATCH_STABLE_MS). */
export function watchStableMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.ASSAY_WATCH_STABLE_MS);
  return Number.isFinite(n) && n >= 50 ? n : 1_000;
}
