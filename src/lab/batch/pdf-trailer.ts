import { readRegular } from '../../hot-folder/regular-file.js';

/** The trailer is within the last kilobyte: writers may append a line end or a few bytes after it. */
const TAIL = 1024;

/**
 * Whether a dropped PDF is whole: it ends with the `%%EOF` trailer. A copy written in chunks can pause
 * longer than any stability window; the trailer says when it is done.
 */
export async function endsWithPdfTrailer(path: string): Promise<boolean> {
  const tail = await readRegular(path, TAIL);
  return tail !== null && tail.length >= 8 && tail.includes('%%EOF');
}
