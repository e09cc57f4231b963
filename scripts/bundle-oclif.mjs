// Bundles @oclif/core into dist/vendor/oclif-core.cjs with a V8 code cache beside it, so `assay` starts
// without resolving and compiling oclif's ~200 modules one by one (src/cli/oclif-bundle.ts loads it). Part of
// `npm run build`, after tsc and the manifest (it loads the built loader and warms the cache on the manifest).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const vendor = new URL('../dist/vendor/', import.meta.url);
const { BUNDLE_FILE, BUNDLE_ID_MARK, CACHE_FILE, IMPORT_PARAM, encodeCache, runBundle } = await import(
  new URL('../dist/src/cli/oclif-bundle.js', import.meta.url).href
);

const require = createRequire(import.meta.url);
const entry = require.resolve('@oclif/core');
rmSync(vendor, { recursive: true, force: true });

const result = await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  write: false,
  logLevel: 'warning',
  // Loaded by oclif only in development (TypeScript sources) or when its engine check runs: resolved from
  // node_modules as before, if ever.
  external: ['semver', 'typescript', 'ts-node', 'tsx'],
});
let code = result.outputFiles[0].text;

// Every `import(x)` call becomes `__assayImport(x)` (see wrap() in src/cli/oclif-bundle.ts). The one
// "import()" inside an error message is a string and stays.
let calls = 0;
code = code.replace(/(?<![\w$."'`])import\((?!\))/g, () => {
  calls++;
  return `${IMPORT_PARAM}(`;
});
const left = code.replace(/"import\(\)"/g, '').match(/(?<![\w$])import\s*\(/g);
if (calls === 0 || left)
  throw new Error(
    `bundle-oclif: expected oclif's dynamic imports to rewrite (rewrote ${calls}, left ${left?.length ?? 0}); ` +
      'has @oclif/core changed how it loads commands?',
  );

const id = createHash('sha256').update(code).digest('hex');
code += `${BUNDLE_ID_MARK}${id}\n`;
mkdirSync(vendor, { recursive: true });
const bundleFile = fileURLToPath(new URL(BUNDLE_FILE, vendor));
writeFileSync(bundleFile, code);

// The code cache holds what V8 compiled: run what every start runs (load the config from the manifest, root
// help into a sink, parse flags) so those functions are in it, not only the top level.
const { module, script } = runBundle(code, bundleFile, entry);
const oclif = module.exports;
const config = await oclif.Config.load(root);
const Help = await oclif.loadHelpClass(config);
const write = process.stdout.write;
process.stdout.write = () => true;
try {
  await new Help(config).showHelp([]);
} finally {
  process.stdout.write = write;
}
await oclif.Parser.parse(['--json', '--home', 'x'], {
  flags: { json: oclif.Flags.boolean(), home: oclif.Flags.string() },
});
writeFileSync(new URL(CACHE_FILE, vendor), encodeCache(id, script.createCachedData()));
console.error(
  `dist/vendor/${BUNDLE_FILE}: @oclif/core ${require('@oclif/core/package.json').version}, ` +
    `${Math.round(code.length / 1024)} KB, ${calls} dynamic imports rewritten`,
);
