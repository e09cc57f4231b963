import { Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../../src/cli/engine.js';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { runWorkers } from '../../src/cli/run-workers.js';
import type { JobsWorkOutput } from '../../src/schemas/cli/jobs.js';

export default class JobsWork extends EngineCommand<typeof JobsWork> {
  static override summary =
    'Run workers over the job store until Ctrl-C (or until the queue is empty with --drain).';
  static override description =
    'Workers claim jobs of every kind from the store shared with `assay serve` and other commands on the same home. With --json: {workerId, done, failed, retried}.';
  static override examples = [
    '<%= config.bin %> jobs work --concurrency 4',
    '<%= config.bin %> jobs work --drain --json',
  ];
  static override flags = {
    concurrency: Flags.integer({ description: 'Jobs run at the same time.', min: 1, max: 64 }),
    drain: Flags.boolean({ description: 'Exit once no job is waiting or running.', default: false }),
    kind: Flags.string({ description: 'Only run jobs of these kinds.', multiple: true }),
  };

  async run(): Promise<JobsWorkOutput> {
    const engine = await this.openEngine();
    const summary = await runWorkers(engine, {
      concurrency: this.flags.concurrency ?? defaultConcurrency(),
      leaseMs: leaseMsFromEnv(),
      kinds: this.flags.kind,
      drain: this.flags.drain,
      log: this.jsonEnabled() ? () => {} : (line) => this.logToStderr(line),
    });
    this.log(
      `Worker ${summary.workerId}: ${summary.done} done, ${summary.failed} failed, ${summary.retried} retried.`,
    );
    return summary;
  }
}
