import { Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';

const DAY_MS = 86_400_000;

export default class JobsPrune extends EngineCommand<typeof JobsPrune> {
  static override summary = 'Delete finished jobs (done, failed, cancelled) older than the retention period.';
  static override description = 'With --json: {deleted, olderThanDays}.';
  static override examples = ['<%= config.bin %> jobs prune --older-than 30'];
  static override flags = {
    'older-than': Flags.integer({
      description: 'Retention in days (ASSAY_RETENTION_DAYS).',
      env: 'ASSAY_RETENTION_DAYS',
      default: 30,
      min: 0,
    }),
  };

  async run(): Promise<{ deleted: number; olderThanDays: number }> {
    const engine = await this.openEngine();
    try {
      const days = this.flags['older-than'];
      const deleted = await engine.store.prune(Date.now() - days * DAY_MS);
      this.log(`Deleted ${deleted} finished jobs older than ${days} days.`);
      return { deleted, olderThanDays: days };
    } finally {
      await engine.close();
    }
  }
}
