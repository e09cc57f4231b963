/**
 * Abuse of `assay serve` (issue #17), on the built CLI as its own process:
 *  1. peak RSS of the server (VmHWM) while it takes three PDF bombs at once (each a file of at most a few
 *     MB whose one stream decodes to --bomb-mb, default 1024), for each of thirteen encodings (#30):
 *     other filters, chains, odd zlib headers, indirect or escaped /Filter, padded dictionaries, encryption. Target: < 1 GB,
 *     every job document_too_complex in < 10 s. Then a 12-page lossless 300 dpi colour scan must be read.
 *  2. key B's one-page upload, from POST to completed, while key A floods --flood heavy uploads (default
 *     100): p50/p99 over up to --samples uploads (default 20), one 0.5 s after the other ends, taken only
 *     while A's backlog lasts. Target: p99 < 10 s on 2 cores.
 *  3. (#30 item 2) 8 queued uploads while another process holds the store's write lock for 20 s, past
 *     its 15 s patience, in five runs. Target: every job completed in every run.
 * `npm run bench -- abuse [--only bombs,scan,lock,flood] [--bomb-mb N] [--flood N] [--samples N] [--lock-runs N]
 * [--lock-seconds N]`;
 * run `npm run build` first.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { tmpHome } from '../test/engine/support/tmp-home.js';
import { holdLock } from '../test/security/support/hold-lock.js';
import { losslessScanPdf, type Raster, readPpm } from '../test/security/support/lossless-scan.js';
import { BOMB_ENCODINGS, pdfBomb } from '../test/security/support/pdf-bomb.js';
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

/** The job's final status, with its error code when it failed (`failed document_too_complex`). */
async function settle(url: string, key: string, id: string): Promise<string> {
  for (;;) {
    const res = await fetch(`${url}/extraction/lab/status/${id}`, { headers: { 'x-api-key': key } });
    const { status, error } = (await res.json()) as { status: string; error?: { code: string } };
    if (TERMINAL.includes(status)) return error ? `${status} ${error.code}` : status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

/** Three bombs of one encoding at once, for every encoding a budget must see through. */
async function bombs(inflatedMb: number): Promise<void> {
  const home = tmpHome('assay-bench-bombs-');
  const children: ChildProcess[] = [];
  try {
    const { key } = createKey(home.dir, 'bombs');
    const server = await serveProcess(home.dir, children, {
      env: { ASSAY_LIMIT_UPLOADS_PER_HOUR: '100000' },
      workers: 3,
    });
    const pid = server.child.pid as number;
    const idle = peakRssMb(pid);
    let slowest = 0;
    for (const encoding of BOMB_ENCODINGS) {
      const bomb = await pdfBomb(inflatedMb * 1024 * 1024, encoding);
      const started = performance.now();
      const ids = await Promise.all([0, 1, 2].map(() => upload(server.url, key, bomb)));
      const endings = await Promise.all(ids.map((id) => settle(server.url, key, id)));
      const seconds = (performance.now() - started) / 1000;
      slowest = Math.max(slowest, seconds);
      console.log(
        `bombs ${encoding}: 3 at once, ${(bomb.length / 1024).toFixed(0)} KB each decoding to ${inflatedMb} MB: ` +
          `ended ${endings.join('/')} in ${seconds.toFixed(1)} s; peak RSS so far ${peakRssMb(pid).toFixed(0)} MB`,
      );
    }
    console.log(
      `bombs: ${BOMB_ENCODINGS.length} encodings, peak RSS ${peakRssMb(pid).toFixed(0)} MB ` +
        `(idle ${idle.toFixed(0)} MB; target < 1024), slowest three ${slowest.toFixed(1)} s (target < 10)`,
    );
  } finally {
    killAll(children);
    home.cleanup();
  }
}

/**
 * The other side of the budget: a genuine 12-page lossless colour scan at 300 dpi (pages of a lab
 * fixture drawn by pdftoppm, kept as Flate images) must be read, not refused.
 */
async function losslessScan(): Promise<void> {
  const home = tmpHome('assay-bench-scan-');
  const children: ChildProcess[] = [];
  try {
    const { key } = createKey(home.dir, 'scan');
    await execa('pdftoppm', [
      '-r',
      '300',
      join(ROOT, 'fixtures/labs/quest-annual-male.pdf'),
      join(home.dir, 'p'),
    ]);
    const rasters = readdirSync(home.dir)
      .filter((f) => f.endsWith('.ppm'))
      .sort()
      .map((f) => readPpm(readFileSync(join(home.dir, f))));
    const pages = Array.from({ length: 12 }, (_, i) => rasters[i % rasters.length] as Raster);
    const scan = losslessScanPdf(pages);
    const server = await serveProcess(home.dir, children, {
      env: { ASSAY_LIMIT_UPLOADS_PER_HOUR: '100000' },
    });
    const started = performance.now();
    const id = await upload(server.url, key, scan);
    const ending = await settle(server.url, key, id);
    const res = await fetch(`${server.url}/extraction/lab/status/${id}`, { headers: { 'x-api-key': key } });
    const body = (await res.json()) as { error?: { code: string }; panels?: { panelResults?: unknown[] }[] };
    const rows = (body.panels ?? []).reduce((n, p) => n + (p.panelResults?.length ?? 0), 0);
    const detail = body.error?.code ?? `${body.panels?.length ?? 0} panels, ${rows} results`;
    console.log(
      `lossless scan: 12 pages of 2550 x 3300 RGB (${((12 * 2550 * 3300 * 3) / 1024 / 1024).toFixed(0)} MB of ` +
        `pixels, ${(scan.length / 1024 / 1024).toFixed(1)} MB file) ended ${ending} in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s, ${detail} (target: read, not document_too_complex)`,
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

/**
 * Issue #30 item 2 at full scale: 8 queued uploads while another process holds BEGIN IMMEDIATE for 20 s,
 * past the store's default 15 s patience, in `runs` separate runs; every job must complete in every run.
 */
async function lockedStore(runs: number, lockSeconds: number): Promise<void> {
  const pdf = readFileSync(join(ROOT, 'fixtures/labs/quest-cbc-a1c.pdf'));
  const outcomes: string[] = [];
  for (let run = 0; run < runs; run++) {
    const home = tmpHome('assay-bench-lock-');
    const children: ChildProcess[] = [];
    try {
      const { key } = createKey(home.dir, 'lock');
      const server = await serveProcess(home.dir, children, {
        env: { ASSAY_LIMIT_UPLOADS_PER_HOUR: '100000' },
      });
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await upload(server.url, key, pdf));
      const locker = await holdLock(home.dir, lockSeconds * 1000, children);
      const endings = await Promise.all(ids.map((id) => settle(server.url, key, id)));
      locker.kill();
      const completed = endings.filter((e) => e === 'completed').length;
      outcomes.push(`${completed}/8`);
    } finally {
      killAll(children);
      home.cleanup();
    }
  }
  console.log(
    `locked store: 8 queued uploads under a ${lockSeconds} s BEGIN IMMEDIATE, ${runs} runs: completed ` +
      `${outcomes.join(', ')} (target 8/8 in every run)`,
  );
}

export async function run(args: string[]): Promise<void> {
  const i = args.indexOf('--only');
  const only = i >= 0 ? (args[i + 1] ?? '').split(',') : ['bombs', 'scan', 'lock', 'flood'];
  if (only.includes('bombs')) await bombs(arg(args, 'bomb-mb', 1024));
  if (only.includes('scan')) await losslessScan();
  if (only.includes('lock')) await lockedStore(arg(args, 'lock-runs', 5), arg(args, 'lock-seconds', 20));
  if (only.includes('flood')) await flood(arg(args, 'flood', 100), arg(args, 'samples', 20));
}
