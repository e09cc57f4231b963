// Bundles the commands listed in src/cli/command-bundle.ts (BUNDLED_COMMANDS: `report generate`, `jobs
// list`), each built module with all it imports, into dist/command-bundles/<name>.cjs with a V8 code cache
// beside it, which src/cli/command-bundle.ts loads when oclif asks for the command. Part of `npm run build`,
// after tsc and the oclif bundle: it bundles the built modules, so a bundle runs the same JavaScript they do.
// Each cache is made after its bundle has run the command as users do (reports of the fixtures, pdfkit's
// drawing included; a listing of those jobs), and each bundle must give what the modules give, byte for
// byte (the report files; the listing), or there are no bundles.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const { COMMAND_BUNDLE_DIR, BUNDLED_COMMANDS, cacheFileOf } = await import(
  new URL('../dist/src/cli/command-bundle.js', import.meta.url).href
);
const { bundleFileText, encodeCache, latin1Source, runThreadBundle } = await import(
  new URL('../dist/src/lab/job/thread-bundle.js', import.meta.url).href
);
const { loadOclifBundle } = await import(new URL('../dist/src/cli/oclif-bundle.js', import.meta.url).href);

const MODULE_URL = '__assayModuleUrl';
const RESOLVE = '__assayResolve';
const PDFKIT_FILE = '__assayPdfkitFile';
const PDFKIT_REQUIRE = '__assayPdfkitRequire';
const UCUM_REQUIRE = '__assayUcumRequire';

/** Replace `from` in `text`, which must occur exactly `times` times: a changed source fails the build. */
function replaceExactly(text, from, to, times, file) {
  const found = text.split(from).length - 1;
  if (found !== times)
    throw new Error(
      `bundle-commands: expected ${times} of ${JSON.stringify(from)} in ${file}, found ${found}`,
    );
  return text.replaceAll(from, to);
}

/**
 * Each module keeps its own location. Ours: import.meta.url becomes the URL of the built module under dist/
 * (packageRoot(), the render thread's entry and createRequire() resolve from there). With `packages`, two
 * packages our modules require through createRequire, which esbuild cannot follow, are bundled by making
 * that require plain: pdfkit, which then finds its font data and its own `#standard-fonts` imports from its
 * __filename and requires the two packages pdfkit.ts gives stand-ins until first use from its own folder,
 * where those stand-ins are; and ucum-lhc, which reads its unit table (JSON, left out) from its own folder.
 * Without, they load from node_modules as from the modules. No other package may depend on where it is:
 * the bundle would move it.
 */
const keepLocations = ({ packages }) => ({
  name: 'keep-locations',
  setup(b) {
    b.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
      const rel = relative(root, args.path).split(sep).join('/');
      let text = readFileSync(args.path, 'utf8');
      if (rel.startsWith('dist/')) {
        if (packages && rel === 'dist/src/report/pdf/pdfkit.js')
          text = replaceExactly(text, "requireAsPdfkit('pdfkit')", "require('pdfkit')", 1, rel);
        if (packages && rel === 'dist/src/terminology/ucum-lhc.js')
          text = replaceExactly(text, 'const require = createRequire(import.meta.url);', '', 1, rel);
        const own = JSON.stringify(relative(dist, args.path).split(sep).join('/'));
        text = text.replaceAll('import.meta.url', `${MODULE_URL}(${own})`);
        text = text.replaceAll('import.meta.resolve', RESOLVE);
        return { contents: text, loader: 'js' };
      }
      if (/[\\/]node_modules[\\/]pdfkit[\\/]js[\\/]pdfkit\.js$/.test(args.path)) {
        text = replaceExactly(text, '__filename', `${PDFKIT_FILE}()`, 2, rel);
        for (const id of ['fontkit', '@noble/ciphers/aes'])
          text = replaceExactly(text, `require('${id}')`, `${PDFKIT_REQUIRE}('${id}')`, 1, rel);
        return { contents: text, loader: 'js' };
      }
      if (/[\\/]node_modules[\\/]@lhncbc[\\/]ucum-lhc[\\/]source-cjs[\\/]ucumJsonDefs\.js$/.test(args.path)) {
        const json = "require('../data/ucumDefs.min.json')";
        text = replaceExactly(text, json, `${UCUM_REQUIRE}('../data/ucumDefs.min.json')`, 1, rel);
        return { contents: text, loader: 'js' };
      }
      if (/__dirname|__filename|import\.meta/.test(text))
        throw new Error(`bundle-commands: ${rel} depends on its own location; keep it out of the bundle`);
      return undefined;
    });
  },
});

/**
 * linebreak (pdfkit's line breaking) builds its Unicode table at load by inflating it with tiny-inflate, in
 * JavaScript: 10-17 ms of a cold process. In the bundle it is inflated by zlib, which yields the same
 * bytes (DEFLATE decodes to one output) with tiny-inflate's contract: `dest` filled and returned, or the
 * part of it written when the data is shorter.
 */
const nativeInflate = {
  name: 'native-inflate',
  setup(b) {
    b.onResolve({ filter: /^tiny-inflate$/ }, () => ({ path: 'tiny-inflate', namespace: 'native-inflate' }));
    b.onLoad({ filter: /.*/, namespace: 'native-inflate' }, () => ({
      loader: 'js',
      contents: `const { inflateRawSync } = require('node:zlib');
module.exports = (source, dest) => {
  const out = inflateRawSync(source);
  dest.set(out.length > dest.length ? out.subarray(0, dest.length) : out);
  return out.length < dest.length ? dest.slice(0, out.length) : dest;
};`,
    }));
  },
};

