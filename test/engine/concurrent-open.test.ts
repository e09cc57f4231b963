import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tmpHome } from './support/tmp-home.js';

const OPENER = fileURLToPath(new URL('./support/open-store-at-signal.ts', import.meta.url));

function opener(home: string): { child: ChildProcess; out: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', OPENER, home], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  return { child, out: () => out };
}

async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10));
}

describe('several processes opening one new store at once', () => {
  // Two `assay` commands started together on a fresh home both read schema 0, and the second one's
  // migration failed with "table jobs already exists" until the version was read under the write lock.
  it('every one of them opens it: the schema is migrated once', async () => {
    // Every round failed before the fix; two keep the check certain at half the cost.
    for (let round = 0; round < 2; round++) {
      const home = tmpHome('assay-concurrent-open-');
      const openers = Array.from({ length: 6 }, () => opener(home.dir));
      try {
        await until(() => openers.every((o) => o.out().includes('ready')));
        for (const o of openers) o.child.stdin?.write('go\n');
        await Promise.all(openers.map((o) => once(o.child, 'exit')));
        expect(openers.map((o) => o.out().split('\n')[1])).toEqual(openers.map(() => 'opened'));
      } finally {
        home.cleanup();
      }
    }
  }, 120_000);
});
