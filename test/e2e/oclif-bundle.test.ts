import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay } from './cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.js');
const TRACER = join(ROOT, 'bench', 'support', 'module-trace.mjs');
const LOADER = pathToFileURL(join(ROOT, 'dist', 'src', 'cli', 'oclif-bundle.js')).href;
const VENDOR = join(ROOT, 'dist', 'vendor');

/** A script for `node --input-type=module -e`, with the built loader as `bundle`. */
const script = (body: string) => `const bundle = await import(${JSON.stringify(LOADER)});\n${body}`;
const node = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, args, { cwd: ROOT, reject: false, env: { NO_COLOR: '1', ...env } });

describe('oclif from its bundle (dist/vendor, made by `npm run build`)', () => {
  const home = tmpHome('assay-oclif-bundle-');
  afterAll(() => home.cleanup());

  it('the CLI says exactly what oclif from node_modules says', async () => {
    // The same CLI started through oclif's own modules, as bin/run.js did before the bundle.
    const unbundled = script(
      `const { createRequire } = await import('node:module');
       const { pathToFileURL } = await import('node:url');
       const core = createRequire(${JSON.stringify(BIN)}).resolve('@oclif/core');
       const { execute } = await import(pathToFileURL(core).href);
       await execute({ dir: ${JSON.stringify(BIN)}, args: process.argv.slice(2) });`,
    );
    const unbundledFile = join(home.dir, 'unbundled.mjs');
    writeFileSync(unbundledFile, unbundled);
    const cases = [
      ['--help'],
      ['jobs', '--help'],
      ['jobs', 'list', '--help'],
      ['--version'],
      ['jobs', 'lst'],
      ['jobs', 'list', '--json'],
      ['jobs', 'list', '--limit', 'x', '--json'],
      ['report', 'status', 'no-such-job'],
    ];
    for (const args of cases) {
      const env = { ASSAY_HOME: home.dir };
      const [ours, theirs] = await Promise.all([assay(args, env), node([unbundledFile, ...args], env)]);
      expect({ args, out: ours.stdout, err: ours.stderr, code: ours.exitCode }).toEqual({
        args,
        out: theirs.stdout,
        err: theirs.stderr,
        code: theirs.exitCode,
      });
    }
  });

  it("loads none of oclif's own files, nor semver, for --help and jobs list", async () => {
    for (const args of [['--help'], ['jobs', 'list']]) {
      const trace = join(home.dir, `${args.join('-')}.trace`);
      const r = await node(['--import', TRACER, BIN, ...args], {
        ASSAY_HOME: home.dir,
        ASSAY_MODULE_TRACE: trace,
      });
      expect(r.exitCode).toBe(0);
      const loaded = readFileSync(trace, 'utf8').split('\n');
      expect(loaded.filter((l) => /node_modules\/@oclif\/core\/lib\/(?!index\.js$)/.test(l))).toEqual([]);
      expect(loaded.filter((l) => l.includes('node_modules/semver/'))).toEqual([]);
    }
  });

  it('uses its code cache when it matches the bundle, and runs without it when it does not', async () => {
    const dir = join(home.dir, 'vendor');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(VENDOR, 'oclif-core.cjs'), join(dir, 'oclif-core.cjs'));
    const dirUrl = JSON.stringify(pathToFileURL(`${dir}/`).href);
    const report = script(
      `const loaded = bundle.loadOclifBundle(new URL(${dirUrl}));
       console.log(JSON.stringify(loaded && { cacheUsed: loaded.cacheUsed, execute: typeof loaded.module.exports.execute }));`,
    );
    const run = async () => JSON.parse((await node(['--input-type=module', '-e', report])).stdout) as unknown;

    expect(await run()).toEqual({ cacheUsed: false, execute: 'function' }); // no cache file
    // A cache made by this Node from this bundle, as the build makes it.
    const make = script(
      `const { readFileSync, writeFileSync } = await import('node:fs');
       const { createRequire } = await import('node:module');
       const file = ${JSON.stringify(join(dir, 'oclif-core.cjs'))};
       const source = readFileSync(file, 'utf8');
       const { script } = bundle.runBundle(source, file, createRequire(${JSON.stringify(BIN)}).resolve('@oclif/core'));
       writeFileSync(file + '.cache', bundle.encodeCache(bundle.bundleId(source), script.createCachedData()));`,
    );
    expect((await node(['--input-type=module', '-e', make])).exitCode).toBe(0);
    expect(await run()).toEqual({ cacheUsed: true, execute: 'function' });
    // The same cache said to be of another bundle (a rebuild left an old cache): not used.
    const cache = readFileSync(join(dir, 'oclif-core.cjs.cache'));
    writeFileSync(
      join(dir, 'oclif-core.cjs.cache'),
      Buffer.concat([Buffer.from('0'.repeat(64)), cache.subarray(64)]),
    );
    expect(await run()).toEqual({ cacheUsed: false, execute: 'function' });
    // No bundle at all: oclif loads from node_modules.
    const empty = JSON.stringify(pathToFileURL(`${home.dir}/`).href);
    const none = script(`console.log(JSON.stringify(bundle.loadOclifBundle(new URL(${empty})) ?? null));`);
    expect((await node(['--input-type=module', '-e', none])).stdout).toBe('null');
  });
});
