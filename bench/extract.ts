/**
 * `lab extract` against the tools people would use instead: `npm run bench -- extract [rounds] [--copies N]
 * [--pool]` (default 5 rounds, 2 copies). Issue #33's targets, measured here in one run.
 *
 * The corpus is every text fixture PDF (fixtures/labs, the corrupt ones left out), `copies` times (48
 * documents by default), each copy with its own bytes so none is a duplicate job. Each round runs, in an
 * order that rotates from round to round so that none always goes first on a busy machine:
 * - assay: the built `assay lab extract <files> --out <dir> --json` in a fresh home, as users run it
 *   (threads as the CLI chooses them; ASSAY_THREADS is passed through), spawn to exit;
 * - pdfplumber: bench/support/pdfplumber-pass.py, one Python process opening every file and calling
 *   extract_text() on every page (skipped, saying so, without python3 and pdfplumber);
 * - pdftotext: `pdftotext -layout <file> -` once per file, one after another (skipped without poppler).
 * Prints each tool's median rate and time, the median of each round's ratios (a round's tools share the
 * machine's load), the peak memory of the assay process tree (bench/support/process-tree.ts) and the load
 * average before and after. Targets: assay >= 4x pdfplumber's rate and <= 3x pdftotext's time; peak RSS
 * <= 150 MB. --pool adds issue #19's comparison with a warm in-process ThreadPool (a retired target).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../src/paths.js';
import { manifest, pdfBytes } from '../test/lab/fixture-files.js';
import { importBuilt } from './support/built.js';
import { median } from './support/cannon.js';
import { runMeasured } from './support/process-tree.js';

const TARGET = { pdfplumberRate: 4, pdftotextTime: 3, peakMb: 150 };
const NOT_TEXT = new Set(['failure']);
const PDFPLUMBER_PASS = join(packageRoot(), 'bench', 'support', 'pdfplumber-pass.py');
/** pdfplumber-pass.py's exit code when the package is not installed. */
const NO_PDFPLUMBER = 3;

interface Doc {
  name: string;
  pdf: Uint8Array;
}

interface Run {
  seconds: number;
  peakMb: number;
}

type Tool = 'assay' | 'pdfplumber' | 'pdftotext';

function corpus(copies: number): Doc[] {
  const names = manifest()
    .filter((e) => !NOT_TEXT.has(e.family))
    .map((e) => e.name);
  return Array.from({ length: copies }, (_, copy) =>
    names.map((name) => ({
      name: `${name}-${copy}`,
      pdf: Buffer.concat([pdfBytes(name), Buffer.from(`\n% bench copy ${copy}\n`)]),
    })),
  ).flat();
}

