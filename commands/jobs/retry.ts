import { Args } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { jobView } from '../../src/cli/job-view.js';
import { refuseRetryWithoutUpload } from '../../src/lab/job/retry-check.js';
import type { JobViewOutput } from '../../src/schemas/cli/jobs.js';

export default class JobsRetry extends EngineCommand<typeof JobsRetry> {
  static override summary = 'Send a failed or cancelled job back to the queue with its attempts reset.';
  static override description =
    'The job runs again on the next worker that looks: `assay jobs work`, `assay serve`, or any command that runs workers on the same home.' +
    ' A lab job whose PDF copy is gone (deleted when it ended) is refused: submit the file again.' +
    ' With --json: the job after the change, as `assay jobs show --json` prints it.';
  static override examples = ['<%= config.bin %> jobs retry <id>'];
  static override args = { id: Args.string({ description: 'Job id.', required: true }) };

  async run(): Promise<JobViewOutput> {
    const engine = await this.openEngine();
    try {
      await refuseRetryWithoutUpload(engine, await engine.mustGet(this.args.id));
      const view = jobView(await engine.store.retry(this.args.id));
      this.log(`Job ${view.id} is ${view.status} again.`);
      return view;
    } finally {
      await engine.close();
    }
  }
}
