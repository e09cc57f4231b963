/**
 * The PHI promise, end to end: every fixture goes through the real engine (both with its request and, for
 * the PHI-heavy report, redacted instead of rejected), then every byte the run left anywhere is searched
 * for every PHI string any fixture prints: output JSON, the SQLite file and its WAL, every file under the
 * home, and everything written to stdout and stderr meanwhile (worker threads' output included).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { JobRegistry } from '../../src/engine/registry.js';
import { labExtractKind, submitLabFile } from '../../src/lab/job/kind.js';
import { labStatusBody } from '../../src/lab/job/status-body.js';
import { closeSharedThreadPool } from '../../src/lab/job/thread-pool.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { manifest, pdfBytes, phiOf } from './fixture-files.js';

const entries = manifest();
const allPhi = [...new Set(entries.flatMap((e) => phiOf(e.name)))];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name));
}

function leaks(haystack: Buffer): string[] {
  return allPhi.filter((phi) => haystack.includes(Buffer.from(phi, 'utf8')));
}

describe('no PHI anywhere after a full run', () => {
  const home = tmpHome('assay-phi-grep-');
  const out = tmpHome('assay-phi-grep-out-');
  const outDir = out.dir;
  const captured: Buffer[] = [];
  const dbSnapshots: Array<{ name: string; bytes: Buffer }> = [];
  const restore: Array<() => void> = [];

  beforeAll(async () => {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        captured.push(Buffer.from(chunk));
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      restore.push(() => {
        stream.write = write;
      });
    }
    const engine = Engine.open(home.dir, new JobRegistry().register(labExtractKind({ home: home.dir })));
    engine.startWorker({ concurrency: 2, pollMs: 20 });
    const runs = [
      ...entries.map((e) => ({ name: e.name, request: e.request })),
      { name: 'phi-heavy-quest', request: { dateOfBirth: '1991-02-14', rejectIfPHI: false } },
    ];
    const jobs = [];
    for (const run of runs)
      jobs.push(
        await submitLabFile(engine, home.dir, {
          pdf: pdfBytes(run.name),
          filename: `${run.name}.pdf`,
          ...run.request,
        }),
      );
    const done = await engine.waitFor(jobs.map((j) => j.id));
    for (const [i, job] of done.entries())
      writeFileSync(join(outDir, `${runs[i]?.name}-${i}.json`), JSON.stringify(labStatusBody(job), null, 2));
    // The WAL is folded into the main file on close: read both while it still holds the run's writes.
    for (const name of ['assay.db', 'assay.db-wal'])
      dbSnapshots.push({ name, bytes: readFileSync(join(home.dir, name)) });
    await engine.close(1_000);
    await closeSharedThreadPool();
    for (const undo of restore) undo();
  }, 120_000);

  afterAll(() => {
    for (const undo of restore) undo();
    home.cleanup();
    out.cleanup();
  });

  it('the redacted run of the PHI-heavy report completed, so its results were really searched', () => {
    const outputs = readdirSync(outDir).map((f) => JSON.parse(readFileSync(join(outDir, f), 'utf8')));
    expect(outputs.filter((o) => o.status === 'completed').length).toBeGreaterThanOrEqual(9);
    expect(outputs.some((o) => o.status === 'rejected_phi')).toBe(true);
  });

  it('has a list of PHI strings to look for', () => {
    expect(allPhi.length).toBeGreaterThan(100);
  });

  it('no output JSON holds PHI', () => {
    for (const file of filesUnder(outDir))
      expect({ file, leaks: leaks(readFileSync(file)) }).toEqual({ file, leaks: [] });
  });

  it('the SQLite file and its WAL, raw, hold no PHI', () => {
    expect(dbSnapshots.map((s) => s.name)).toEqual(['assay.db', 'assay.db-wal']);
    expect(dbSnapshots.some((s) => s.bytes.length > 0)).toBe(true);
    for (const { name, bytes } of dbSnapshots)
      expect({ name, leaks: leaks(bytes) }).toEqual({ name, leaks: [] });
  });

  it('no file left under the home holds PHI, and no PDF copy is left', () => {
    const files = filesUnder(home.dir);
    expect(files.filter((f) => f.endsWith('.pdf'))).toEqual([]);
    for (const file of files) expect({ file, leaks: leaks(readFileSync(file)) }).toEqual({ file, leaks: [] });
  });

  it('nothing written to stdout or stderr holds PHI', () => {
    expect(leaks(Buffer.concat(captured))).toEqual([]);
  });
});
