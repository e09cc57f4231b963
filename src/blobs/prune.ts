import type { Engine } from '../engine/engine.js';
import type { JobRegistry, KeptBlobs } from '../engine/registry.js';
import { type JobState, TERMINAL_STATES } from '../engine/types.js';
import type { BlobInfo } from './store.js';

/**
 * A file is written a moment before its job is stored (submission writes the upload first, so no worker
 * claims a job without its file): one younger than this may belong to a job not in the store yet.
 */
export const PRUNE_GRACE_MS = 60 * 60_000;

const LIVE: JobState[] = ['held', 'ready', 'running'];
/** Live jobs read per kind and state; past it the live set may be incomplete, and shared files are kept. */
const LIVE_LIMIT = 10_000;

/** Each kind's declaration with the kinds that made it: kinds may share one (report.full and condensed). */
function declaredBlobs(registry: JobRegistry): Map<KeptBlobs, string[]> {
  const declared = new Map<KeptBlobs, string[]>();
  for (const name of registry.names()) {
    const blobs = registry.get(name)?.blobs;
    if (blobs) declared.set(blobs, [...(declared.get(blobs) ?? []), name]);
  }
  return declared;
}

/** The keys unfinished jobs still read; null when a list reached LIVE_LIMIT and may have left some out. */
async function liveKeys(engine: Engine, declared: Map<KeptBlobs, string[]>): Promise<Set<string> | null> {
  const keys = new Set<string>();
  for (const [blobs, kinds] of declared) {
    if (!blobs.live) continue;
    for (const kind of kinds) {
      for (const state of LIVE) {
        const jobs = await engine.store.list({ kind, state, limit: LIVE_LIMIT });
        if (jobs.length >= LIVE_LIMIT) return null;
        for (const job of jobs) for (const key of blobs.live(job)) keys.add(key);
      }
    }
  }
  return keys;
}

/**
 * `assay jobs prune`, after the jobs: delete the blobs the registered kinds declare (JobKind.blobs) once no
 * job needs them. A blob that goes with its job's end goes once that job has ended or is gone; one kept
 * while its job is stored, or shared along a chain of jobs, goes once written before `before`, its job is
 * no longer stored and no unfinished job names it. None written less than PRUNE_GRACE_MS ago goes. The
 * handlers delete these when jobs end; what is left here is what a crash, a failed delivery (its PDF kept
 * for a retry) or an interrupted delete left behind. Returns how many went.
 */
export async function pruneBlobs(
  engine: Engine,
  before: number,
  now = Date.now(),
  opts: { dryRun?: boolean } = {},
): Promise<number> {
  const blobs = engine.blobs;
  const declared = declaredBlobs(engine.registry);
  const settled = (b: BlobInfo) => b.writtenAt < now - PRUNE_GRACE_MS;
  const old = (b: BlobInfo) => b.writtenAt < before && settled(b);
  // A dry run deletes no job: the jobs the real run would prune first are read as already gone.
  const stored = async (id: string) => {
    const job = await engine.store.get(id);
    const pruned = opts.dryRun && job && TERMINAL_STATES.includes(job.state) && job.updatedAt < before;
    return pruned ? null : job;
  };
  const mayStillRun = async (id: string, kinds: string[]) => {
    const job = await stored(id);
    return !!job && kinds.includes(job.kind) && !TERMINAL_STATES.includes(job.state);
  };
  // Read at most once, and only if a blob that may outlive its job asks; an incomplete set names every key.
  let live: Promise<Set<string> | null> | undefined;
  const named = async (key: string) => {
    live ??= liveKeys(engine, declared);
    const keys = await live;
    return keys === null || keys.has(key);
  };

  /** Whether some declaration recognises the blob and none still needs it. */
  const unneeded = async (b: BlobInfo): Promise<boolean> => {
    let recognised = false;
    for (const [kept, kinds] of declared) {
      if (!b.key.startsWith(kept.prefix)) continue;
      const id = kept.owner?.(b.key);
      if (id) {
        recognised = true;
        // A blob bound to its job goes once the job has ended, however long the job itself is kept: the
        // end's clean-up may have died with its worker.
        const needed = kept.keepWhileStored
          ? !old(b) || (await named(b.key)) || Boolean(await stored(id))
          : !settled(b) || (await mayStillRun(id, kinds));
        if (needed) return false;
      }
      if (kept.shared?.(b.key)) {
        recognised = true;
        if (!old(b) || (await named(b.key))) return false;
      }
    }
    return recognised;
  };

  let deleted = 0;
  // Declared prefixes may nest (`reports/`, `reports/credentials/`): a blob listed twice counts once.
  const seen = new Set<string>();
  for (const prefix of new Set([...declared.keys()].map((kept) => kept.prefix))) {
    for (const b of await blobs.list(prefix)) {
      if (seen.has(b.key)) continue;
      seen.add(b.key);
      if (!(await unneeded(b))) continue;
      if (!opts.dryRun) await blobs.delete(b.key);
      deleted += 1;
    }
  }
  return deleted;
}
