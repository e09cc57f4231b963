// Bundles the extraction thread (src/lab/job/thread-worker.ts and all it imports, pdf.js included) into
// dist/thread/thread-worker.cjs with a V8 code cache beside it, which src/lab/job/thread-bundle.ts loads in
// every new thread. Part of `npm run build`, after tsc (it uses the built loader). The cache is made after
// the bundle has run over the text fixtures, so it holds what extraction compiles, not only the top level.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { BUNDLE_DIR, BUNDLE_FILE, CACHE_FILE, bundleFileText, encodeCache, latin1Source, runThreadBundle } =
  await import(new URL('../dist/src/lab/job/thread-bundle.js', import.meta.url).href);
const URL_PARAM = '__assayBundleUrl';
const RESOLVE_PARAM = '__assayBundleResolve';
const PDFJS_URL = '__assayPdfjsUrl';

/**
 * pdf.js resolves its optional canvas package from its own location (createRequire(import.meta.url)), and
 * the canvas stand-in puts itself where that lands. In the bundle each pdf.js file keeps that location, not
 * the bundle's: where packages are not hoisted (pnpm), the canvas package is pdf.js's dependency, not
 * ours, and resolves only from there.
 */
const pdfjsKeepsItsLocation = {
  name: 'pdfjs-location',
  setup(build) {
    build.onLoad({ filter: /[\\/]pdfjs-dist[\\/]legacy[\\/]build[\\/][^\\/]+\.mjs$/ }, (args) => {
      const name = args.path.split(/[\\/]/).at(-1);
      const contents = readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        `${PDFJS_URL}(${JSON.stringify(name)})`,
      );
      return { contents, loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [join(root, 'src/lab/job/thread-worker.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  write: false,
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
  // Native, and loaded only by a thread that draws (see src/lab/pipeline/pdf/canvas-stand-in.ts).
  external: ['@napi-rs/canvas'],
  plugins: [pdfjsKeepsItsLocation],
  // import.meta has no meaning in a script: the bundle's own location stands in for every module's, which
  // is what packageRoot(), createRequire() and the canvas stand-in need of it.
  define: { 'import.meta.url': URL_PARAM, 'import.meta.resolve': RESOLVE_PARAM },
  banner: {
    js:
      `const ${URL_PARAM} = require('node:url').pathToFileURL(__filename).href;\n` +
      `const ${RESOLVE_PARAM} = (s) => require('node:url').pathToFileURL(require.resolve(s)).href;\n` +
      `const ${PDFJS_URL} = (file) => ${RESOLVE_PARAM}(\`pdfjs-dist/legacy/build/\${file}\`);`,
  },
});
const source = bundleFileText(latin1Source(result.outputFiles[0].text));
const dir = fileURLToPath(BUNDLE_DIR);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const file = join(dir, BUNDLE_FILE);
// Every character is Latin-1 (latin1Source), one byte each on disk as in memory.
writeFileSync(file, source, 'latin1');

/** Text fixtures (the repo's, absent from an installed package), each with a request as a user might send. */
function fixtures() {
  const folder = join(root, 'fixtures', 'labs');
  if (!existsSync(join(folder, 'manifest.json'))) return [];
  return JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'))
    .filter((entry) => entry.family !== 'failure')
    .map((entry, id) => ({
      id,
      pdf: new Uint8Array(readFileSync(join(folder, `${entry.name}.pdf`))),
      request: { anyLab: entry.family === 'rejection' },
    }));
}

/** The same tasks through thread-worker.js from its modules, in a thread of its own, as before the bundle. */
async function fromModules(tasks) {
  const worker = new Worker(new URL('../dist/src/lab/job/thread-worker.js', import.meta.url));
  const replies = new Map();
  worker.on('message', (reply) => {
    if (reply.type === 'done' || reply.type === 'error') replies.get(reply.id)?.(reply);
  });
  try {
    return await Promise.all(
      tasks.map((task) => {
        const reply = new Promise((resolve) => replies.set(task.id, resolve));
        worker.postMessage({ ...task, pdf: new Uint8Array(task.pdf) });
        return reply;
      }),
    );
  } finally {
    await worker.terminate();
  }
}

// Run what a thread runs, so the cache holds those functions, and hold the bundle to the modules: the same
// reply for every fixture, or no build.
const tasks = fixtures();
const { exports, script } = runThreadBundle(source, file);
const bundled = [];
for (const task of tasks) bundled.push(await exports.handle({ ...task, pdf: new Uint8Array(task.pdf) }));
// Text never draws: the canvas stand-in must have kept the native package out (as the modules do).
const native = Object.keys(createRequire(import.meta.url).cache).filter((f) =>
  /@napi-rs[\\/]canvas.*\.node$/.test(f),
);
if (native.length > 0)
  throw new Error(`bundle-thread-worker: the bundle loaded ${native.join(', ')} to read text`);
const expected = await fromModules(tasks);
const differ = tasks.filter((_, i) => !isDeepStrictEqual(bundled[i], expected[i]));
if (differ.length > 0)
  throw new Error(
    `bundle-thread-worker: the bundle's replies differ from the modules' for tasks ${differ.map((t) => t.id)}`,
  );
writeFileSync(join(dir, CACHE_FILE), encodeCache(source, script.createCachedData()));
console.error(
  `dist/thread/${BUNDLE_FILE}: ${Math.round(source.length / 1024)} KB, code cache warmed on ${tasks.length} ` +
    "fixtures, replies identical to the modules'",
);
