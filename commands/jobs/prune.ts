import { Flags } from '@oclif/core';
import { pruneBlobs } from '../../src/blobs/prune-blobs.js';
import { EngineCommand } from '../../src/cli/engine-command.js';

const DAY_MS = 86_400_000;

export default class JobsPrune extends EngineCommand<typeof JobsPrune> {
  static override summary = 'Delete finished jobs (done, failed, cancelled) older than the retention period.';
  static override description =
    'Also deletes the kept files (uploads, report PDFs, sealed credentials) of jobs no longer in the store, once older than the retention period and an hour. With --json: {deleted, files, olderThanDays}.';
  static override examples = ['<%= config.bin %> jobs prune --older-than 30'];
  static override flags = {
    'older-than': Flags.integer({
      description: 'Retention in days (ASSAY_RETENTION_DAYS).',
      env: 'ASSAY_RETENTION_DAYS',
      default: 30,
      min: 0,
    }),
  };

  async run(): Promise<{ deleted: number; files: number; olderThanDays: number }> {
    const engine = await this.openEngine();
    try {
      const days = this.flags['older-than'];
      const cutoff = Date.now() - days * DAY_MS;
      const deleted = await engine.store.prune(cutoff);
      const files = await pruneBlobs(engine, cutoff);
      this.log(`Deleted ${deleted} finished jobs and ${files} kept files older than ${days} days.`);
      return { deleted, files, olderThanDays: days };
    } finally {
      await engine.close();
    }
  }
}
