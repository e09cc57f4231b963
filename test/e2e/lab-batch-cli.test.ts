import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_DIR } from '../../fixtures/labs/generate.js';
import type { LabStatusBody } from '../../src/lab/job/status-body.js';
import { tmpHome } from '../engine/support/tmp-home.js';

interface ExtractJson {
  files: Array<{ file: string; output: string | null; result: LabStatusBody }>;
  interrupted?: { signal: string; ended: number; left: number };
}

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const pdf = (name: string) => join(FIXTURE_DIR, `${name}.pdf`);

let home: ReturnType<typeof tmpHome>;
let work: ReturnType<typeof tmpHome>;
beforeEach(() => {
  home = tmpHome('assay-e2e-batch-');
  work = tmpHome('assay-e2e-batch-work-');
});
afterEach(() => {
  home.cleanup();
  work.cleanup();
});

/** The built CLI in a child process; a short timeout, so a batch that hangs fails the test instead of CI. */
const extract = (args: string[]) =>
  execa(process.execPath, [BIN, 'lab', 'extract', ...args], {
    env: { NO_COLOR: '1', ASSAY_HOME: home.dir },
    reject: false,
    timeout: 25_000,
  });

const waitUntil = async (test: () => boolean) => {
  for (let i = 0; i < 300 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(test()).toBe(true);
};

describe('lab extract batches (real CLI processes)', () => {
  it('the same PDF twice, by path or as two copies, ends: one job, every output written', async () => {
    const samePath = await extract([pdf('quest-cmp-lipid'), pdf('quest-cmp-lipid'), '--json']);
    expect(samePath.timedOut).toBe(false);
    expect(samePath.exitCode).toBe(0);
    expect((JSON.parse(samePath.stdout) as ExtractJson).files).toHaveLength(1);

    const folder = join(work.dir, 'in');
    mkdirSync(folder);
    copyFileSync(pdf('quest-cmp-lipid'), join(folder, 'a.pdf'));
    copyFileSync(pdf('quest-cmp-lipid'), join(folder, 'b.pdf'));
    const out = join(work.dir, 'out');
    const copies = await extract([folder, '--out', out]);
    expect(copies.timedOut).toBe(false);
    expect(copies.exitCode).toBe(0);
    expect(copies.stdout).toContain('2 of 2 PDFs completed. 1 identical to another PDF given');
    const a = JSON.parse(readFileSync(join(out, 'a.json'), 'utf8')) as LabStatusBody;
    const b = JSON.parse(readFileSync(join(out, 'b.json'), 'utf8')) as LabStatusBody;
    expect(a.status).toBe('completed');
    expect(b).toEqual(a);
  });

  it('two inputs with one name write two outputs, under their relative folders', async () => {
    for (const [sub, name] of [
      ['a', 'quest-cmp-lipid'],
      ['b', 'labcorp-cmp-lipid'],
    ] as const) {
      mkdirSync(join(work.dir, 'coll', sub), { recursive: true });
      copyFileSync(pdf(name), join(work.dir, 'coll', sub, 'report.pdf'));
    }
    const out = join(work.dir, 'o');
    const r = await extract([
      join(work.dir, 'coll/a/report.pdf'),
      join(work.dir, 'coll/b/report.pdf'),
      '--out',
      out,
      '--format',
      'json,csv',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/a\/report\.pdf\s+completed/);
    expect(r.stdout).toMatch(/b\/report\.pdf\s+completed/);
    expect(readdirSync(out, { recursive: true }).map(String).sort()).toEqual([
      'a',
      'a/report.csv',
      'a/report.json',
      'b',
      'b/report.csv',
      'b/report.json',
    ]);
    const lab = (sub: string) =>
      (JSON.parse(readFileSync(join(out, sub, 'report.json'), 'utf8')) as { labName?: string }).labName;
    expect([lab('a'), lab('b')]).toEqual(['Quest Diagnostics', 'Labcorp']);
  });

  it('SIGINT mid-batch exits 130 with what ended and what is left; SIGTERM 143; a re-run resumes', async () => {
    const folder = join(work.dir, 'in');
    mkdirSync(folder);
    const names = [
      'quest-cmp-lipid',
      'labcorp-cmp-lipid',
      'quest-cbc-a1c',
      'labcorp-a1c-thyroid-lipid',
      'quest-annual-male',
      'labcorp-annual-female',
      'quest-cmp-urinalysis',
      'labcorp-cbc-urinalysis',
    ];
    for (const name of names) copyFileSync(pdf(name), join(folder, `${name}.pdf`));
    const out = join(work.dir, 'out');
    const interruptAfterFirst = async (signal: 'SIGINT' | 'SIGTERM', json: boolean) => {
      const child = extract([folder, '--out', out, '--concurrency', '1', ...(json ? ['--json'] : [])]);
      const before = existsSync(out) ? readdirSync(out).length : 0;
      await waitUntil(() => existsSync(out) && readdirSync(out).length > before);
      child.kill(signal);
      return child;
    };

    const first = await interruptAfterFirst('SIGINT', false);
    expect(first.exitCode).toBe(130);
    const line = /Interrupted \(SIGINT\): (\d+) of 8 PDFs ended, \d+ completed; (\d+) left unfinished/.exec(
      first.stdout,
    );
    expect(line).not.toBeNull();
    const [ended, left] = [Number(line?.[1]), Number(line?.[2])];
    expect(ended).toBeGreaterThanOrEqual(1);
    expect(ended + left).toBe(8);
    expect(left).toBeGreaterThan(0);
    expect(first.stdout).toMatch(/queued/);
    // Outputs only for what ended: a queued body would go stale.
    expect(readdirSync(out)).toHaveLength(ended);

    const second = await interruptAfterFirst('SIGTERM', true);
    expect(second.exitCode).toBe(143);
    const body = JSON.parse(second.stdout) as ExtractJson;
    expect(body.interrupted).toMatchObject({ signal: 'SIGTERM' });
    expect((body.interrupted?.ended ?? 0) + (body.interrupted?.left ?? 0)).toBe(8);
    expect(body.interrupted?.ended).toBeGreaterThan(ended);

    // No job is left running (in-flight ones were handed back), and the re-run takes the same jobs.
    const list = await execa(process.execPath, [BIN, 'jobs', 'list', '--json'], {
      env: { ASSAY_HOME: home.dir },
    });
    const jobs = JSON.parse(list.stdout) as Array<{ id: string; state: string }>;
    expect(jobs).toHaveLength(8);
    expect(jobs.filter((j) => j.state === 'running')).toEqual([]);

    const last = await extract([folder, '--out', out, '--json']);
    expect(last.exitCode).toBe(0);
    const files = (JSON.parse(last.stdout) as ExtractJson).files;
    expect(files.every((f) => f.result.status === 'completed')).toBe(true);
    expect(new Set(files.map((f) => f.result.jobId))).toEqual(new Set(jobs.map((j) => j.id)));
    expect(readdirSync(out)).toHaveLength(8);
  }, 90_000);
});
