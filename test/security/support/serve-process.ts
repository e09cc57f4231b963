import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin/run.js');

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as { port: number };
  s.close();
  await once(s, 'close');
  return port;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
}

/**
 * `assay serve` from the built CLI as its own process over `home`, on a free port, once it listens. With
 * `shellLimit` (such as `ulimit -f 1024`) it runs under that shell limit. Every child goes into `children`
 * so the test can kill what it started.
 */
export async function serveProcess(
  home: string,
  children: ChildProcess[],
  opts: { shellLimit?: string; env?: Record<string, string>; flags?: string[]; workers?: number } = {},
): Promise<ServeProcess> {
  const port = await freePort();
  const args = [
    BIN,
    'serve',
    '--home',
    home,
    '--port',
    String(port),
    '--workers',
    '1',
    '--log-level',
    'silent',
  ];
  args.push(...(opts.flags ?? []));
  const env = { ...process.env, ...opts.env };
  const child = opts.shellLimit
    ? spawn('bash', ['-c', `${opts.shellLimit}; exec "$0" "$@"`, process.execPath, ...args], { env })
    : spawn(process.execPath, args, { env });
  children.push(child);
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('listening on')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`serve exited ${code ?? signal}: ${stderr}`)));
  });
  child.stdout?.resume();
  return { child, url: `http://127.0.0.1:${port}` };
}

/** SIGKILL whatever of `children` is still running. */
export function killAll(children: ChildProcess[]): void {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
