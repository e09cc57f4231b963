import { vi } from 'vitest';
import { packageRoot } from '../../../src/paths.js';

export interface CommandRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** Run a command class in this process with `--home home`, capturing stdout, stderr and the exit code it sets. */
export async function runCommand(
  command: { run(argv: string[], root: string): Promise<unknown> },
  argv: string[],
  home: string,
): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  process.exitCode = undefined;
  try {
    await command.run([...argv, '--home', home], packageRoot());
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout: out.join(''), stderr: err.join(''), code };
}
