import { Flags } from '@oclif/core';
import { pruneBlobs } from '../../src/blobs/prune.js';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { pruneReviews } from '../../src/review/job-reviews.js';
import type { JobsPruneOutput } from '../../src/schemas/cli/jobs.js';

const DAY_MS = 86_400_000;

export default class JobsPrune extends EngineCommand<typeof JobsPrune> {
  static override summary = 'Delete finished jobs (done, failed, cancelled) older than the retention period.';
  static override description =
    'Also deletes the kept files (uploads, report PDFs, sealed credentials, review revisions) of jobs no longer in the store, once older than the retention period and an hour. With --dry-run, counts what would go and deletes nothing. With --json: {deleted, files, olderThanDays, dryRun}.';
  static override examples = [
    '<%= config.bin %> jobs prune --older-than 30',
    '<%= config.bin %> jobs prune --older-than 7 --dry-run',
  ];
  static override flags = {
    'older-than': Flags.integer({
      description: 'Retention in days (ASSAY_RETENTION_DAYS).',
      env: 'ASSAY_RETENTION_DAYS',
      default: 30,
      min: 0,
    }),
    'dry-run': Flags.boolean({ description: 'Count what would be deleted; delete nothing.', default: false }),
  };

  async run(): Promise<JobsPruneOutput> {
    const engine = await this.openEngine();
    try {
      const days = this.flags['older-than'];
      const dryRun = this.flags['dry-run'];
      const cutoff = Date.now() - days * DAY_MS;
      const deleted = await engine.store.prune(cutoff, { dryRun });
      // A job's review revisions live exactly as long as the job (src/review/job-reviews.ts).
      const files =
        (await pruneBlobs(engine, cutoff, Date.now(), { dryRun })) +
        (dryRun ? 0 : await pruneReviews(engine));
      this.log(
        dryRun
          ? `Would delete ${deleted} finished jobs and ${files} kept files older than ${days} days (dry run: nothing deleted).`
          : `Deleted ${deleted} finished jobs and ${files} kept files older than ${days} days.`,
      );
      return { deleted, files, olderThanDays: days, dryRun };
    } finally {
      await engine.close();
    }
  }
}
