/**
 * What a fresh extraction thread costs before its first document: `npm run bench -- thread-start [runs]`
 * (default 9). Each run starts a one-thread ThreadPool over the built code (`npm run build` first), as the
 * CLI does, and times from spawn to the outcome of one small text PDF, then the same document again on the
 * now-started thread; their difference is the thread's start-up (module load and compilation, pdf.js and
 * what pdf.js loads) plus the first document's cold JIT. Runs are sequential, so each thread has the
 * machine to itself as far as this process goes. Prints medians; on a busy machine compare interleaved
 * runs of two builds rather than single figures.
 */
import { performance } from 'node:perf_hooks';
import { pdfBytes } from '../test/lab/fixture-files.js';
import { importBuilt } from './support/built.js';
import { median } from './support/cannon.js';

const DOCUMENT = 'reject-other-lab';

export async function run(args: string[] = []): Promise<void> {
  const runs = Math.max(1, Number(args[0] ?? 9));
  const { ThreadPool } = await importBuilt<typeof import('../src/lab/job/thread-pool.js')>(
    'src/lab/job/thread-pool.js',
    'thread-start',
  );
  const pdf = pdfBytes(DOCUMENT);
  const first: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < runs; i++) {
    const pool = new ThreadPool(1);
    try {
      let start = performance.now();
      await pool.run(pdf, { anyLab: true });
      first.push(performance.now() - start);
      start = performance.now();
      await pool.run(pdf, { anyLab: true });
      again.push(performance.now() - start);
    } finally {
      await pool.close();
    }
  }
  const cold = median(first);
  const warm = median(again);
  console.log(`thread-start bench: ${runs} fresh one-thread pools (built code), ${DOCUMENT}.pdf, medians`);
  console.log(`spawn to first outcome   ${cold.toFixed(0).padStart(5)} ms`);
  console.log(`same document again      ${warm.toFixed(0).padStart(5)} ms`);
  console.log(`thread start + cold JIT  ${(cold - warm).toFixed(0).padStart(5)} ms`);
}
