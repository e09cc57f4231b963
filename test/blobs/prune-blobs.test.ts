import { describe, expect, it } from 'vitest';
import { PRUNE_GRACE_MS, pruneBlobs } from '../../src/blobs/prune.js';
import { blobKeys } from '../../src/blobs/store.js';
import { openEngine } from '../../src/cli/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { submitLabFile } from '../../src/lab/job/kind.js';
import { submitReport } from '../../src/report/job/submit.js';
import { parseReportRequest } from '../../src/schemas/report.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { fixtureJson } from '../report/support/fixtures.js';
import { postgresForSuite } from '../support/postgres-suite.js';

const PDF = Buffer.from('%PDF-1.4 never parsed: no worker runs here');

function reportRequest() {
  const json = fixtureJson('condensed-required-only') as { report_metadata: Record<string, unknown> };
  json.report_metadata.configuration = {
    callback_url: 'https://receiver.example/hook',
    auth_type: 'bearer',
    auth_token: 'prune-test-token',
  };
  return parseReportRequest(json, { requireDestination: true });
}

const server = postgresForSuite();

/** A lab job and a report job (with its PDF kept) that have ended, and a lab job still queued. */
async function endedAndLive(engine: Engine, home: string) {
  const ended = await submitLabFile(engine, home, { pdf: PDF, filename: 'a.pdf', dedupe: false });
  const live = await submitLabFile(engine, home, { pdf: PDF, filename: 'b.pdf', dedupe: false });
  const endedReport = (await submitReport(engine, reportRequest(), { home })).job;
  await engine.blobs.put(blobKeys.reportPdf(endedReport.id), PDF);
  await engine.store.cancel(ended.id);
  await engine.store.cancel(endedReport.id);
  return { ended, live, endedReport };
}

describe.each(['sqlite', 'postgres'])('`jobs prune` and kept files (%s)', (kind) => {
  it('deletes the files of pruned jobs, keeps those of live jobs and anything younger than the grace', async () => {
    const home = tmpHome('assay-prune-blobs-');
    const store = kind === 'postgres' ? await server.createDatabase() : undefined;
    const engine = await openEngine({ home: home.dir, store });
    try {
      const { ended, live, endedReport } = await endedAndLive(engine, home.dir);
      const liveReport = (await submitReport(engine, reportRequest(), { home: home.dir })).job;
      const refOf = (job: { payload: unknown }) => (job.payload as { credentialRef: string }).credentialRef;
      const [endedRef, liveRef] = [refOf(endedReport), refOf(liveReport)];
      const later = Date.now() + 10;
      await new Promise((r) => setTimeout(r, 20));
      expect(await engine.store.prune(later)).toBe(2);

      // Within the grace nothing goes: a file may be written just before its job is stored.
      expect(await pruneBlobs(engine, later)).toBe(0);
      expect(await pruneBlobs(engine, later, Date.now() + PRUNE_GRACE_MS + 1_000)).toBe(3);
      expect(await engine.blobs.get(blobKeys.upload(ended.id))).toBeNull();
      expect(await engine.blobs.get(blobKeys.reportPdf(endedReport.id))).toBeNull();
      expect(await engine.blobs.get(blobKeys.credential(endedRef))).toBeNull();
      expect((await engine.blobs.get(blobKeys.upload(live.id)))?.equals(PDF)).toBe(true);
      expect(await engine.blobs.get(blobKeys.credential(liveRef))).not.toBeNull();
    } finally {
      await engine.close();
      home.cleanup();
    }
  });

  it('a dry run counts what the real run deletes, jobs and files, and deletes nothing', async () => {
    const home = tmpHome('assay-prune-dry-');
    const store = kind === 'postgres' ? await server.createDatabase() : undefined;
    const engine = await openEngine({ home: home.dir, store });
    try {
      const { ended, live, endedReport } = await endedAndLive(engine, home.dir);
      const later = Date.now() + 10;
      await new Promise((r) => setTimeout(r, 20));
      const afterGrace = Date.now() + PRUNE_GRACE_MS + 1_000;

      expect(await engine.store.prune(later, { dryRun: true })).toBe(2);
      // The report's PDF and credential count: the jobs that hold them would be pruned first.
      expect(await pruneBlobs(engine, later, afterGrace, { dryRun: true })).toBe(3);
      for (const id of [ended.id, live.id, endedReport.id]) expect(await engine.store.get(id)).not.toBeNull();
      expect(await engine.blobs.get(blobKeys.upload(ended.id))).not.toBeNull();
      expect(await engine.blobs.get(blobKeys.reportPdf(endedReport.id))).not.toBeNull();

      expect(await engine.store.prune(later)).toBe(2);
      expect(await pruneBlobs(engine, later, afterGrace)).toBe(3);
    } finally {
      await engine.close();
      home.cleanup();
    }
  });

  it('deletes the upload of a lab job that has ended, however long the job itself is kept', async () => {
    const home = tmpHome('assay-prune-ended-');
    const store = kind === 'postgres' ? await server.createDatabase() : undefined;
    const engine = await openEngine({ home: home.dir, store });
    try {
      const ended = await submitLabFile(engine, home.dir, { pdf: PDF, filename: 'a.pdf', dedupe: false });
      const live = await submitLabFile(engine, home.dir, { pdf: PDF, filename: 'b.pdf', dedupe: false });
      await engine.store.cancel(ended.id);
      // Nothing is older than the jobs' cutoff (0): only the ended job's upload has lost its use.
      expect(await pruneBlobs(engine, 0, Date.now() + PRUNE_GRACE_MS + 1_000)).toBe(1);
      expect(await engine.blobs.get(blobKeys.upload(ended.id))).toBeNull();
      expect(await engine.blobs.get(blobKeys.upload(live.id))).not.toBeNull();
    } finally {
      await engine.close();
      home.cleanup();
    }
  });
});
