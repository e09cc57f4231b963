import { Args } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { requireReportStatus } from '../../src/report/job/status.js';
import type { ReportStatusOutput } from '../../src/schemas/cli/report.js';

export default class ReportStatus extends EngineCommand<typeof ReportStatus> {
  static override summary = 'Show the status record of a report job.';
  static override description = [
    'The record the HTTP report status route returns: {job_id, status, created_at, updated_at, error_type, ' +
      'error_message}, where status is pending, processing, completed or failed, and error_type and ' +
      'error_message are set only when it failed. Exit code 3 for an unknown job.',
    formatsSee('Report output and status'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> report status <jobId>',
    '<%= config.bin %> report status <jobId> --json',
  ];
  static override args = { jobId: Args.string({ description: 'Report job id.', required: true }) };

  async run(): Promise<ReportStatusOutput> {
    const store = await this.openJobStore();
    try {
      const record = await requireReportStatus(store, this.args.jobId);
      for (const [key, value] of Object.entries(record))
        this.log(`${key.padEnd(14)} ${value ?? ''}`.trimEnd());
      return record;
    } finally {
      await store.close();
    }
  }
}
