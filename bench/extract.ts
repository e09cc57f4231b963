/**
 * `lab extract` as users run it beside the same pipeline warm: `npm run bench -- extract [copies]`.
 *
 * The corpus is every text fixture PDF (fixtures/labs, scans and corrupt files left out), `copies` times
 * (default 2, so 40+ documents), each copy with its own bytes so none is a duplicate job.
 * - CLI: the built `assay lab extract <files> --out <dir> --json` in a fresh home, timed from spawn to exit,
 *   with ASSAY_THREADS extraction threads (default 2, the machine's cores). Everything a user waits for:
 *   start-up, the store, thread start, module compilation, cold JIT.
 * - Warm: a ThreadPool of the same size in this process, from the same built code, timed over the whole
 *   corpus twice: the first pass is what fresh threads manage (the CLI's ratio to it is what the process,
 *   store, jobs and outputs add), the second the rate the pipeline reaches once nothing is cold.
 * Target (issue #19): the CLI at >= 0.8x the warm rate.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../src/paths.js';
import { manifest, pdfBytes } from '../test/lab/fixture-files.js';
import { importBuilt } from './support/built.js';

const TARGET_RATIO = 0.8;
const NOT_TEXT = new Set(['failure']);

function corpus(copies: number): { name: string; pdf: Uint8Array }[] {
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

/** The pool's rate on its first pass (fresh threads, as the CLI has) and on the second (warm). */
async function poolRates(
  docs: { pdf: Uint8Array }[],
  threads: number,
): Promise<{ cold: number; warm: number }> {
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

function cliRate(files: string[], threads: number, dir: string): { rate: number; seconds: number } {
  const home = join(dir, 'home');
  const start = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(packageRoot(), 'bin', 'run.js'), 'lab', 'extract', ...files, '--out', join(dir, 'out'), '--json'],
    {
      env: { ...process.env, ASSAY_HOME: home, ASSAY_THREADS: String(threads) },
      encoding: 'utf8',
      // The results document is large (spawnSync would kill the child past its 1 MB buffer) and unread.
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const seconds = (performance.now() - start) / 1000;
  // Exit 1 is a batch with rejected documents, which the corpus has on purpose (rejection fixtures).
  if (r.status !== 0 && r.status !== 1) throw new Error(`lab extract exited ${r.status}: ${r.stderr}`);
  return { rate: files.length / seconds, seconds };
}

export async function run(args: string[] = []): Promise<void> {
  const copies = Math.max(1, Number(args[0] ?? 2));
  const threads = Number(process.env.ASSAY_THREADS) || 2;
  const docs = corpus(copies);
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-extract-'));
  try {
    mkdirSync(join(dir, 'in'));
    const files = docs.map((d) => {
      const file = join(dir, 'in', `${d.name}.pdf`);
      writeFileSync(file, d.pdf);
      return file;
    });
    const cli = cliRate(files, threads, dir);
    const pool = await poolRates(docs, threads);
    const ratio = cli.rate / pool.warm;
    console.log(`extract bench: ${docs.length} text PDFs, ${threads} extraction threads`);
    console.log(`assay lab extract (built CLI)  ${cli.rate.toFixed(1)} PDFs/s (${cli.seconds.toFixed(1)} s)`);
    // What the CLI adds to the threads' own cold start: process, store, jobs, outputs.
    console.log(
      `in-process pool, first pass    ${pool.cold.toFixed(1)} PDFs/s   CLI at ${(cli.rate / pool.cold).toFixed(2)}x`,
    );
    console.log(
      `warm in-process pool            ${pool.warm.toFixed(1)} PDFs/s   CLI at ${ratio.toFixed(2)}x  ` +
        (ratio >= TARGET_RATIO ? 'ok' : `below target (${TARGET_RATIO}x)`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
