import { fileURLToPath } from 'node:url';

/**
 * Commands that start from one file. `assay report generate` of one request used to resolve, read and
 * compile some 330 modules (zod, the store, every job kind, scoring, the report model, pdfkit) before
 * rendering a 20 ms page, and then compile pdfkit's functions one by one as the page was drawn: 640-770 ms
 * of wall time for a one-page job, 500 with its bundle; `jobs list` spent a tenth of its CPU time on its 30
 * modules. `npm run build` bundles each command here with everything it imports into
 * dist/command-bundles/<name>.cjs, with a V8 code cache beside it holding what running the command compiled
 * (scripts/bundle-commands.mjs, which also holds each bundle to the modules: the same report files and
 * listings, byte for byte, or no bundles).
 *
 * oclif imports a command by the URL of its built module; src/cli/oclif-bundle.ts passes each such import
 * here first, and a bundled command is answered from its bundle (the whole command: its class, base
 * classes and errors are the bundle's one copy, so `instanceof` holds throughout). Everything else, and
 * every command without a bundle (only `tsc` was run), is imported as before. This module is on every
 * command's path: it loads nothing until a bundled command is asked for.
 */

/** Where the build puts command bundles, from this module (dist/src/cli/) or its source. */
export const COMMAND_BUNDLE_DIR = new URL('../../command-bundles/', import.meta.url);

/** The built command module (under dist/) of each bundle, by the bundle's file name. */
export const BUNDLED_COMMANDS: Readonly<Record<string, string>> = {
  'report-generate.cjs': 'commands/report/generate.js',
  'jobs-list.cjs': 'commands/jobs/list.js',
};

/** The cache beside a bundle. */
export const cacheFileOf = (bundleFile: string): string => `${bundleFile}.cache`;

const DIST = new URL('../../', import.meta.url);
const bundleByModule = new Map(
  Object.entries(BUNDLED_COMMANDS).map(([bundle, module]) => [new URL(module, DIST).href, bundle]),
);

/** The bundle for a module oclif is about to import, when the module is a bundled command. */
export function commandBundleOf(specifier: string): string | undefined {
  return bundleByModule.get(specifier);
}

export interface LoadedCommandBundle {
  /** The bundled command module's exports (`default`: the command class). */
  exports: Record<string, unknown>;
  cacheUsed: boolean;
}

/**
 * The bundle `name` in `dir`, run with its code cache when the cache was made from it. Undefined when there
 * is no such bundle.
 */
export async function loadCommandBundle(
  name: string,
  dir: URL = COMMAND_BUNDLE_DIR,
): Promise<LoadedCommandBundle | undefined> {
  const file = fileURLToPath(new URL(name, dir));
  // Built as the extraction thread's bundle is (bundleFileText): run, and its cache checked, the same way.
  const { loadBundleFile } = await import('../lab/job/thread-bundle.js');
  const loaded = loadBundleFile(file, cacheFileOf(file));
  return loaded && { exports: loaded.exports, cacheUsed: loaded.cacheUsed };
}

/**
 * oclif's import of `specifier`: the command's bundle when it has one, else the module itself. A bundle that
 * fails to load falls back to the module (say why under DEBUG), as oclif's own bundle does.
 */
export async function importCommand(specifier: string): Promise<unknown> {
  const name = commandBundleOf(specifier);
  if (name) {
    try {
      const loaded = await loadCommandBundle(name);
      if (loaded) return loaded.exports;
    } catch (error) {
      if (process.env.DEBUG)
        process.stderr.write(`assay: command bundle ${name} not used: ${(error as Error).message}\n`);
    }
  }
  return import(specifier);
}
