import { Args } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { jobView } from '../../src/cli/job-view.js';
import type { JobViewOutput } from '../../src/schemas/cli/jobs.js';

export default class JobsCancel extends EngineCommand<typeof JobsCancel> {
  static override summary = 'Cancel a job that has not finished.';
  static override description =
    'A running job is stopped at its next write: the worker holding it loses its lease and discards its result.' +
    ' With --json: the job after the change, as `assay jobs show --json` prints it.';
  static override examples = ['<%= config.bin %> jobs cancel <id>'];
  static override args = { id: Args.string({ description: 'Job id.', required: true }) };

  async run(): Promise<JobViewOutput> {
    const store = await this.openJobStore();
    try {
      const view = jobView(await store.cancel(this.args.id));
      this.log(`Job ${view.id} cancelled.`);
      return view;
    } finally {
      await store.close();
    }
  }
}