/** The bundle of `name`'s command, written to `dir` as the CLI reads it: its text and file. */
async function bundle(name, { packages }) {
  const result = await build({
    entryPoints: [join(dist, BUNDLED_COMMANDS[name])],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // oclif: the process's one copy (bin/run.js's bundle), which the command class extends.
    // better-sqlite3: native. pg: only a postgres:// store loads it, as from the modules.
    external: ['@oclif/core', 'better-sqlite3', 'pg'],
    plugins: [keepLocations({ packages }), nativeInflate],
    banner: {
      js:
        `const ${MODULE_URL} = (file) => require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', file)).href;\n` +
        `const ${RESOLVE} = (s) => require('node:url').pathToFileURL(require.resolve(s)).href;\n` +
        `const ${PDFKIT_FILE} = () => require.resolve('pdfkit');\n` +
        `const ${PDFKIT_REQUIRE} = (id) => require('node:module').createRequire(${PDFKIT_FILE}())(id);\n` +
        `const ${UCUM_REQUIRE} = (id) => require('node:module').createRequire(require.resolve('@lhncbc/ucum-lhc'))(id);`,
    },
  });
  const source = bundleFileText(latin1Source(result.outputFiles[0].text));
  const file = join(dir, name);
  writeFileSync(file, source, 'latin1');
  return { source, file };
}

const dir = fileURLToPath(COMMAND_BUNDLE_DIR);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'assay-bundle-commands-'));
/** Each side (bundle, modules) generates its reports in a store of its own; both list the bundle's. */
const home = (side) => join(work, `${side}-home`);
const request = (name) => join(root, 'fixtures', 'reports', name);

/** `--out` files of a run, by name. */
const outputs = (out) => Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));

/**
 * What each bundle's cache is warmed on, as users run the command, and what must come out the same from
 * the modules: a report's --out files (the job ids and times it prints differ from store to store), or a
 * listing's output (of the bundle's store, listed by both).
 */
const COMMANDS = [
  {
    name: 'report-generate.cjs',
    packages: true,
    // The fixtures are the repo's: a build without them (an installed package) caches the top level only.
    runs: (existsSync(request(''))
      ? [
          [request('full-no-destination.json'), '--json'],
          [request('condensed-one-event.json'), '--no-deliver'],
        ]
      : []
    ).map((args, i) => ({
      argv: (side) => [...args, '--out', join(work, side, `out-${i}`), '--home', home(side)],
      result: (side) => outputs(join(work, side, `out-${i}`)),
    })),
  },
  {
    name: 'jobs-list.cjs',
    packages: false,
    runs: [[], ['--json']].map((args) => ({
      argv: () => [...args, '--home', home('bundle')],
      result: (_side, stdout) => stdout,
    })),
  },
];

/** A command's argv run through the modules, in a process of its own, as before the bundles: its stdout. */
function fromModules(command, argv) {
  const bin = join(root, 'bin', 'run.js');
  const script =
    `import { createRequire } from 'node:module';\n` +
    `import { pathToFileURL } from 'node:url';\n` +
    `const core = createRequire(${JSON.stringify(bin)}).resolve('@oclif/core');\n` +
    `const { execute } = await import(pathToFileURL(core).href);\n` +
    `await execute({ dir: ${JSON.stringify(bin)}, args: process.argv.slice(1) });`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script, ...command, ...argv], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** The stdout of `run` while it runs; its stderr (progress, under a terminal) goes nowhere. */
async function capture(run) {
  let out = '';
  const { stdout, stderr } = process;
  const writes = [stdout.write, stderr.write];
  stdout.write = (chunk) => {
    out += String(chunk);
    return true;
  };
  stderr.write = () => true;
  try {
    await run();
  } finally {
    [stdout.write, stderr.write] = writes;
  }
  return out;
}

const same = (a, b) =>
  typeof a === 'string'
    ? a === b
    : Object.keys(a).join() === Object.keys(b).join() && Object.keys(a).every((f) => a[f].equals(b[f]));

try {
  loadOclifBundle(new URL('../dist/vendor/', import.meta.url));
  const sizes = [];
  for (const { name, packages, runs } of COMMANDS) {
    const { source, file } = await bundle(name, { packages });
    const { exports, script } = runThreadBundle(source, file);
    const command = BUNDLED_COMMANDS[name]
      .replace(/^commands\//, '')
      .replace(/\.js$/, '')
      .split('/');
    for (const { argv, result } of runs) {
      const stdout = await capture(() => exports.default.run(argv('bundle'), root));
      if (process.exitCode) throw new Error(`bundle-commands: ${name} exited ${process.exitCode}`);
      const ours = result('bundle', stdout);
      if (Object.keys(ours).length === 0) throw new Error(`bundle-commands: ${name} gave nothing to compare`);
      const theirs = fromModules(command, argv('modules'));
      if (!same(ours, result('modules', theirs)))
        throw new Error(
          `bundle-commands: ${name} gives other results than the modules for ${argv('bundle')}`,
        );
    }
    writeFileSync(cacheFileOf(file), encodeCache(source, script.createCachedData()));
    sizes.push(`${name} ${Math.round(source.length / 1024)} KB`);
  }
  console.error(
    `dist/command-bundles: ${sizes.join(', ')}; code caches warmed on the fixtures, results identical to the modules'`,
  );
} catch (error) {
  // No bundle rather than one that differs: the command runs from its modules.
  rmSync(dir, { recursive: true, force: true });
  throw error;
} finally {
  rmSync(work, { recursive: true, force: true });
}
// Whatever the command left open (the store's timers, a render pool) must not keep the build waiting.
process.exit(0);
