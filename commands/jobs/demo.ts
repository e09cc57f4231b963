import { Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../../src/cli/engine.js';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { jobView } from '../../src/cli/job-view.js';
import { waitWithProgress } from '../../src/cli/progress.js';
import { withWorkers } from '../../src/cli/run-workers.js';
import { renderTable } from '../../src/cli/table.js';
import { demoKind } from '../../src/engine/demo.js';
import type { Engine } from '../../src/engine/engine.js';
import type { JobRecord } from '../../src/engine/types.js';
import { EXIT } from '../../src/errors.js';
import type { JobsDemoOutput } from '../../src/schemas/cli/jobs.js';

export default class JobsDemo extends EngineCommand<typeof JobsDemo> {
  static override summary = 'Run built-in demo jobs through the engine: enqueue, claim, retry, complete.';
  static override description =
    'No-op jobs that hash their number, to see the engine work. With --json: {jobs: [...]}, each as `assay jobs show --json` prints it. Exit code 1 when any job did not complete.';
  static override examples = [
    '<%= config.bin %> jobs demo',
    '<%= config.bin %> jobs demo --count 100 --fail-times 1',
    '<%= config.bin %> jobs demo --no-wait   # leave them for `assay jobs work`',
  ];
  static override flags = {
    count: Flags.integer({ description: 'Number of demo jobs.', default: 8, min: 1, max: 100_000 }),
    'fail-times': Flags.integer({
      description: 'Each job fails this many attempts before it succeeds.',
      default: 0,
      min: 0,
    }),
    'work-ms': Flags.integer({ description: 'Simulated work per job, in ms.', default: 50, min: 0 }),
    wait: Flags.boolean({
      description: 'Run workers here and wait for the jobs.',
      default: true,
      allowNo: true,
    }),
    concurrency: Flags.integer({ description: 'Jobs run at the same time.', min: 1, max: 64 }),
  };

  async run(): Promise<JobsDemoOutput> {
    const engine = await this.openEngine();
    if (!this.flags.wait) {
      try {
        const jobs = await this.enqueue(engine);
        this.log(`Enqueued ${jobs.length} demo jobs; run \`assay jobs work\` to process them.`);
        return { jobs: jobs.map((j) => jobView(j)) };
      } finally {
        await engine.close();
      }
    }
    const slots = { concurrency: this.flags.concurrency ?? defaultConcurrency(), leaseMs: leaseMsFromEnv() };
    return withWorkers(engine, slots, async () => {
      const jobs = await this.enqueue(engine);
      const finished = await waitWithProgress(
        engine,
        jobs.map((j, i) => ({ id: j.id, label: `demo job ${i + 1}` })),
        { quiet: this.jsonEnabled() },
      );
      const views = finished.map((j) => jobView(j));
      this.log(
        renderTable(
          ['ID', 'STATUS', 'ATTEMPTS', 'DIGEST'],
          views.map((v) => [v.id, v.status, v.attempts, (v.result as { digest?: string } | null)?.digest]),
        ),
      );
      const failed = views.filter((v) => v.status !== 'completed').length;
      this.log(`${views.length - failed} of ${views.length} demo jobs completed.`);
      if (failed > 0) process.exitCode = EXIT.jobFailed;
      return { jobs: views };
    });
  }

  private enqueue(engine: Engine): Promise<JobRecord[]> {
    return engine.enqueueMany(
      Array.from({ length: this.flags.count }, (_, n) =>
        engine.registry.newJob(demoKind.kind, {
          n,
          workMs: this.flags['work-ms'],
          failTimes: this.flags['fail-times'],
        }),
      ),
    );
  }
}
