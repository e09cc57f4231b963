import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { importCommand } from './command-bundle.js';

/**
 * oclif from one file: `npm run build` bundles @oclif/core and the packages it loads at start-up into
 * dist/vendor/oclif-core.cjs (scripts/bundle-oclif.mjs) with a V8 code cache beside it, and bin/run.js loads
 * that before anything imports '@oclif/core'. Resolving and compiling oclif's ~200 modules one by one was
 * most of what `assay --help` cost (120 of 250 ms of CPU, against 100 ms for Node itself); the bundle with
 * its code cache takes about 20.
 *
 * The bundle is registered in require.cache under the path '@oclif/core' resolves to, so every import of
 * '@oclif/core' in the process (the commands, the hooks, @oclif/plugin-autocomplete) gets this one copy.
 * Whatever goes wrong (no bundle: only `tsc` was run; a cache from another Node: V8 rejects it) falls back to
 * the next best: the bundle compiled without its cache, or oclif from node_modules as before.
 */

export const BUNDLE_FILE = 'oclif-core.cjs';
export const CACHE_FILE = 'oclif-core.cjs.cache';
/** The last line of the bundle: `// assay-oclif-bundle <sha256 of what precedes it>`. */
export const BUNDLE_ID_MARK = '\n// assay-oclif-bundle ';
/** The bundle's dynamic `import()` calls go through this parameter (see wrap). */
export const IMPORT_PARAM = '__assayImport';

/**
 * The function the bundle runs as: the CommonJS wrapper plus `import`. Code compiled by vm has no module
 * loader of its own for `import()` (Node 20 only lends one behind --experimental-vm-modules or with a
 * warning), so the build rewrites the bundle's few `import(url)` calls (oclif importing command files by
 * absolute URL) to call the one passed here. Build and CLI must compile this same text, byte for byte, for
 * the code cache to be accepted.
 */
export function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname, ${IMPORT_PARAM}) {${source}\n})`;
}

/** The id the build gave the bundle (its last line), or undefined for a file that has none. */
export function bundleId(source: string): string | undefined {
  const at = source.lastIndexOf(BUNDLE_ID_MARK);
  return at === -1 ? undefined : source.slice(at + BUNDLE_ID_MARK.length).trim();
}

/** The cache file: the bundle id it was made from, a newline, then V8's code cache. */
export function encodeCache(id: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id}\n`), data]);
}

function decodeCache(file: Buffer, id: string | undefined): Buffer | undefined {
  const nl = file.indexOf(10);
  if (!id || nl === -1 || file.toString('latin1', 0, nl) !== id) return undefined;
  return file.subarray(nl + 1);
}

export interface LoadedBundle {
  /** The module registered under '@oclif/core'. */
  module: Module;
  script: Script;
  /** Whether V8 took the code cache (false: none, another Node or other flags). */
  cacheUsed: boolean;
}

/**
 * `import()` for the bundle: module specifiers as they come (oclif passes absolute file URLs), a command
 * with a bundle of its own from that bundle (src/cli/command-bundle.ts).
 */
const importModule = (specifier: string) => importCommand(specifier);

/**
 * Compile and run the bundle as the module at `entry` (the file '@oclif/core' resolves to): its `require`
 * resolves from there, so anything left out of the bundle loads as oclif itself would load it. Registers it
 * in require.cache under `entry`.
 */
export function runBundle(source: string, bundleFile: string, entry: string, cache?: Buffer): LoadedBundle {
  const script = new Script(wrap(source), { filename: bundleFile, cachedData: cache });
  const module = new Module(entry);
  module.filename = entry;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    dirname(entry),
  );
  // oclif's own check that Node satisfies its engines (>= 18) loads all of semver (47 modules) on every
  // start; assay's engines are narrower and npm checks them. Its documented switch, for this load only.
  const engineWarning = process.env.OCLIF_DISABLE_ENGINE_WARNING;
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1';
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(
      module.exports,
      module.exports,
      createRequire(entry),
      module,
      entry,
      dirname(entry),
      importModule,
    );
  } finally {
    if (engineWarning === undefined) delete process.env.OCLIF_DISABLE_ENGINE_WARNING;
  }
  module.loaded = true;
  require.cache[entry] = module;
  return { module, script, cacheUsed: cache !== undefined && !script.cachedDataRejected };
}

const require = createRequire(import.meta.url);

/**
 * bin/run.js, before anything imports '@oclif/core': the bundle in `dir` (with its code cache when there is
 * one), registered as '@oclif/core'. Returns what was loaded, or undefined when '@oclif/core' will load from
 * node_modules instead (no bundle, or it failed).
 */
export function loadOclifBundle(dir: URL): LoadedBundle | undefined {
  let source: string;
  let entry: string;
  try {
    source = readFileSync(new URL(BUNDLE_FILE, dir), 'utf8');
    entry = require.resolve('@oclif/core');
  } catch {
    return undefined;
  }
  if (require.cache[entry]) return undefined;
  let cache: Buffer | undefined;
  try {
    cache = decodeCache(readFileSync(new URL(CACHE_FILE, dir)), bundleId(source));
  } catch {
    // No cache: the bundle alone still saves resolving oclif's modules.
  }
  try {
    return runBundle(source, fileURLToPath(new URL(BUNDLE_FILE, dir)), entry, cache);
  } catch (error) {
    if (process.env.DEBUG)
      process.stderr.write(`assay: oclif bundle not used: ${(error as Error).message}\n`);
    return undefined;
  }
}
