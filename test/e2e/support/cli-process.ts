import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url));

/**
 * A long-running `assay` process (serve, jobs work) of the built CLI, as an operator starts it. Its stderr
 * is kept (the last 256 kB, for failure messages) and read continuously, so a chatty process never blocks
 * on a full pipe.
 */
export class CliProcess {
  readonly child: ChildProcess;
  private stderr = '';
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    args: string[],
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-262_144);
    });
    this.exited = once(this.child, 'exit').then(() => undefined);
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get log(): string {
    return this.stderr;
  }

  /** The first match of `pattern` in stderr; rejects if the process exits or `ms` pass first. */
  waitFor(pattern: RegExp, ms = 60_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(this.stderr);
        if (!m) return false;
        cleanup();
        resolve(m);
        return true;
      };
      const onExit = () => {
        cleanup();
        reject(new Error(`${this.name} exited before ${pattern}: ${this.stderr}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${this.name}: no ${pattern} within ${ms} ms: ${this.stderr}`));
      }, ms);
      const cleanup = () => {
        clearTimeout(timer);
        this.child.stderr?.off('data', check);
        this.child.off('exit', onExit);
      };
      if (check()) return;
      this.child.stderr?.on('data', check);
      this.child.once('exit', onExit);
    });
  }

  /** Send `signal` and wait for the exit. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.alive) this.child.kill(signal);
    await this.exited;
  }
}
