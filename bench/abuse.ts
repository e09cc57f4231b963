/**
 * Abuse of `assay serve` (issue #17), on the built CLI as its own process:
 *  1. peak RSS of the server (VmHWM) while it takes three PDF bombs at once (each a ~2 MB file whose one
 *     stream inflates to --bomb-mb, default 2048). Target: < 1 GB.
 *  2. key B's one-page upload, from POST to completed, while key A floods --flood heavy uploads (default
 *     100): p50/p99 over up to --samples uploads (default 20), one 0.5 s after the other ends, taken only
 *     while A's backlog lasts. Target: p99 < 10 s on 2 cores.
 * `npm run bench -- abuse [--bomb-mb N] [--flood N] [--samples N]`; run `npm run build` first.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpHome } from '../test/engine/support/tmp-home.js';
import { pdfBomb } from '../test/security/support/pdf-bomb.js';
import { killAll, ROOT, serveProcess } from '../test/security/support/serve-process.js';
import { createKey } from '../test/server/support/test-server.js';

const TERMINAL = ['completed', 'failed', 'quarantined', 'rejected_phi', 'invalid_document', 'cancelled'];

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const value = i >= 0 ? Number(args[i + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The peak resident set of a process so far, in MB (Linux). */
function peakRssMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

async function upload(url: string, key: string, pdf: Buffer): Promise<string> {
  const res = await fetch(`${url}/extraction/lab/upload`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ pdfFile: pdf.toString('base64') }),
  });
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { jobId: string }).jobId;
}

async function settle(url: string, key: string, id: string): Promise<string> {
  for (;;) {
    const res = await fetch(`${url}/extraction/lab/status/${id}`, { headers: { 'x-api-key': key } });
    const { status } = (await res.json()) as { status: string };
    if (TERMINAL.includes(status)) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

async function bombs(inflatedMb: number): Promise<void> {
  const home = tmpHome('assay-bench-bombs-');
  const children: ChildProcess[] = [];
  try {
    const { key } = createKey(home.dir, 'bombs');
    const bomb = await pdfBomb(inflatedMb * 1024 * 1024);
    const server = await serveProcess(home.dir, children, {
      env: { ASSAY_LIMIT_UPLOADS_PER_HOUR: '100000' },
      workers: 3,
    });
    const pid = server.child.pid as number;
    const before = peakRssMb(pid);
    const started = performance.now();
    const ids = await Promise.all([0, 1, 2].map(() => upload(server.url, key, bomb)));
    const endings = await Promise.all(ids.map((id) => settle(server.url, key, id)));
    console.log(
      `bombs: 3 at once, ${(bomb.length / 1024).toFixed(0)} KB each inflating to ${inflatedMb} MB: ` +
        `peak RSS ${peakRssMb(pid).toFixed(0)} MB (idle ${before.toFixed(0)} MB), ` +
        `ended ${endings.join('/')} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    killAll(children);
    home.cleanup();
  }
}

async function flood(count: number, samples: number): Promise<void> {
  const home = tmpHome('assay-bench-flood-');
  const children: ChildProcess[] = [];
  try {
    const a = createKey(home.dir, 'flood').key;
    const b = createKey(home.dir, 'single').key;
    const heavy = readFileSync(join(ROOT, 'fixtures/labs/labcorp-v2-nmr-cbc-cmp.pdf'));
    const light = readFileSync(join(ROOT, 'fixtures/labs/quest-annual-male.pdf'));
    const server = await serveProcess(home.dir, children, {
      env: { ASSAY_LIMIT_UPLOADS_PER_HOUR: '100000' },
      workers: 2,
    });
    const floodIds = await Promise.all(Array.from({ length: count }, () => upload(server.url, a, heavy)));
    // Only samples taken while A's backlog is still there count: A's last upload, claimed last, ends last.
    const last = floodIds.at(-1) as string;
    const floodRunning = async () => {
      const res = await fetch(`${server.url}/extraction/lab/status/${last}`, { headers: { 'x-api-key': a } });
      return !TERMINAL.includes(((await res.json()) as { status: string }).status);
    };
    const latencies: number[] = [];
    while (latencies.length < samples && (await floodRunning())) {
      const started = performance.now();
      await settle(server.url, b, await upload(server.url, b, light));
      latencies.push((performance.now() - started) / 1000);
      await new Promise((r) => setTimeout(r, 500));
    }
    const sorted = [...latencies].sort((x, y) => x - y);
    const left = (
      await Promise.all(
        floodIds.map(async (id) => {
          const res = await fetch(`${server.url}/extraction/lab/status/${id}`, {
            headers: { 'x-api-key': a },
          });
          return ((await res.json()) as { status: string }).status;
        }),
      )
    ).filter((s) => !TERMINAL.includes(s)).length;
    console.log(
      `flood: key A ${count} heavy uploads, key B ${latencies.length} one-page uploads during it: B p50 ` +
        `${quantile(sorted, 0.5).toFixed(2)} s, p99 ${quantile(sorted, 0.99).toFixed(2)} s ` +
        `(A still had ${left} of ${count} unfinished when B's last ended)`,
    );
  } finally {
    killAll(children);
    home.cleanup();
  }
}

export async function run(args: string[]): Promise<void> {
  await bombs(arg(args, 'bomb-mb', 2048));
  await flood(arg(args, 'flood', 100), arg(args, 'samples', 20));
}
