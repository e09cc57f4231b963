import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = `${ROOT}bin/run.js`;

export interface CliResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** Run the real built CLI in a child process, as a user would. */
export async function assay(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  if (!existsSync(`${ROOT}dist/commands`))
    throw new Error('dist/ is missing: run `npm run build` before the e2e tests');
  const r = await execa(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    reject: false,
    env: { NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(String(result.stdout)) as T;
  } catch {
    throw new Error(`stdout was not JSON (exit ${result.exitCode}): ${result.stdout}\n${result.stderr}`);
  }
}

/**
 * Several invocations in one child process (test/e2e/support/run-many.mjs), for cases that only parse,
 * print help or refuse input: the same output and exit codes as a spawn each, without 80 Node start-ups.
 */
export async function assayMany(
  argsList: string[][],
  env: Record<string, string> = {},
): Promise<CliResult[]> {
  if (!existsSync(`${ROOT}dist/commands`))
    throw new Error('dist/ is missing: run `npm run build` before the e2e tests');
  const r = await execa(process.execPath, [`${ROOT}test/e2e/support/run-many.mjs`], {
    cwd: ROOT,
    reject: false,
    env: { NO_COLOR: '1', ...env },
    input: JSON.stringify(argsList),
    timeout: 120_000,
  });
  if (r.exitCode !== 0) throw new Error(`run-many failed (exit ${r.exitCode}): ${r.stderr}`);
  return JSON.parse(String(r.stdout)) as CliResult[];
}
