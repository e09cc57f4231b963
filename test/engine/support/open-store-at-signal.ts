/**
 * A process for the concurrent-open test: loads everything, says `ready`, then opens the store under the
 * given home the moment a line arrives on stdin, so several processes migrate a fresh file at once.
 */
import { once } from 'node:events';
import { openDatabase } from '../../../src/engine/sqlite/open-database.js';

const home = process.argv[2] as string;
process.stdout.write('ready\n');
await once(process.stdin, 'data');
try {
  openDatabase(home).close();
  process.stdout.write('opened\n');
} catch (error) {
  process.stdout.write(`failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
process.stdin.destroy();
