import type Database from 'better-sqlite3';
import type {
  Concept,
  LabRange,
  PredictorStatistic,
  PredictorStatisticsRequest,
  PredictorStatisticsResponse,
  Sex,
  TopDiseasePredictors,
} from '../schemas/refdata.js';
import { statisticsAge } from './age.js';
import { bundledDataset, type RefDataset } from './dataset.js';
import { rangeSex, rangeVendor } from './range-filter.js';
import type { RefdataBackend, RefdataMeta } from './refdata-store.js';
import { SqliteRefdataBackend } from './sqlite.js';

export type { RefdataMeta } from './refdata-store.js';

export interface LabRangeFilter {
  /** F, M, female or male, any case (range-filter.ts); other words match no range. */
  sex?: string;
  /** Vendor name or alias (Quest, LabCorp), any case. */
  vendor?: string;
}

/** A value at once when it is cached and current, else a promise of it. `await` takes either. */
export type Answer<T> = T | Promise<T>;

const then = <T, U>(value: Answer<T>, fn: (v: T) => U): Answer<U> =>
  value instanceof Promise ? value.then(fn) : fn(value);

interface Entry {
  value?: unknown;
  pending?: Promise<unknown>;
}

/**
 * Reads of the four resources over a backend (the home's SQLite file or a shared PostgreSQL). Until the
 * store has been synced once (no refdata_meta row) every read answers from the bundled dataset instead:
 * reads never write, so read-only commands and concurrent readers never race to load it, and
 * `assay refdata sync` stays the one writer.
 *
 * Answers are cached per dataset version, and the version (one small row) is checked at most once per
 * `metaTtlMs`: within it, a read whose answer is cached returns the value itself without touching the
 * backend, which keeps the server's hot routes synchronous; the backend is asked for rows only when the
 * version changed.
 */
export class RefdataStore {
  readonly backend: RefdataBackend;
  /** Reads of the current dataset version; see cached(). */
  private cache = { version: '', entries: new Map<string, Entry>() };
  private lastMeta: { at: number; meta: RefdataMeta | null } | undefined;
  /** The version check in flight: concurrent reads after the TTL share one query. */
  private metaRead: Promise<RefdataMeta | null> | undefined;

  /**
   * `metaTtlMs`: how long the dataset version read may be reused. 0 (the default) reads it on every call;
   * the server passes a fraction of a second, so a sync by another process or node shows that much later.
   * A SQLite connection is taken as that home's backend.
   */
  constructor(
    backend: RefdataBackend | Database.Database,
    private readonly metaTtlMs = 0,
  ) {
    this.backend = 'statisticsGroups' in backend ? backend : new SqliteRefdataBackend(backend);
  }

  meta(now = Date.now()): Answer<RefdataMeta | null> {
    if (this.lastMeta && now - this.lastMeta.at < this.metaTtlMs) return this.lastMeta.meta;
    this.metaRead ??= this.backend
      .meta()
      .then((meta) => {
        // Dated from when the check started: the answer is at least that fresh.
        this.lastMeta = { at: now, meta };
        return meta;
      })
      .finally(() => {
        this.metaRead = undefined;
      });
    return this.metaRead;
  }

  /** True when reads come from the store, false when they fall back to the bundled dataset. */
  async synced(): Promise<boolean> {
    return (await this.meta()) !== null;
  }

  /**
   * The answer for `key` under the dataset version in force now, computed once per version. Every sync
   * rewrites refdata_meta in the same transaction as the rows (and a new sync has a new synced_at), so the
   * meta row identifies the content: one small read per TTL instead of re-reading and re-parsing rows, and a
   * sync elsewhere is seen on the first read after the TTL. Answers are shared: callers must not mutate them.
   */
  private cached<T>(key: string, compute: (meta: RefdataMeta | null) => T | Promise<T>): Answer<T> {
    return then(this.meta(), (meta) => {
      const version = versionOf(meta);
      // Keys carry caller filters (sex, vendor, age): the bound keeps junk queries from growing memory.
      if (this.cache.version !== version || this.cache.entries.size >= 512) {
        this.cache = { version, entries: new Map() };
      }
      const entries = this.cache.entries;
      const entry = entries.get(key);
      if (entry) return (entry.pending ?? entry.value) as Answer<T>;
      const value = compute(meta);
      if (!(value instanceof Promise)) {
        entries.set(key, { value });
        return value;
      }
      // Concurrent reads of a new version share one backend read; a failed read is not kept.
      const fresh: Entry = { pending: value };
      entries.set(key, fresh);
      value.then(
        (v) => {
          fresh.value = v;
          fresh.pending = undefined;
        },
        () => {
          if (entries.get(key) === fresh) entries.delete(key);
        },
      );
      return value;
    }) as Answer<T>;
  }