async function assayRun(files: string[], dir: string, round: number): Promise<Run> {
  const home = join(dir, `home-${round}`);
  const out = join(dir, `out-${round}`);
  const r = await runMeasured(
    process.execPath,
    [join(packageRoot(), 'bin', 'run.js'), 'lab', 'extract', ...files, '--out', out, '--json'],
    { env: { ...process.env, ASSAY_HOME: home } },
  );
  // Exit 1 is a batch with rejected documents, which the corpus has on purpose (rejection fixtures).
  if (r.status !== 0 && r.status !== 1) throw new Error(`lab extract exited ${r.status}: ${r.stderr}`);
  rmSync(home, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  return r;
}

async function pdfplumberRun(files: string[]): Promise<Run> {
  const r = await runMeasured('python3', [PDFPLUMBER_PASS, ...files]);
  if (r.status !== 0) throw new Error(`pdfplumber pass exited ${r.status}: ${r.stderr}`);
  return r;
}

/** One process per file, as a shell loop would run them; memory is not sampled (each lives milliseconds). */
function pdftotextRun(files: string[]): Run {
  const start = performance.now();
  for (const file of files) {
    const r = spawnSync('pdftotext', ['-layout', file, '-'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`pdftotext exited ${r.status} on ${file}`);
  }
  return { seconds: (performance.now() - start) / 1000, peakMb: Number.NaN };
}

/** Which rival tools this machine has, and why one is missing. */
function rivals(): { tools: Tool[]; missing: string[] } {
  const tools: Tool[] = ['assay'];
  const missing: string[] = [];
  const probe = spawnSync('python3', [PDFPLUMBER_PASS], { stdio: 'ignore' });
  if (probe.status === 0) tools.push('pdfplumber');
  else
    missing.push(
      probe.status === NO_PDFPLUMBER
        ? 'pdfplumber is not installed (python3 -m pip install pdfplumber): its ratio is skipped'
        : 'python3 is not available: the pdfplumber ratio is skipped',
    );
  if (spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0) tools.push('pdftotext');
  else missing.push('pdftotext (poppler-utils) is not installed: its ratio is skipped');
  return { tools, missing };
}

/** The pool's rate on its first pass (fresh threads, as the CLI has) and on the second (warm). */
async function poolRates(docs: Doc[], threads: number): Promise<{ cold: number; warm: number }> {
  // Built, like the CLI: under tsx the threads would also parse pdf.js's source maps.
  const { ThreadPool } = await importBuilt<typeof import('../src/lab/job/thread-pool.js')>(
    'src/lab/job/thread-pool.js',
    'extract',
  );
  const pool = new ThreadPool(threads);
  const all = () => Promise.all(docs.map((d) => pool.run(d.pdf, { rejectIfPHI: false, anyLab: false })));
  const rate = async () => {
    const start = performance.now();
    await all();
    return docs.length / ((performance.now() - start) / 1000);
  };
  try {
    const cold = await rate();
    return { cold, warm: await rate() };
  } finally {
    await pool.close();
  }
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const verdict = (ok: boolean, target: string) => (ok ? `ok (target ${target})` : `MISSED (target ${target})`);

export async function run(args: string[] = []): Promise<void> {
  const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--copies'));
  const rounds = Math.max(1, Number(positional[0] ?? 5));
  const copies = Math.max(1, Number(option(args, '--copies') ?? 2));
  const docs = corpus(copies);
  const { tools, missing } = rivals();
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-extract-'));
  const runs = new Map<Tool, Run[]>(tools.map((t) => [t, []]));
  const loadBefore = load();
  try {
    mkdirSync(join(dir, 'in'));
    const files = docs.map((d) => {
      const file = join(dir, 'in', `${d.name}.pdf`);
      writeFileSync(file, d.pdf);
      return file;
    });
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < tools.length; i++) {
        const tool = tools[(round + i) % tools.length] as Tool;
        const r =
          tool === 'assay'
            ? await assayRun(files, dir, round)
            : tool === 'pdfplumber'
              ? await pdfplumberRun(files)
              : pdftotextRun(files);
        runs.get(tool)?.push(r);
      }
    }
    const threads = process.env.ASSAY_THREADS ?? `unset, ${availableParallelism()} cores`;
    console.log(
      `extract bench: ${docs.length} text PDFs, ${rounds} rounds interleaved, medians (ASSAY_THREADS ${threads})`,
    );
    console.log(`load average before ${loadBefore}, after ${load()} (1, 5, 15 min)`);
    for (const line of missing) console.log(`  ${line}`);
    const seconds = (tool: Tool) => runs.get(tool)?.map((r) => r.seconds) ?? [];
    for (const tool of tools) {
      const s = seconds(tool);
      const peaks = runs.get(tool)?.map((r) => r.peakMb) ?? [];
      const peak = Number.isNaN(median(peaks))
        ? ''
        : `  peak RSS ${median(peaks).toFixed(0)} MB (max ${Math.max(...peaks).toFixed(0)})`;
      console.log(
        `  ${tool.padEnd(11)} ${(docs.length / median(s)).toFixed(1).padStart(6)} PDFs/s  ` +
          `${median(s).toFixed(2)} s (${Math.min(...s).toFixed(2)}-${Math.max(...s).toFixed(2)})${peak}`,
      );
    }
    const assay = seconds('assay');
    const roundRatio = (tool: Tool) => median(seconds(tool).map((s, i) => s / (assay[i] ?? Number.NaN)));
    if (tools.includes('pdfplumber')) {
      const r = roundRatio('pdfplumber');
      console.log(
        `  assay at ${r.toFixed(2)}x pdfplumber's rate: ${verdict(r >= TARGET.pdfplumberRate, `>= ${TARGET.pdfplumberRate}x`)}`,
      );
    }
    if (tools.includes('pdftotext')) {
      const r = 1 / roundRatio('pdftotext');
      console.log(
        `  assay at ${r.toFixed(2)}x pdftotext's time: ${verdict(r <= TARGET.pdftotextTime, `<= ${TARGET.pdftotextTime}x`)}`,
      );
    }
    const peak = median(runs.get('assay')?.map((r) => r.peakMb) ?? []);
    if (!Number.isNaN(peak))
      console.log(
        `  assay peak RSS ${peak.toFixed(0)} MB: ${verdict(peak <= TARGET.peakMb, `<= ${TARGET.peakMb} MB`)}`,
      );
    if (args.includes('--pool')) {
      const threads = Number(process.env.ASSAY_THREADS) || availableParallelism();
      const pool = await poolRates(docs, threads);
      const cli = docs.length / median(assay);
      console.log(
        `  in-process pool (${threads} threads): first pass ${pool.cold.toFixed(1)} PDFs/s (CLI at ` +
          `${(cli / pool.cold).toFixed(2)}x), warm ${pool.warm.toFixed(1)} PDFs/s (CLI at ${(cli / pool.warm).toFixed(2)}x)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
