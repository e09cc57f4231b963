/**
 * A command's wall time and the peak memory of everything it runs: the process (its threads share its
 * memory) and any child processes it starts (pdftoppm and tesseract for a letterhead, for instance), which
 * /usr/bin/time's maximum would not add up. Linux only: memory is read from /proc, every SAMPLE_MS while the
 * command runs; elsewhere the peak is reported as unknown.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const SAMPLE_MS = 10;

export interface Measured {
  seconds: number;
  /** Peak resident memory of the process tree in MB (2^20 bytes); NaN where /proc cannot tell. */
  peakMb: number;
  status: number | null;
  stderr: string;
}

/** A /proc file's text, or undefined once the process has gone (or on a system without /proc). */
function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A kB field of /proc/<pid>/status (VmRSS, VmHWM), in kB; 0 when absent. */
function statusKb(pid: number, field: string): number {
  const match = readProc(`/proc/${pid}/status`)?.match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
  return match ? Number(match[1]) : 0;
}

/** Every process below `pid`, through the children lists of each of its threads. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  for (const tid of tasks(pid)) {
    for (const child of (readProc(`/proc/${pid}/task/${tid}/children`) ?? '').split(/\s+/).filter(Boolean)) {
      const childPid = Number(child);
      found.push(childPid, ...descendants(childPid));
    }
  }
  return found;
}

function tasks(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** Run `command` to its end, timing it and sampling its tree's memory. Its stdout is discarded. */
export function runMeasured(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Measured> {
  const hasProc = readProc('/proc/self/status') !== undefined;
  const start = performance.now();
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
  const pid = child.pid;
  let peakKb = 0;
  let ownPeakKb = 0;
  const sample = () => {
    if (pid === undefined) return;
    // The process's own high-water mark is exact; its children's memory is summed as sampled.
    ownPeakKb = Math.max(ownPeakKb, statusKb(pid, 'VmHWM'));
    const tree = descendants(pid).reduce((sum, p) => sum + statusKb(p, 'VmRSS'), statusKb(pid, 'VmRSS'));
    peakKb = Math.max(peakKb, tree);
  };
  const timer = hasProc ? setInterval(sample, SAMPLE_MS) : undefined;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.once('exit', (status) => {
      const seconds = (performance.now() - start) / 1000;
      clearInterval(timer);
      const peakMb = hasProc ? Math.max(peakKb, ownPeakKb) / 1024 : Number.NaN;
      resolve({ seconds, peakMb, status, stderr });
    });
  });
}
