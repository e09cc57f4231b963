import type { Engine } from '../engine/engine.js';
import { type JobRecord, type JobState, TERMINAL_STATES } from '../engine/types.js';
import { LAB_EXTRACT } from '../lab/job/kind.js';
import { DELIVERY_KIND, type DeliveryPayload } from '../report/delivery/payload.js';
import type { ReportJobPayload } from '../report/job/payload.js';
import { REPORT_KINDS } from '../report/job/payload.js';
import type { BlobInfo } from './store.js';

/**
 * A file is written a moment before its job is stored (submission writes the upload first, so no worker
 * claims a job without its file): one younger than this may belong to a job not in the store yet.
 */
export const PRUNE_GRACE_MS = 60 * 60_000;

const LIVE: JobState[] = ['held', 'ready', 'running'];
/** Live jobs read per kind and state; past it the live set may be incomplete, and shared files are kept. */
const LIVE_LIMIT = 10_000;

/** What unfinished report and delivery jobs still need: their report PDFs and sealed credentials. */
async function liveReferences(engine: Engine): Promise<{ pdfs: Set<string>; refs: Set<string> } | null> {
  const pdfs = new Set<string>();
  const refs = new Set<string>();
  for (const kind of [REPORT_KINDS.full, REPORT_KINDS.condensed, DELIVERY_KIND]) {
    for (const state of LIVE) {
      const jobs: JobRecord[] = await engine.store.list({ kind, state, limit: LIVE_LIMIT });
      if (jobs.length >= LIVE_LIMIT) return null;
      for (const job of jobs) {
        if (kind === DELIVERY_KIND) {
          const p = job.payload as DeliveryPayload;
          pdfs.add(p.reportJobId);
          for (const ref of [p.callback?.credentialRef, p.storageRef]) if (ref) refs.add(ref);
        } else {
          pdfs.add(job.id);
          const p = job.payload as ReportJobPayload;
          for (const ref of [p.credentialRef, p.storageRef]) if (ref) refs.add(ref);
        }
      }
    }
  }
  return { pdfs, refs };
}

/**
 * `assay jobs prune`, after the jobs: delete the uploads of lab jobs that have ended or are gone, and the
 * kept files of jobs no longer in the store (report PDFs, sealed credentials no unfinished job names)
 * written before `before`; none written less than PRUNE_GRACE_MS ago. The handlers delete these when jobs end; what is left here is what a crash,
 * a failed delivery (its PDF kept for a retry) or an interrupted delete left behind. Returns how many went.
 */
export async function pruneBlobs(
  engine: Engine,
  before: number,
  now = Date.now(),
  opts: { dryRun?: boolean } = {},
): Promise<number> {
  const blobs = engine.blobs;
  const old = (b: BlobInfo) => b.writtenAt < before && b.writtenAt < now - PRUNE_GRACE_MS;
  // A dry run deletes no job: the jobs the real run would prune first are read as already gone.
  const stored = async (id: string) => {
    const job = await engine.store.get(id);
    const pruned = opts.dryRun && job && TERMINAL_STATES.includes(job.state) && job.updatedAt < before;
    return pruned ? null : job;
  };
  const uploadUnneeded = async (id: string) => {
    const job = await stored(id);
    return job?.kind !== LAB_EXTRACT || TERMINAL_STATES.includes(job.state);
  };
  let deleted = 0;
  const drop = async (key: string) => {
    if (!opts.dryRun) await blobs.delete(key);
    deleted += 1;
  };

  // An upload is needed only while its job may still run: once the job has ended, however long it is kept,
  // the copy goes (its end's clean-up may have died with its worker).
  const settled = (b: BlobInfo) => b.writtenAt < now - PRUNE_GRACE_MS;
  for (const b of (await blobs.list('uploads/')).filter(settled)) {
    const id = /^uploads\/([^/]+)\.pdf$/.exec(b.key)?.[1];
    if (id && (await uploadUnneeded(id))) await drop(b.key);
  }
  const live = await liveReferences(engine);
  if (!live) return deleted;
  for (const b of (await blobs.list('reports/')).filter(old)) {
    const pdf = /^reports\/([^/]+)\.pdf$/.exec(b.key)?.[1];
    const ref = /^reports\/credentials\/([^/]+)\.secret$/.exec(b.key)?.[1];
    if (pdf && !live.pdfs.has(pdf) && !(await stored(pdf))) await drop(b.key);
    else if (ref && !live.refs.has(ref)) await drop(b.key);
  }
  return deleted;
}
