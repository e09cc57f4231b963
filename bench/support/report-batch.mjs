/**
 * `node bench/support/report-batch.mjs <size>`: the report batch of bench/report.ts, run from the built
 * code (dist/, as `assay` runs) in a process of its own, so its peak RSS is the batch's alone, without the
 * benchmark's inline renders or tsx's transpiling loader (in the render threads too) counted in. Prints
 * one JSON line: {seconds, failed, peakRssMb, mainBusySeconds} (the main thread's busy time over the batch:
 * submitting, the engine's claims and writes, and waiting for the jobs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url);
const load = (path) => import(new URL(`dist/src/${path}`, root).href);
const { Engine } = await load('engine/engine.js');
const { JobRegistry } = await load('engine/registry.js');
const { RenderPool } = await load('report/job/render-pool.js');
const { reportKinds } = await load('report/job/kind.js');
const { submitReport } = await load('report/job/submit.js');
const { parseReportRequest } = await load('schemas/report.js');

const size = Number(process.argv[2] ?? 1000);
const home = mkdtempSync(join(tmpdir(), 'assay-bench-report-'));
const pool = new RenderPool(2);
const registry = new JobRegistry();
for (const kind of reportKinds({ render: pool.render })) registry.register(kind);
const engine = Engine.open(home, registry);
try {
  const json = JSON.parse(readFileSync(new URL('fixtures/reports/full-three-events.json', root), 'utf8'));
  const parsed = parseReportRequest(json, { requireDestination: false });
  // No destination: the batch measures generation and the engine, not a receiver.
  parsed.request.report_metadata.configuration = { auth_type: 'none', auth_key_name: 'X-API-Key' };
  const out = join(home, 'out');
  const start = performance.now();
  const elu = performance.eventLoopUtilization();
  const ids = [];
  for (let i = 0; i < size; i++) {
    ids.push((await submitReport(engine, parsed, { home, out: { dir: out, name: `r${i}` } })).job.id);
  }
  engine.startWorker({ concurrency: 2, pollMs: 10 });
  const done = await engine.waitFor(ids, { pollMs: 100 });
  const seconds = (performance.now() - start) / 1000;
  const failed = done.filter((j) => j.status !== 'completed').length;
  const mainBusySeconds = performance.eventLoopUtilization(elu).active / 1000;
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(JSON.stringify({ seconds, failed, peakRssMb, mainBusySeconds }));
} finally {
  await engine.close();
  await pool.close();
  rmSync(home, { recursive: true, force: true });
}
