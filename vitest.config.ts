import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two tiers. `system` is what needs more than this process: the built CLI in child processes (e2e), the
 * server under attack (security), a real PostgreSQL, a real browser, processes killed mid-job. `unit` is
 * the rest, quick enough to run on every change: `npm run test:unit`. `npm test` runs both.
 */
const SYSTEM = [
  'test/e2e/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/**/pg-*.test.ts',
  'test/doctor/postgres-check.test.ts',
  'test/blobs/prune-blobs.test.ts',
  'test/review/review-browser.test.ts',
  'test/engine/crash.test.ts',
  'test/engine/concurrent-open.test.ts',
  'test/refdata/crash.test.ts',
  'test/server/fuzz.test.ts',
  'test/server/docs-browser.test.ts',
  'test/server/generated-client.test.ts',
  'test/cli-output/*.test.ts',
  // Real worker threads measured against the main thread's event loop: alone in its process.
  'test/lab/thread-pool.test.ts',
  // Checks the process's own Array.prototype.push and JSON.parse: pdf-parse's bundled pdf.js, loaded by
  // report tests sharing a unit process, replaces them first.
  'test/lab/pdfjs-port.test.ts',
];

export default defineConfig({
  test: {
    // oclif writes straight to stdout; vitest's console interception would swallow it.
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One worker per core. vitest's default leaves one core free, which on a 2-core machine runs every file
    // one after another (unit tier 122 s against 77 s with two workers).
    maxWorkers: availableParallelism(),
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        // One process per worker for every unit file (module graph loaded once): 2.2x faster than a
        // fresh process per file, and unit files leave no global state behind.
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: SYSTEM,
          isolate: false,
          globalSetup: ['test/support/worker-bundles.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: SYSTEM,
          globalSetup: ['test/support/worker-bundles.ts', 'test/support/postgres-global.ts'],
        },
      },
    ],
  },
});
