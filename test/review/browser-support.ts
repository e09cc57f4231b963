import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = `${ROOT}bin/run.js`;

/** Debian's chromium (`.ci/run` installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests can run. In CI a missing browser is a failure, not a skip: the review page
 * would otherwise go untested without anyone noticing.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: install chromium (see .ci/run)`);
  process.stderr.write(`review browser tests skipped: no ${CHROMIUM} (set CHROMIUM_PATH)\n`);
  return false;
}

export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespace for the sandbox; the page is our own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** Where screenshots go: ASSAY_REVIEW_SCREENSHOTS to keep and look at them, else the test's home. */
export function screenshotDir(fallback: string): string {
  const dir = process.env.ASSAY_REVIEW_SCREENSHOTS ?? join(fallback, 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface ReviewCli {
  summary: {
    url: string;
    documents: Array<{ id: string; label: string; reviewed: string | null; pageImages: boolean }>;
  };
  stop(): Promise<number | null>;
}

/** `assay review ... --json --no-open` from the built CLI, until its {url} is printed; stop() sends SIGINT. */
export function startReviewCli(args: string[], home: string, timeoutMs = 90_000): Promise<ReviewCli> {
  if (!existsSync(`${ROOT}dist/commands`)) throw new Error('dist/ is missing: run `npm run build` first');
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, 'review', ...args, '--json', '--no-open', '--home', home],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`assay review printed no URL within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      let summary: ReviewCli['summary'];
      try {
        summary = JSON.parse(stdout);
      } catch {
        return; // not the whole document yet
      }
      clearTimeout(timer);
      resolve({
        summary,
        async stop() {
          if (child.exitCode === null) child.kill('SIGINT');
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`assay review exited ${code} before printing its URL: ${stdout}${stderr}`));
    });
  });
}