  concepts(): Answer<Concept[]> {
    return this.cached('concepts', (meta) => (meta ? this.backend.concepts() : bundledDataset().concepts));
  }

  labRanges(filter: LabRangeFilter = {}): Answer<LabRange[]> {
    const gender = filter.sex === undefined ? undefined : (rangeSex(filter.sex) ?? filter.sex.toUpperCase());
    const vendor = filter.vendor === undefined ? undefined : rangeVendor(filter.vendor);
    return this.cached(`labRanges\0${gender ?? '\u0001'}\0${vendor ?? '\u0001'}`, (meta) => {
      if (meta) return this.backend.labRanges({ gender, vendor });
      return bundledDataset().labRanges.filter(
        (r) =>
          (gender === undefined || r.gender_name === gender) &&
          (vendor === undefined || r.vendor_name.toLowerCase() === vendor),
      );
    });
  }

  topDiseasePredictors(): Answer<TopDiseasePredictors> {
    return this.cached('top', (meta) => (meta ? this.backend.topDiseasePredictors() : bundledDataset().top));
  }

  /** SPEC.md C3 for a C2 request: the header echoed with the scoring version, the entries of the sex and age. */
  predictorStatistics(request: PredictorStatisticsRequest): Answer<PredictorStatisticsResponse> {
    const { sex } = request;
    // Statistics are per whole year of age: keyed by it, fractional ages share one cache entry instead of
    // churning the cache's bound.
    const age = Math.round(request.age);
    const answer = this.cached(`statistics\0${sex}\0${age}`, (meta) => {
      if (!meta)
        return { scoringVersion: bundledDataset().scoring_version, statistics: bundledStatistics(sex, age) };
      return this.backend
        .predictorStatistics(sex, age)
        .then((statistics) => ({ scoringVersion: meta.scoring_version, statistics }));
    });
    return then(answer, ({ scoringVersion, statistics }) => ({
      header: {
        event_id: request.header.event_id,
        event_asof_dtutc: request.header.event_asof_dtutc,
        scoring_version: scoringVersion,
      },
      predictor_statistics: statistics,
      ...(statistics.length === 0 ? { notice: NO_STATISTICS_NOTICE } : {}),
    }));
  }

  /** Everything the store holds, as a dataset (the base a partial sync from a folder builds on). */
  async dataset(): Promise<RefDataset> {
    const meta = await this.meta();
    if (!meta) return bundledDataset();
    return {
      scoring_version: meta.scoring_version,
      concepts: await this.concepts(),
      statistics: await this.backend.statisticsGroups(),
      top: await this.topDiseasePredictors(),
      labRanges: await this.labRanges(),
    };
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

const versionOf = (meta: RefdataMeta | null): string =>
  meta ? `${meta.dataset_version}\0${meta.synced_at}\0${meta.scoring_version}` : 'bundled';

/** SPEC.md allows ages 0-120; an empty answer says why rather than look like a failure. */
export const NO_STATISTICS_NOTICE =
  'No population statistics apply to this sex and age: they describe adults (NHANES) and are not ' +
  'stretched to younger ages.';

function bundledStatistics(sex: Sex, age: number): PredictorStatistic[] {
  const groups = bundledDataset().statistics.filter((g) => g.sex === sex);
  if (groups.length === 0) return [];
  const ages = groups.map((g) => g.age);
  const at = statisticsAge(age, Math.min(...ages), Math.max(...ages));
  return groups.find((g) => g.age === at)?.predictor_statistics ?? [];
}
