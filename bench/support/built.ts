import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/paths.js';

/** A file of the built package (dist/), which is what users run; tells to build when it is missing. */
export function builtPath(relative: string, bench: string): string {
  const file = join(packageRoot(), 'dist', relative);
  if (!existsSync(file)) throw new Error(`${bench}: ${relative} is not built; run \`npm run build\` first.`);
  return file;
}

/** A module of the built package, typed as its source (`typeof import('../src/...')`). */
export async function importBuilt<T>(relative: string, bench: string): Promise<T> {
  return (await import(pathToFileURL(builtPath(relative, bench)).href)) as T;
}
