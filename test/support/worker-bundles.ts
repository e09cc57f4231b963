import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The lab extraction and report render threads, bundled from the current sources once per run. Run from the
 * .ts sources, each new thread otherwise loads its module graph through tsx's loader hooks, some 2 s a thread
 * against 0.5 s for plain JavaScript; the suite starts dozens. src/lab/job/thread-pool.ts and
 * src/report/job/render-pool.ts take these bundles when ASSAY_TEST_WORKER_BUNDLES names them (and only when
 * they run as .ts themselves: the built CLI that system tests spawn keeps its own dist/ threads).
 *
 * The bundles sit inside the package (node_modules/.cache) so that the packages they leave external resolve
 * as from src/, and packageRoot() finds the same package.json. Code split, so what the sources import
 * lazily (OCR, report fonts) is still loaded only when used.
 */
export default async function setup(): Promise<() => void> {
  const parent = join(ROOT, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'assay-test-workers-'));
  await build({
    entryPoints: [join(ROOT, 'src/lab/job/thread-worker.ts'), join(ROOT, 'src/report/job/render-worker.ts')],
    outdir: dir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  // Read by the pools in the test processes, which vitest starts after global setup.
  process.env.ASSAY_TEST_WORKER_BUNDLES = dir;
  return () => {
    delete process.env.ASSAY_TEST_WORKER_BUNDLES;
    rmSync(dir, { recursive: true, force: true });
  };
}
