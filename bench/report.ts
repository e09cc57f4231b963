import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../src/paths.js';
import { buildReportModel } from '../src/report/model/model.js';
import { renderReport } from '../src/report/pdf/render.js';
import { parseReportRequest } from '../src/schemas/report.js';

/**
 * Report generation: median time of one full report with 20 events and of one condensed report (model +
 * PDF, on this thread), then a batch through the job engine with 2 workers and a 2-thread render pool:
 * reports per second and peak RSS, the batch in a process of its own over the built code (`npm run build`
 * first), as users run it. `npm run bench -- report [batch size]` (default 1000). Target: <= 300 MB.
 */
const TARGET_RSS_MB = 300;
const SAMPLES = 30;

function fixture(name: string) {
  const json = JSON.parse(readFileSync(join(packageRoot(), 'fixtures', 'reports', `${name}.json`), 'utf8'));
  return parseReportRequest(json, { requireDestination: false });
}

async function median(samples: number, once: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** The batch in a child process over the built code (bench/support/report-batch.mjs). */
function batch(size: number): {
  seconds: number;
  failed: number;
  peakRssMb: number;
  mainBusySeconds: number;
} {
  const script = join(packageRoot(), 'bench', 'support', 'report-batch.mjs');
  const r = spawnSync(process.execPath, [script, String(size)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`report batch exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}');
}

export async function run(args: string[] = []): Promise<void> {
  const size = Number(args[0] ?? process.env.ASSAY_BENCH_REPORTS ?? 1000);
  const series = fixture('full-series-20');
  const single = fixture('condensed-one-event');
  const full = await median(SAMPLES, () => renderReport(buildReportModel(series.request, 'full')));
  const condensed = await median(SAMPLES, () => renderReport(buildReportModel(single.request, 'condensed')));
  console.log(`report: full report, 20 events: median ${full.toFixed(1)} ms`);
  console.log(`report: condensed report: median ${condensed.toFixed(1)} ms`);
  const { seconds, failed, peakRssMb, mainBusySeconds } = batch(size);
  console.log(
    `report: batch of ${size} full reports, 2 workers (built code, own process): ${(size / seconds).toFixed(1)} reports/s (${seconds.toFixed(1)} s, ${failed} failed, main thread busy ${mainBusySeconds.toFixed(1)} s), peak RSS ${peakRssMb} MB ` +
      (peakRssMb <= TARGET_RSS_MB ? 'ok' : `above target (${TARGET_RSS_MB} MB)`),
  );
}
