import { Args, Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { jobView, jobViewLines } from '../../src/cli/job-view.js';
import type { JobViewOutput } from '../../src/schemas/cli/jobs.js';

export default class JobsShow extends EngineCommand<typeof JobsShow> {
  static override summary = 'Show one job: status, attempts, error and result.';
  static override description = [
    'With --json: {id, kind, status, state, attempts, maxAttempts, createdAt, updatedAt, runAt, workerId, ' +
      'parentId, errorType, errorMessage, result}. Exit code 3 for an unknown job.',
    formatsSee('Jobs'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> jobs show 3f0c...-...',
    '<%= config.bin %> jobs show <id> --json',
  ];
  static override args = { id: Args.string({ description: 'Job id.', required: true }) };
  static override flags = {
    payload: Flags.boolean({ description: 'Include the job payload (the submitted input).', default: false }),
  };

  async run(): Promise<JobViewOutput> {
    const engine = await this.openEngine();
    try {
      const view = jobView(await engine.mustGet(this.args.id), { withPayload: this.flags.payload });
      this.log(jobViewLines(view).join('\n'));
      return view;
    } finally {
      await engine.close();
    }
  }
}
