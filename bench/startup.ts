/**
 * What a command costs before it does its work: the built CLI (bin/run.js, as users run it) from spawn to
 * exit, beside `node -e 0` and `assay --help` in the same run, in CPU time (user + system, which a busy
 * machine moves less than wall time) and wall time, with the modules each loads on its main thread.
 * `npm run bench -- startup [runs]` (default 7 runs per command, alternated, medians; ratios are the median
 * of each round's ratio). Needs bash (its `time` reads the child's CPU time).
 *
 * Targets: issue #33, in CPU time: `--help` <= 2x `node -e 0`, `jobs list` <= 2.5x `node -e 0`; in wall
 * time: one `report generate` <= 300 ms. Issue #19, in wall time: `jobs list` <= 1.3x `--help`; `report
 * generate` of one request <= 3x `--help` plus the job's own render time (render_seconds in its result:
 * model and PDF; one report renders on the command's own thread). Each line states the machine's load.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { median } from './support/cannon.js';

const TARGET = { helpCpu: 2, jobsListCpu: 2.5, jobsList: 1.3, reportGenerate: 3, reportGenerateMs: 300 };
const root = packageRoot();
const bin = join(root, 'bin', 'run.js');
const tracer = join(root, 'bench', 'support', 'module-trace.mjs');
/** Modules that only worker threads (or the commands that run them) should load. */
const HEAVY = ['pdfjs-dist', 'pdfkit', '@napi-rs/canvas', 'franc', 'chokidar', 'execa'];

interface Timed {
  /** Wall time of the process, spawn to exit. */
  ms: number;
  /** User + system CPU time of the process. */
  cpuMs: number;
  stdout: string;
}

/** `node <argv>` under bash's `time`: its stdout, and its wall and CPU time (stderr goes to a file). */
function runNode(argv: string[], env: NodeJS.ProcessEnv, stderrFile: string): Timed {
  const script = 'TIMEFORMAT="%3R %3U %3S"; time "$@" 2>"$ASSAY_BENCH_STDERR"';
  const r = spawnSync('bash', ['-c', script, 'bash', process.execPath, ...argv], {
    env: { ...env, ASSAY_BENCH_STDERR: stderrFile },
    encoding: 'utf8',
  });
  if (r.error) throw new Error(`startup bench needs bash: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(`node ${argv.join(' ')} exited ${r.status}: ${readFileSync(stderrFile, 'utf8')}`);
  const [real = Number.NaN, user = Number.NaN, sys = Number.NaN] = r.stderr.trim().split(/\s+/).map(Number);
  return { ms: real * 1000, cpuMs: (user + sys) * 1000, stdout: r.stdout };
}

let stderrFile = '';
const runCli = (args: string[], env: NodeJS.ProcessEnv): Timed => runNode([bin, ...args], env, stderrFile);

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
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const home = mkdtempSync(join(tmpdir(), 'assay-bench-startup-'));
  stderrFile = join(home, 'stderr.txt');
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
    const times: Record<string, number[]> = { node: [], help: [], jobsList: [], reportGenerate: [] };
    const cpu: Record<string, number[]> = { node: [], help: [], jobsList: [], reportGenerate: [] };
    const renders: number[] = [];
    for (let i = 0; i < runs; i++) {
      const bare = runNode(['-e', '0'], env, stderrFile);
      times.node?.push(bare.ms);
      cpu.node?.push(bare.cpuMs);
      for (const [name, argv] of Object.entries(commands)) {
        const { ms, cpuMs, stdout } = runCli(argv, env);
        times[name]?.push(ms);
        cpu[name]?.push(cpuMs);
        if (name === 'reportGenerate') renders.push(renderMs(stdout, env));
      }
    }
    const help = median(times.help ?? []);
    const list = median(times.jobsList ?? []);
    const generate = median(times.reportGenerate ?? []);
    const render = median(renders);
    /** The median of each round's ratio of `name`'s CPU time to `node -e 0`'s. */
    const cpuRatio = (name: string) =>
      median((cpu[name] ?? []).map((ms, i) => ms / (cpu.node?.[i] ?? Number.NaN)));
    const cpuLine = (name: string, target?: number) => {
      const ratio = cpuRatio(name);
      const verdict = target === undefined ? '' : ratio <= target ? '  ok' : `  above target (${target}x)`;
      return `cpu ${median(cpu[name] ?? [])
        .toFixed(0)
        .padStart(4)} ms, ${ratio.toFixed(2)}x node -e 0${verdict}`;
    };
    const mods = Object.fromEntries(
      Object.entries(commands).map(([name, argv]) => [name, modulesOf(argv, env, home)]),
    );
    const describe = (name: string) => {
      const m = mods[name];
      return m ? `${m.count} modules${m.heavy.length ? ` incl. ${m.heavy.join(', ')}` : ''}` : '';
    };
    console.log(
      `startup bench: built CLI, ${runs} runs per command, medians; wall = spawn to exit, cpu = user + system; ` +
        `load ${loadBefore} -> ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
    console.log(
      `node -e 0               ${median(times.node ?? [])
        .toFixed(0)
        .padStart(5)} ms  ${cpuLine('node')}`,
    );
    console.log(
      `assay --help            ${help.toFixed(0).padStart(5)} ms  ${cpuLine('help', TARGET.helpCpu)}  ` +
        describe('help'),
    );
    const listRatio = list / help;
    console.log(
      `assay jobs list         ${list.toFixed(0).padStart(5)} ms  ${cpuLine('jobsList', TARGET.jobsListCpu)}  ` +
        `${describe('jobsList')}  wall ${listRatio.toFixed(2)}x --help  ` +
        (listRatio <= TARGET.jobsList ? 'ok' : `above target (${TARGET.jobsList}x)`),
    );
    const budget = TARGET.reportGenerate * help + render;
    console.log(
      `assay report generate   ${generate.toFixed(0).padStart(5)} ms  ${cpuLine('reportGenerate')}  ` +
        `${describe('reportGenerate')}  render ${render.toFixed(0)} ms; wall ${((generate - render) / help).toFixed(2)}x ` +
        `--help + render  ${generate <= budget ? 'ok' : `above target (${TARGET.reportGenerate}x --help + render = ${budget.toFixed(0)} ms)`}; ` +
        `wall ${generate <= TARGET.reportGenerateMs ? 'ok' : `above target (${TARGET.reportGenerateMs} ms)`}`,
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
