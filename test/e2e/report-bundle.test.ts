/**
 * `assay report generate` and `assay jobs list` from their bundles (dist/command-bundles, made by `npm run
 * build`): the same output, files and exit codes as the commands' modules (oclif-bundle.test.ts compares
 * `jobs list` too), with each bundle's code cache, and the modules whenever a bundle cannot be used.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay } from './cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.js');
const TRACER = join(ROOT, 'bench', 'support', 'module-trace.mjs');
const LOADER = pathToFileURL(join(ROOT, 'dist', 'src', 'cli', 'command-bundle.js')).href;
const BUNDLES = join(ROOT, 'dist', 'command-bundles');
const FIXTURES = join(ROOT, 'fixtures', 'reports');

const node = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, args, { cwd: ROOT, reject: false, env: { NO_COLOR: '1', ...env } });

/** The CLI with oclif and every command from node_modules and dist/ modules, as before any bundle. */
const UNBUNDLED = `const { createRequire } = await import('node:module');
const { pathToFileURL } = await import('node:url');
const core = createRequire(${JSON.stringify(BIN)}).resolve('@oclif/core');
const { execute } = await import(pathToFileURL(core).href);
await execute({ dir: ${JSON.stringify(BIN)}, args: process.argv.slice(2) });`;

/** Job ids and times differ from run to run, and each run has its own folder (`b` or `m`); nothing else may. */
const stable = (text: string, dir: string) =>
  text
    .replaceAll(`${dir}/b/`, '<dir>/')
    .replaceAll(`${dir}/m/`, '<dir>/')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');

const files = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));

describe('report generate from its bundle', () => {
  const home = tmpHome('assay-report-bundle-');
  afterAll(() => home.cleanup());

  it('prints, writes and exits as the modules do: reports, refused requests, usage errors', async () => {
    // A file, not --eval: render threads inherit the process's options, and --input-type is not for them.
    const unbundled = join(home.dir, 'unbundled.mjs');
    writeFileSync(unbundled, UNBUNDLED);
    const broken = join(home.dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ report_metadata: {}, uid_ext: 'x' }));
    const fixture = (name: string) => join(FIXTURES, name);
    // Several requests: render threads (dist/ modules) draw what the bundle's main thread modelled.
    const batch = join(home.dir, 'batch');
    mkdirSync(batch);
    for (const name of ['full-three-events.json', 'condensed-one-event.json'])
      copyFileSync(fixture(name), join(batch, name));
    const cases: Array<{ args: string[]; out?: boolean }> = [
      { args: [fixture('full-no-destination.json'), '--json'], out: true },
      { args: [fixture('condensed-one-event.json'), '--no-deliver'], out: true },
      { args: [fixture('full-three-events.json'), '--no-deliver', '--condensed', '--json'], out: true },
      { args: [batch, '--no-deliver', '--json'], out: true },
      { args: [broken, '--json'], out: true },
      { args: [broken], out: true },
      { args: [] },
      { args: [fixture('full-no-destination.json'), '--concurrency', 'many', '--json'] },
      { args: [fixture('full-no-destination.json'), '--no-deliver'] },
    ];
    for (const [i, { args, out }] of cases.entries()) {
      const dir = (run: 'b' | 'm') => join(home.dir, run);
      const argv = (run: 'b' | 'm') => [
        'report',
        'generate',
        ...args,
        ...(out ? ['--out', join(dir(run), `out-${i}`)] : []),
      ];
      const env = (run: 'b' | 'm') => ({ ASSAY_HOME: join(dir(run), 'home') });
      const [ours, theirs] = await Promise.all([
        assay(argv('b'), env('b')),
        node([unbundled, ...argv('m')], env('m')),
      ]);
      const said = (r: { stdout: unknown; stderr: unknown; exitCode?: number }) => ({
        args,
        out: stable(String(r.stdout), home.dir),
        err: stable(String(r.stderr), home.dir),
        code: r.exitCode,
      });
      expect(said(ours)).toEqual(said(theirs));
      if (out && ours.exitCode === 0)
        expect(files(join(dir('b'), `out-${i}`))).toEqual(files(join(dir('m'), `out-${i}`)));
    }
  }, 120_000);

  it('loads the bundles, not the modules they were made from (report generate, jobs list)', async () => {
    const request = join(FIXTURES, 'full-no-destination.json');
    const commands = [
      ['report', 'generate', request, '--out', join(home.dir, 'traced')],
      ['jobs', 'list'],
    ];
    for (const [i, argv] of commands.entries()) {
      const trace = join(home.dir, `${i}.trace`);
      const r = await node(['--import', TRACER, BIN, ...argv], {
        ASSAY_HOME: join(home.dir, 'home-trace'),
        ASSAY_MODULE_TRACE: trace,
      });
      expect(r.exitCode).toBe(0);
      const loaded = readFileSync(trace, 'utf8').split('\n');
      // The trace sees what the process really loaded: the store's driver, left out of the bundles.
      expect(loaded.some((l) => l.includes('node_modules/better-sqlite3/'))).toBe(true);
      for (const part of ['/dist/commands/', '/dist/src/engine/', '/dist/src/report/', 'node_modules/zod/'])
        expect(
          loaded.filter((l) => l.includes(part)),
          `${argv.slice(0, 2).join(' ')}: ${part}`,
        ).toEqual([]);
    }
  });

  it('uses its code cache when it matches the bundle, runs without it when not, and is absent unbuilt', async () => {
    // Beside the built one: a bundle resolves its packages and our modules from its own folder.
    const dir = mkdtempSync(join(ROOT, 'dist', 'command-bundles-test-'));
    try {
      const dirUrl = JSON.stringify(pathToFileURL(`${dir}/`).href);
      const load = `const { loadCommandBundle } = await import(${JSON.stringify(LOADER)});
        const loaded = await loadCommandBundle('report-generate.cjs', new URL(${dirUrl}));
        console.log(JSON.stringify(loaded ? { cacheUsed: loaded.cacheUsed, command: typeof loaded.exports.default } : null));`;
      const run = async () => JSON.parse((await node(['--input-type=module', '-e', load])).stdout) as unknown;
      expect(await run()).toBeNull();
      copyFileSync(join(BUNDLES, 'report-generate.cjs'), join(dir, 'report-generate.cjs'));
      expect(await run()).toEqual({ cacheUsed: false, command: 'function' });
      copyFileSync(join(BUNDLES, 'report-generate.cjs.cache'), join(dir, 'report-generate.cjs.cache'));
      expect(await run()).toEqual({ cacheUsed: true, command: 'function' });
      // The same cache said to be of another bundle (a rebuild left an old cache): not used.
      const cache = readFileSync(join(dir, 'report-generate.cjs.cache'));
      writeFileSync(
        join(dir, 'report-generate.cjs.cache'),
        Buffer.concat([Buffer.from('0'.repeat(64)), cache.subarray(64)]),
      );
      expect(await run()).toEqual({ cacheUsed: false, command: 'function' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
