import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assay, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey } from '../server/support/test-server.js';
import { killAll, ROOT } from './support/serve-process.js';

/** `assay serve` over `home` until it listens or exits (10 s at most): what it said, and whether it listens. */
async function serveOutcome(home: string, children: ChildProcess[]) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/run.js'), 'serve', '--home', home, '--port', '0', '--log-level', 'silent'],
    { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  child.stdout?.resume();
  let stderr = '';
  const listening = await new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve neither listened nor exited: ${stderr}`)), 10_000);
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('listening on')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (listening) child.kill('SIGKILL');
  return { listening, exitCode: child.exitCode, stderr };
}

const STORE_FILES = ['assay.db', 'assay.db-wal', 'assay.db-shm'];

/**
 * Issue #30 item 8: in a home that has held a store, a deleted database file was silently replaced by a new,
 * empty one: the jobs, keys and limits it held gone without a word. The home remembers that it had a store;
 * a missing one is refused with how to start again on purpose. A fresh home still just works.
 */
describe('a used home whose database file was deleted (#30 item 8)', () => {
  const children: ChildProcess[] = [];
  const homes: { cleanup: () => void }[] = [];
  const home = (prefix: string) => {
    const h = tmpHome(prefix);
    homes.push(h);
    return h.dir;
  };
  afterAll(() => {
    killAll(children);
    for (const h of homes) h.cleanup();
  });

  it('serve and the other commands refuse (store_missing, naming the file) and create nothing', async () => {
    const dir = home('assay-missing-store-');
    createKey(dir, 'before');
    for (const f of STORE_FILES) rmSync(join(dir, f), { force: true });

    const served = await serveOutcome(dir, children);
    expect(served.listening).toBe(false);
    expect(served.exitCode).not.toBe(0);
    expect(served.stderr).toContain(join(dir, 'assay.db'));
    expect(served.stderr).toMatch(/missing/);
    expect(served.stderr).toMatch(/hint: .*start .*new/i);
    expect(served.stderr).not.toMatch(/\n\s+at /);

    const list = await assay(['jobs', 'list', '--json', '--home', dir]);
    expect(list.exitCode).not.toBe(0);
    const { error } = json<{ error: { code: string; message: string; suggestions: string[] } }>(list);
    expect(error.code).toBe('store_missing');
    expect(error.message).toContain(join(dir, 'assay.db'));
    expect(error.suggestions.join(' ')).toMatch(/start .*new/i);

    // Nothing was made in its place.
    for (const f of STORE_FILES) expect(existsSync(join(dir, f)), f).toBe(false);
  }, 60_000);

  it('starting again on purpose, as the hint says, works', async () => {
    const dir = home('assay-missing-store-again-');
    createKey(dir, 'before');
    for (const f of STORE_FILES) rmSync(join(dir, f), { force: true });
    const refused = await assay(['jobs', 'list', '--json', '--home', dir]);
    expect(refused.exitCode).not.toBe(0);
    const hint = json<{ error: { suggestions: string[] } }>(refused).error.suggestions.join(' ');
    // The hint names the files to delete (the home's record that it held a store); deleting them is the
    // deliberate fresh start.
    const named = hint.split(/[\s,]+/).filter((word) => word.startsWith(`${dir}/`));
    expect(named).toEqual([join(dir, 'assay.db.created')]);
    for (const f of named) rmSync(f);
    const list = await assay(['jobs', 'list', '--json', '--home', dir]);
    expect(list.exitCode).toBe(0);
    expect(json(list)).toEqual([]);
  }, 60_000);

  it('a fresh home (even one that does not exist yet) just works, for serve as for the CLI', async () => {
    const fresh = join(home('assay-fresh-store-'), 'new-home');
    const served = await serveOutcome(fresh, children);
    expect(served.listening, served.stderr).toBe(true);
    const other = home('assay-fresh-store-cli-');
    const list = await assay(['jobs', 'list', '--json', '--home', other]);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(existsSync(join(other, 'assay.db'))).toBe(true);
  }, 60_000);
});
