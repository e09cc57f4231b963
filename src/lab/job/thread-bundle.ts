import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, Script } from 'node:vm';

/**
 * The extraction thread from one file. `npm run build` bundles thread-worker.ts with all it imports, pdf.js
 * included, into dist/thread/thread-worker.cjs, with a V8 code cache beside it holding what a run over the
 * text fixtures compiled (scripts/bundle-thread-worker.mjs). A new thread then compiles one script from its
 * cache instead of resolving, reading and compiling its ES modules one by one: thread start plus the first
 * document's cold run went from 976 to 601 ms (bench thread-start, load 9). Without the bundle (only
 * `tsc` was run) the thread loads from the modules as before; a cache V8 rejects (another Node, other flags)
 * or one from another build only costs the compilation it would have saved.
 */

export const BUNDLE_FILE = 'thread-worker.cjs';
export const CACHE_FILE = 'thread-worker.cjs.cache';
/** The last line of the bundle: `// assay-thread-bundle <sha256 of what precedes it>`. */
export const BUNDLE_ID_MARK = '\n// assay-thread-bundle ';
/** Where the build puts the bundle, from this module (dist/src/lab/job/) or its source. */
export const BUNDLE_DIR = new URL('../../../thread/', import.meta.url);

/**
 * The file the build writes: the bundle as the function it runs as (the CommonJS wrapper, so that the thread
 * compiles the file's text as it is read, without a second copy of 4 MB of source), then its id line.
 */
export function bundleFileText(bundle: string): string {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${bundle}\n})`;
  return `${wrapped}${BUNDLE_ID_MARK}${createHash('sha256').update(wrapped).digest('hex')}\n`;
}

function bundleId(source: string): string | undefined {
  const at = source.lastIndexOf(BUNDLE_ID_MARK);
  return at === -1 ? undefined : source.slice(at + BUNDLE_ID_MARK.length).trim();
}

/** The cache file: the id of the bundle it was made from, a newline, then V8's code cache. */
export function encodeCache(source: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${bundleId(source)}\n`), data]);
}

function decodeCache(file: Buffer, source: string): Buffer | undefined {
  const nl = file.indexOf(10);
  const id = bundleId(source);
  return id && nl !== -1 && file.toString('latin1', 0, nl) === id ? file.subarray(nl + 1) : undefined;
}

export interface LoadedThreadBundle {
  /** What the bundle exports (thread-worker.ts's exports). */
  exports: Record<string, unknown>;
  script: Script;
  cacheUsed: boolean;
}

/**
 * Compile and run the bundle (the text bundleFileText made) as a CommonJS module at `file`, so what it leaves out (the native canvas
 * package) resolves from there. pdf.js's own rare `import()` calls (decoders it loads on demand) go to
 * Node's loader, as they would from the modules.
 */
export function runThreadBundle(source: string, file: string, cache?: Buffer): LoadedThreadBundle {
  const script = new Script(source, {
    filename: file,
    cachedData: cache,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = new Module(file);
  module.filename = file;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports as Record<string, unknown>,
    script,
    cacheUsed: cache !== undefined && !script.cachedDataRejected,
  };
}

/**
 * The bundle in `dir`, compiled with its cache when the cache was made from it, and run. Undefined when
 * there is no bundle to run.
 */
export function loadThreadBundle(dir: URL): LoadedThreadBundle | undefined {
  return loadBundleFile(fileURLToPath(new URL(BUNDLE_FILE, dir)), new URL(CACHE_FILE, dir));
}

/** A bundle `file` run as loadThreadBundle runs the thread's, with the cache in `cacheFile` (the commands'). */
export function loadBundleFile(file: string, cacheFile: string | URL): LoadedThreadBundle | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
  let cache: Buffer | undefined;
  try {
    cache = decodeCache(readFileSync(cacheFile), source);
  } catch {
    // No cache: the one file still saves resolving and reading the modules.
  }
  return runThreadBundle(source, file, cache);
}

/** A thread's entry (thread-pool.ts starts it): the bundle when built, else thread-worker.js itself. */
export async function startThread(): Promise<void> {
  if (!loadThreadBundle(BUNDLE_DIR)) await import('./thread-worker.js');
}

/**
 * V8 keeps a script's source as one string, two bytes a character if any character is beyond Latin-1.
 * esbuild escapes such characters in string literals, but not in regular expressions, String.raw templates
 * (which this project builds RegExp sources with) or comments, and a dozen of them made the whole 4 MB
 * bundle an 8 MB string in every thread. Each is written as its \\u escape instead, which denotes the same
 * character in all three places; one after a backslash would not (a backslash, then "u2013"), so that
 * throws rather than change the meaning.
 */
export function latin1Source(code: string): string {
  return code.replace(/[\u0100-\uffff]/g, (ch, at: number) => {
    let slashes = 0;
    while (code[at - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 1) throw new Error(`A backslash precedes a non-Latin-1 character at ${at}.`);
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
