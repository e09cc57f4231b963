/**
 * Many `assay` invocations in one child process: each runs the built CLI in-process through oclif's run()
 * with its own captured stdout and stderr and its exit code. For commands that only parse, print help or
 * refuse their input, this is what a spawn per case measured, at a fraction of the start-up cost.
 * Input (stdin): JSON array of argv arrays. Output (stdout, after every run): JSON array of results.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Config, flush, run } from '@oclif/core';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cases = JSON.parse(readFileSync(0, 'utf8'));
// A fresh Config per case: oclif keeps state from one run() to the next (a topic's help, then its command's
// help, says "not found" on a reused one).
const load = () => Config.load(root);
const write = {
  out: process.stdout.write.bind(process.stdout),
  err: process.stderr.write.bind(process.stderr),
};
const results = [];

for (const argv of cases) {
  let stdout = '';
  let stderr = '';
  process.stdout.write = (chunk) => {
    stdout += String(chunk);
    return true;
  };
  process.stderr.write = (chunk) => {
    stderr += String(chunk);
    return true;
  };
  process.exitCode = undefined;
  let exitCode = 0;
  try {
    await run(argv, await load());
    await flush();
    exitCode = process.exitCode ?? 0;
  } catch (error) {
    // What execute()'s handler would do: the error's own exit code, its message on stderr.
    const exit = error?.oclif?.exit;
    exitCode = typeof exit === 'number' ? exit : 1;
    if (exit !== 0 && error?.message) stderr += `${error.message}\n`;
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
  results.push({ exitCode, stdout, stderr });
}
// A command may leave a store or a timer open, as a one-shot process may: the batch ends here regardless.
write.out(JSON.stringify(results), () => process.exit(0));
