/**
 * Reading a file of a hot folder without ever blocking on it. Anyone may drop anything into the folder: a
 * FIFO blocks its reader until a writer comes, a device never ends, a link leads out of the folder. The
 * lstat before a read catches them; the open flags cover what is swapped in between the lstat and the read.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';

// O_NONBLOCK: a FIFO opens at once instead of waiting for a writer (regular files ignore it). O_NOFOLLOW: a
// link fails to open instead of being read through. Both are absent on Windows, which has no FIFOs to fear.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

export type Seen = Stats | 'not_a_file' | 'gone';

/** What `path` is now, without following a link or opening it. */
export async function lookAt(path: string): Promise<Seen> {
  const info = await lstat(path).catch(() => null);
  if (!info) return 'gone';
  return info.isFile() ? info : 'not_a_file';
}

/**
 * The bytes of `path` when it is a regular file (the last `tail` bytes when given), else null. A caller
 * checking that a file is whole reads its tail, a caller taking it reads it all.
 */
export async function readRegular(path: string, tail?: number): Promise<Buffer | null> {
  const file = await openRegular(path);
  if (!file) return null;
  try {
    if (tail === undefined) return await file.handle.readFile();
    const length = Math.min(tail, file.size);
    const bytes = Buffer.alloc(length);
    await file.handle.read(bytes, 0, length, file.size - length);
    return bytes;
  } finally {
    await file.handle.close();
  }
}

async function openRegular(path: string): Promise<{ handle: FileHandle; size: number } | null> {
  const handle = await open(path, READ_FLAGS).catch(() => null);
  if (!handle) return null;
  const info = await handle.stat().catch(() => null);
  if (info?.isFile()) return { handle, size: info.size };
  await handle.close();
  return null;
}
