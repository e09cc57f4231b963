/**
 * The report batch of bench/report.ts, over the built code (dist/, as `assay` runs; `npm run build` first),
 * each measure in a process of its own so that its peak RSS is its own. Prints one JSON line.
 *
 * `node bench/support/report-batch.mjs cli <size> [CLI flags...]`: the CLI batch (flags such as
 * `--concurrency 2` are added to the command). Writes <size> copies of
 * fixtures/reports/full-three-events.json into a folder and runs `assay report generate <folder> --out <dir>
 * --no-deliver --json` (bin/run.js, the user's command, default concurrency and render threads) in a fresh
 * home: {seconds (spawn to exit), failed, peakRssMb (the CLI process, all its threads), mainBusySeconds (its
 * main thread's busy time: loading, submitting, the engine's claims and writes, models, waiting), cpuSeconds
 * (the process's CPU time: every thread, V8's helper threads and start-up included)}.
 *
 * `node bench/support/report-batch.mjs capacity <size>`: what two warm render threads can do. A 2-thread
 * RenderPool is warmed (each thread renders 40 reports first), then renders <size> reports of the same
 * model with the pool never idle: {capacity (reports/s), seconds, cpuSeconds (the process's CPU time over
 * those renders)}. Only rendering: no model, store or file; the CLI batch's ceiling on this machine at this
 * moment.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
const load = (path) => import(new URL(`dist/src/${path}`, root).href);
const fixture = new URL('fixtures/reports/full-three-events.json', root);

/** Preloaded into the CLI (--import): its peak RSS and main-thread busy time, written at exit. */
const PRELOAD = `data:text/javascript,${encodeURIComponent(
  [
    'import { writeFileSync } from "node:fs";',
    'const elu = performance.eventLoopUtilization();',
    'process.on("exit", () => {',
    '  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();',
    '  writeFileSync(process.env.ASSAY_BENCH_EXIT_FILE, JSON.stringify({',
    '    peakRssMb: Math.round(maxRSS / 1024),',
    '    mainBusySeconds: performance.eventLoopUtilization(elu).active / 1000,',
    '    cpuSeconds: (userCPUTime + systemCPUTime) / 1e6,',
    '  }));',
    '});',
  ].join('\n'),
)}`;

async function cli(size, extra) {
  const home = mkdtempSync(join(tmpdir(), 'assay-bench-report-'));
  try {
    const requests = join(home, 'requests');
    mkdirSync(requests);
    const text = readFileSync(fixture, 'utf8');
    for (let i = 0; i < size; i++) writeFileSync(join(requests, `r${String(i).padStart(5, '0')}.json`), text);
    const exitFile = join(home, 'exit.json');
    const env = {
      ...process.env,
      ASSAY_HOME: join(home, 'home'),
      ASSAY_BENCH_EXIT_FILE: exitFile,
      NO_COLOR: '1',
    };
    const bin = fileURLToPath(new URL('bin/run.js', root));
    const args = [
      'report',
      'generate',
      requests,
      '--out',
      join(home, 'out'),
      '--no-deliver',
      '--json',
      ...extra,
    ];
    // The home exists before the batch: making it (migrations, keys) is not what the batch measures.
    const setup = spawnSync(process.execPath, [bin, 'jobs', 'list'], { env, encoding: 'utf8' });
    if (setup.status !== 0) throw new Error(`assay jobs list exited ${setup.status}: ${setup.stderr}`);
    const start = performance.now();
    const r = spawnSync(process.execPath, ['--import', PRELOAD, bin, ...args], {
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const seconds = (performance.now() - start) / 1000;
    // Exit 1 with a JSON answer: some reports failed, which the result counts.
    if (r.status !== 0 && !(r.status === 1 && r.stdout.startsWith('{')))
      throw new Error(`assay report generate exited ${r.status}: ${r.stderr}`);
    const { reports } = JSON.parse(r.stdout);
    const failed = reports.filter((x) => x.status !== 'completed').length + (size - reports.length);
    return { seconds, failed, ...JSON.parse(readFileSync(exitFile, 'utf8')) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function capacity(size) {
  const { RenderPool } = await load('report/job/render-pool.js');
  const { buildReportModel } = await load('report/model/model.js');
  const { parseReportRequest } = await load('schemas/report.js');
  const { request, variant } = parseReportRequest(JSON.parse(readFileSync(fixture, 'utf8')), {
    requireDestination: false,
  });
  const model = buildReportModel(request, variant);
  const pool = new RenderPool(2);
  try {
    const all = (n) => Promise.all(Array.from({ length: n }, () => pool.render(model)));
    await all(80);
    const start = performance.now();
    const cpu = process.cpuUsage();
    await all(size);
    const seconds = (performance.now() - start) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    return { capacity: size / seconds, seconds, cpuSeconds: (user + system) / 1e6 };
  } finally {
    await pool.close();
  }
}

const [mode, sizeArg, ...extra] = process.argv.slice(2);
const size = Number(sizeArg ?? 1000);
if (mode !== 'cli' && mode !== 'capacity') {
  console.error('usage: node bench/support/report-batch.mjs <cli|capacity> <size>');
  process.exit(2);
}
console.log(JSON.stringify(await (mode === 'cli' ? cli(size, extra) : capacity(size))));
