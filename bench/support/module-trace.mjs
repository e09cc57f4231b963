/**
 * `node --import ./bench/support/module-trace.mjs ...` with ASSAY_MODULE_TRACE=<file>: appends the URL of
 * every ES module the process (any thread) loads to that file, one a line, and at exit the CommonJS
 * modules required in the main thread. How the start-up bench and the lazy-kinds test see what a command
 * loads, from outside the code under test.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.ASSAY_MODULE_TRACE;
if (file && isMainThread) {
  register('./module-trace-hooks.mjs', import.meta.url, { data: { file } });
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const cjs = Object.keys(require.cache).map((p) => `cjs:${p}`);
    if (cjs.length > 0) appendFileSync(file, `${cjs.join('\n')}\n`);
  });
}
