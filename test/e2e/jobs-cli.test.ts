import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/cli/job-view.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay, assayMany, type CliResult, json } from './cli.js';

describe('assay jobs (real CLI processes)', () => {
  const home = tmpHome('assay-e2e-');
  const env = { ASSAY_HOME: home.dir };
  const corrupt = tmpHome();
  writeFileSync(join(corrupt.dir, 'assay.db'), 'not a database '.repeat(200));
  afterAll(() => {
    home.cleanup();
    corrupt.cleanup();
  });

  // Refusals, run many to one child process (test/e2e/cli.ts, assayMany) when the first is asked for. Each
  // exit code keeps a spawned run: 3 and 1 below, 2 in cli-errors.test.ts.
  const REFUSED = {
    unknownJson: { args: ['jobs', 'show', 'no-such-job', '--json'], home: home.dir },
    corrupt: { args: ['jobs', 'list'], home: corrupt.dir },
    usage: { args: ['jobs', 'list', '--limit', 'many'], home: home.dir },
  };
  let refusedRuns: Promise<CliResult[]> | undefined;
  const refused = async (name: keyof typeof REFUSED): Promise<CliResult> => {
    const names = Object.keys(REFUSED) as Array<keyof typeof REFUSED>;
    refusedRuns ??= assayMany(names.map((n) => [...REFUSED[n].args, '--home', REFUSED[n].home]));
    return (await refusedRuns)[names.indexOf(name)] as CliResult;
  };

  it('--help lists the topics', async () => {
    const r = await assay(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/TOPICS[\s\S]*jobs/);
  });

  it('a job enqueued by one process is listed and finished by another', async () => {
    const enqueued = await assay(['jobs', 'demo', '--count', '2', '--no-wait', '--json'], env);
    expect(enqueued.exitCode).toBe(0);
    const ids = json<{ jobs: JobView[] }>(enqueued).jobs.map((j) => j.id);

    const listed = json<JobView[]>(await assay(['jobs', 'list', '--json'], env));
    for (const id of ids) expect(listed.find((j) => j.id === id)?.status).toBe('queued');

    const work = await assay(['jobs', 'work', '--drain', '--json'], env);
    expect(work.exitCode).toBe(0);
    expect(json<{ done: number }>(work).done).toBe(2);

    for (const id of ids) {
      const shown = json<JobView>(await assay(['jobs', 'show', id, '--json'], env));
      expect(shown).toMatchObject({ id, status: 'completed', state: 'done', attempts: 1 });
    }
  });

  it('a job that keeps failing ends failed with exit 1; `jobs retry` brings it back', async () => {
    const run = await assay(
      ['jobs', 'demo', '--count', '1', '--fail-times', '99', '--work-ms', '0', '--json'],
      env,
    );
    expect(run.exitCode).toBe(1);
    const [job] = json<{ jobs: JobView[] }>(run).jobs;
    expect(job).toMatchObject({ status: 'failed', attempts: 4, errorType: 'DemoFailure' });
    expect(job?.errorMessage).toMatch(/attempt 4/);

    const retried = await assay(['jobs', 'retry', job?.id as string, '--json'], env);
    expect(retried.exitCode).toBe(0);
    expect(json<JobView>(retried)).toMatchObject({ status: 'queued', attempts: 0, errorType: null });
    const cancelled = await assay(['jobs', 'cancel', job?.id as string], env);
    expect(cancelled.exitCode).toBe(0);
  });

  it('an unknown job id is a one-line error and exit 3', async () => {
    const r = await assay(['jobs', 'show', 'no-such-job'], env);
    expect(r.exitCode).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('Error: No job with id no-such-job.');
    expect(r.stdout).toBe('');
    // The same refusal as JSON, and the refusals below, run many to one child process.
    const asJson = await refused('unknownJson');
    expect(asJson.exitCode).toBe(3);
    expect(json(asJson)).toMatchObject({ error: { code: 'not_found' } });
  });

  it('an unwritable home and a corrupt store are one-line errors with a non-zero exit', async () => {
    const file = join(home.dir, 'plain-file');
    writeFileSync(file, 'x');
    // Spawned: an error before any store is open ends a process of its own with exit 1.
    const unwritable = await assay(['jobs', 'list', '--home', file]);
    expect(unwritable.exitCode).toBe(1);
    expect(unwritable.stderr.split('\n')[0]).toMatch(/^Error: Cannot use .* as the assay home/);

    const r = await refused('corrupt');
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/not a valid SQLite database/);
  });

  it('a usage error exits 2', async () => {
    const r = await refused('usage');
    expect(r.exitCode).toBe(2);
  });
});
