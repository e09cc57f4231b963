import { Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { jobView } from '../../src/cli/job-view.js';
import { renderTable } from '../../src/cli/table.js';
import type { JobState } from '../../src/engine/types.js';
import type { JobsListOutput } from '../../src/schemas/cli/jobs.js';

export default class JobsList extends EngineCommand<typeof JobsList> {
  static override summary = 'List jobs in the store, newest first.';
  static override description = [
    'With --json: an array of jobs, each as `assay jobs show --json` prints it.',
    formatsSee('Jobs'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> jobs list',
    '<%= config.bin %> jobs list --state failed --json',
  ];

  static override flags = {
    kind: Flags.string({ description: 'Only jobs of this kind (lab.extract, report.full, demo.hash ...).' }),
    state: Flags.string({
      description: 'Only jobs in this engine state.',
      options: ['held', 'ready', 'running', 'done', 'failed', 'cancelled'],
    }),
    status: Flags.string({
      description: 'Only jobs with this status (queued, completed, invalid_document ...).',
    }),
    limit: Flags.integer({ description: 'At most this many jobs.', default: 50, min: 1, max: 10_000 }),
  };

  async run(): Promise<JobsListOutput> {
    const store = await this.openJobStore();
    try {
      const jobs = await store.list({
        kind: this.flags.kind,
        state: this.flags.state as JobState | undefined,
        status: this.flags.status,
        limit: this.flags.limit,
      });
      const views = jobs.map((j) => jobView(j));
      if (views.length === 0) this.log('No jobs.');
      else
        this.log(
          renderTable(
            ['ID', 'KIND', 'STATUS', 'FILE', 'ATTEMPTS', 'UPDATED'],
            views.map((v) => [v.id, v.kind, v.status, v.file, `${v.attempts}/${v.maxAttempts}`, v.updatedAt]),
          ),
        );
      return views;
    } finally {
      await store.close();
    }
  }
}
