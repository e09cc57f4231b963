import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import RefdataConcepts from '../../commands/refdata/concepts.js';
import RefdataRanges from '../../commands/refdata/ranges.js';
import RefdataStats from '../../commands/refdata/stats.js';
import RefdataSync from '../../commands/refdata/sync.js';
import RefdataTop from '../../commands/refdata/top.js';
import { bundledDataset } from '../../src/refdata/dataset.js';
import {
  conceptListSchema,
  labRangeListSchema,
  predictorStatisticsResponseSchema,
  topDiseasePredictorsSchema,
} from '../../src/schemas/refdata.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Run a command class in-process; returns what it printed to stdout and its exit code. */
async function run(
  command: { run: (argv: string[], opts: string) => Promise<unknown> },
  argv: string[],
): Promise<{ stdout: string; exitCode: number }> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const saved = process.exitCode;
  process.exitCode = undefined;
  try {
    await command.run(argv, ROOT);
    return { stdout, exitCode: Number(process.exitCode ?? 0) };
  } finally {
    spy.mockRestore();
    process.exitCode = saved;
  }
}

describe('assay refdata commands', () => {
  const home = tmpHome('assay-refdata-cli-');
  const h = ['--home', home.dir];
  afterAll(() => home.cleanup());

  it('refdata sync --json prints counts; a second sync reports no changes', async () => {
    const first = JSON.parse((await run(RefdataSync, [...h, '--json'])).stdout) as {
      resources: Record<string, { added: number }>;
    };
    expect(first.resources.reference_data?.added).toBe(bundledDataset().concepts.length);
    const second = await run(RefdataSync, h);
    expect(second.stdout).toMatch(/RESOURCE\s+ADDED\s+UPDATED\s+REMOVED/);
    expect(second.stdout).toMatch(/lab_ranges\s+0\s+0\s+0/);
  });

  it('--json output of each read command is the exact SPEC.md shape', async () => {
    const concepts = JSON.parse((await run(RefdataConcepts, [...h, '--json'])).stdout);
    expect(conceptListSchema.parse(concepts)).toEqual(bundledDataset().concepts);
    const top = JSON.parse((await run(RefdataTop, [...h, '--json'])).stdout);
    expect(topDiseasePredictorsSchema.parse(top)).toEqual(bundledDataset().top);
    const ranges = JSON.parse(
      (await run(RefdataRanges, [...h, '--sex', 'male', '--vendor', 'labcorp', '--json'])).stdout,
    );
    expect(
      labRangeListSchema.parse(ranges).every((r) => r.vendor_name === 'Labcorp' && r.gender_name === 'MALE'),
    ).toBe(true);
    const stats = JSON.parse(
      (await run(RefdataStats, [...h, '--sex', 'female', '--age', '50', '--event-id', 'e-1', '--json']))
        .stdout,
    );
    expect(predictorStatisticsResponseSchema.parse(stats).header.event_id).toBe('e-1');
  });

  it('refdata ranges takes vendor aliases and F/M, and refuses any other sex with exit 2', async () => {
    const ranges = async (...args: string[]) => {
      const r = await run(RefdataRanges, [...h, ...args, '--json']);
      expect(r.exitCode, args.join(' ')).toBe(0);
      return labRangeListSchema.parse(JSON.parse(r.stdout));
    };
    const quest = await ranges('--vendor', 'Quest Diagnostics');
    expect(quest.length).toBeGreaterThan(0);
    expect(await ranges('--vendor', 'Quest')).toEqual(quest);
    expect(await ranges('--vendor', 'quest')).toEqual(quest);
    const labcorp = await ranges('--vendor', 'Labcorp');
    expect(await ranges('--vendor', 'LabCorp')).toEqual(labcorp);
    expect(labcorp.length).toBeGreaterThan(0);
    const femaleQuest = await ranges('--vendor', 'Quest', '--sex', 'female');
    expect(femaleQuest.length).toBeGreaterThan(0);
    expect(await ranges('--vendor', 'Quest', '--sex', 'F')).toEqual(femaleQuest);

    const bad = await run(RefdataRanges, [...h, '--sex', 'x', '--json']);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout).error.message).toMatch(/^--sex must be F, M, female or male/);
  });

  it('tables for people, and a usage error (exit 2) for an age outside 0-120', async () => {
    expect((await run(RefdataStats, [...h, '--sex', 'male', '--age', '45'])).stdout).toMatch(
      /hdl_cholesterol/,
    );
    expect((await run(RefdataTop, h)).stdout).toMatch(/cardiovascular\s+1/);
    const bad = await run(RefdataStats, [...h, '--sex', 'male', '--age', '130', '--json']);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe('invalid_request');
  });
});
