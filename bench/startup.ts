/**
 * What a command costs before it does its work: the built CLI (bin/run.js, as users run it) timed from
 * spawn to exit, beside `assay --help` in the same run, with the modules each loads on its main thread.
 * `npm run bench -- startup [runs]` (default 7 runs per command, alternated, medians).
 *
 * Targets (issue #19): `jobs list` <= 1.3x `--help`; `report generate` of one request <= 3x `--help` plus
 * the job's own render time (render_seconds in its result: model and PDF, in the render thread).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../src/paths.js';
import { median } from './support/cannon.js';

const TARGET = { jobsList: 1.3, reportGenerate: 3 };
const root = packageRoot();
const bin = join(root, 'bin', 'run.js');
const tracer = join(root, 'bench', 'support', 'module-trace.mjs');
/** Modules that only worker threads (or the commands that run them) should load. */
const HEAVY = ['pdfjs-dist', 'pdfkit', '@napi-rs/canvas', 'franc', 'chokidar', 'execa'];

interface Timed {
  ms: number;
  stdout: string;
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Timed {
  const start = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`assay ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Modules the command's main thread loaded (ES modules and CommonJS), and which heavy packages among them. */
function modulesOf(args: string[], env: NodeJS.ProcessEnv, dir: string): { count: number; heavy: string[] } {
  const file = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  execFileSync(process.execPath, ['--import', tracer, bin, ...args], {
    env: { ...env, ASSAY_MODULE_TRACE: file },
    stdio: 'ignore',
  });
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return {
    count: lines.length,
    heavy: HEAVY.filter((p) => lines.some((l) => l.includes(`node_modules/${p}/`))),
  };
}

export async function run(args: string[] = []): Promise<void> {
  const runs = Math.max(1, Number(args[0] ?? 7));
  const home = mkdtempSync(join(tmpdir(), 'assay-bench-startup-'));
  const env = { ...process.env, ASSAY_HOME: home, NO_COLOR: '1' };
  const request = join(root, 'fixtures', 'reports', 'full-no-destination.json');
  const out = join(home, 'out');
  const commands: Record<string, string[]> = {
    help: ['--help'],
    jobsList: ['jobs', 'list'],
    reportGenerate: ['report', 'generate', request, '--out', out, '--json'],
  };
  try {
    // The first run makes the home (database, migrations, keys): not what a user pays every time.
    runCli(commands.jobsList as string[], env);
    const times: Record<string, number[]> = { help: [], jobsList: [], reportGenerate: [] };
    const renders: number[] = [];
    for (let i = 0; i < runs; i++) {
      for (const [name, argv] of Object.entries(commands)) {
        const { ms, stdout } = runCli(argv, env);
        times[name]?.push(ms);
        if (name === 'reportGenerate') renders.push(renderMs(stdout, env));
      }
    }
    const help = median(times.help ?? []);
    const list = median(times.jobsList ?? []);
    const generate = median(times.reportGenerate ?? []);
    const render = median(renders);
    const mods = Object.fromEntries(
      Object.entries(commands).map(([name, argv]) => [name, modulesOf(argv, env, home)]),
    );
    const describe = (name: string) => {
      const m = mods[name];
      return m ? `${m.count} modules${m.heavy.length ? ` incl. ${m.heavy.join(', ')}` : ''}` : '';
    };
    console.log(`startup bench: built CLI, ${runs} runs per command, medians (spawn to exit)`);
    console.log(`assay --help            ${help.toFixed(0).padStart(5)} ms  ${describe('help')}`);
    const listRatio = list / help;
    console.log(
      `assay jobs list         ${list.toFixed(0).padStart(5)} ms  ${describe('jobsList')}  ` +
        `${listRatio.toFixed(2)}x --help  ${listRatio <= TARGET.jobsList ? 'ok' : `above target (${TARGET.jobsList}x)`}`,
    );
    const budget = TARGET.reportGenerate * help + render;
    console.log(
      `assay report generate   ${generate.toFixed(0).padStart(5)} ms  ${describe('reportGenerate')}  ` +
        `render ${render.toFixed(0)} ms; ${((generate - render) / help).toFixed(2)}x --help + render  ` +
        `${generate <= budget ? 'ok' : `above target (${TARGET.reportGenerate}x --help + render = ${budget.toFixed(0)} ms)`}`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The job's own render time, from its stored result (`assay jobs show --json`). */
function renderMs(stdout: string, env: NodeJS.ProcessEnv): number {
  const [report] = (JSON.parse(stdout) as { reports: { job_id: string }[] }).reports;
  if (!report) throw new Error('report generate printed no report');
  const shown = runCli(['jobs', 'show', report.job_id, '--json'], env).stdout;
  const seconds = (JSON.parse(shown) as { result?: { render_seconds?: number } }).result?.render_seconds;
  if (typeof seconds !== 'number') throw new Error(`job ${report.job_id} has no render_seconds`);
  return seconds * 1000;
}
