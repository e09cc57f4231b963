import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR } from '../../fixtures/labs/generate.js';
import type { JobView } from '../../src/cli/job-view.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay, assayMany, type CliResult, json } from './cli.js';

describe('jobs retry / list / show / prune on lab jobs (real CLI processes)', () => {
  const home = tmpHome('assay-e2e-jobs-admin-');
  const env = { ASSAY_HOME: home.dir };
  let failed: JobView;
  let completed: JobView;
  beforeAll(async () => {
    const pdf = (name: string) => join(FIXTURE_DIR, `${name}.pdf`);
    await assay(['lab', 'extract', pdf('corrupt-truncated'), pdf('quest-cbc-a1c')], env);
    const jobs = json<JobView[]>(await assay(['jobs', 'list', '--json'], env));
    failed = jobs.find((j) => j.state === 'failed') as JobView;
    completed = jobs.find((j) => j.state === 'done') as JobView;
  });
  afterAll(() => home.cleanup());

  it('`jobs retry` refuses a lab job whose PDF copy is gone, says why, and keeps its first error', async () => {
    expect(failed.errorType).toBe('invalid_pdf');
    const r = await assay(['jobs', 'retry', failed.id], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /cannot run again: the copy of its PDF was deleted when it ended failed \(invalid_pdf\)/,
    );
    expect(r.stderr).toContain('hint: Submit the file again: assay lab extract corrupt-truncated.pdf');
    // The same refusal as JSON, and the job read back after it, in one child process (assayMany).
    const [refused, shown] = (await assayMany(
      [
        ['jobs', 'retry', failed.id, '--json'],
        ['jobs', 'show', failed.id, '--json'],
      ],
      env,
    )) as [CliResult, CliResult];
    expect(refused.exitCode).toBe(2);
    const asJson = json<{ error: { code: string } }>(refused);
    expect(asJson.error.code).toBe('upload_missing');

    const after = json<JobView>(shown);
    expect(after).toMatchObject({ state: 'failed', errorType: 'invalid_pdf', attempts: failed.attempts });
    expect(after.errorMessage).toBe(failed.errorMessage);
  });

  it("`jobs list` shows each lab job's file name, in the table and in --json", async () => {
    const r = await assay(['jobs', 'list'], env);
    expect(r.stdout).toMatch(/STATUS\s+FILE\s+ATTEMPTS/);
    expect(r.stdout).toMatch(/failed\s+corrupt-truncated\.pdf/);
    expect(r.stdout).toMatch(/completed\s+quest-cbc-a1c\.pdf/);
    expect(completed.file).toBe('quest-cbc-a1c.pdf');
  });

  it('`jobs show` prints the result as indented JSON under its key', async () => {
    const r = await assay(['jobs', 'show', completed.id], env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^file\s+quest-cbc-a1c\.pdf$/m);
    expect(r.stdout).toMatch(/^result:\n {2}\{\n {4}"/m);
    expect(r.stdout.split('\n').every((line) => line.length < 400)).toBe(true);
  });

  it('`jobs prune --dry-run` says what would go and deletes nothing', async () => {
    // A spawned dry run, then the text form, the list, the real prune and the list again in one child
    // process (assayMany), one after another as typed.
    const dry = await assay(['jobs', 'prune', '--older-than', '0', '--dry-run', '--json'], env);
    expect(dry.exitCode).toBe(0);
    expect(json(dry)).toMatchObject({ deleted: 2, olderThanDays: 0, dryRun: true });
    const [text, before, pruned, after] = (await assayMany(
      [
        ['jobs', 'prune', '--older-than', '0', '--dry-run'],
        ['jobs', 'list', '--json'],
        ['jobs', 'prune', '--older-than', '0', '--json'],
        ['jobs', 'list', '--json'],
      ],
      env,
    )) as [CliResult, CliResult, CliResult, CliResult];
    expect(text.stdout).toMatch(/^Would delete 2 finished jobs .*nothing deleted/);
    expect(json<JobView[]>(before)).toHaveLength(2);
    expect(json(pruned)).toMatchObject({ deleted: 2, dryRun: false });
    expect(json<JobView[]>(after)).toHaveLength(0);
  });
});
