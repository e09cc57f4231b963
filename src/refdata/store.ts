import type Database from 'better-sqlite3';
import type {
  Concept,
  LabRange,
  PredictorStatistic,
  PredictorStatisticsRequest,
  PredictorStatisticsResponse,
  Sex,
  TopDiseasePredictors,
  TopPredictor,
} from '../schemas/refdata.js';
import { statisticsAge } from './age.js';
import { bundledDataset, type RefDataset } from './dataset.js';

/** refdata_meta: what the store was last synced with. */
export interface RefdataMeta {
  dataset_version: string;
  source: string;
  scoring_version: string;
  synced_at: string;
}

export interface LabRangeFilter {
  /** female or male, any case. */
  sex?: string;
  /** Vendor name, any case. */
  vendor?: string;
}

/**
 * Reads of the four resources. Until the store has been synced once (no refdata_meta row) every read answers
 * from the bundled dataset instead: reads never write, so read-only commands and concurrent readers never
 * race to load it, and `assay refdata sync` stays the one writer.
 */
export class RefdataStore {
  private metaStmt: Database.Statement<[], RefdataMeta> | undefined;
  /** Reads of the current dataset version; see cached(). */
  private cache = { version: '', entries: new Map<string, unknown>() };

  private lastMeta: { at: number; meta: RefdataMeta | null } | undefined;

  /**
   * `metaTtlMs`: how long the dataset version read may be reused. 0 (the default) reads it on every call;
   * the server passes a fraction of a second, so a sync by another process shows that much later.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly metaTtlMs = 0,
  ) {}

  meta(now = Date.now()): RefdataMeta | null {
    if (this.lastMeta && now - this.lastMeta.at < this.metaTtlMs) return this.lastMeta.meta;
    // Prepared once: this runs on every read, and preparing costs more than the query itself.
    this.metaStmt ??= this.db.prepare<[], RefdataMeta>(
      'SELECT dataset_version, source, scoring_version, synced_at FROM refdata_meta WHERE id = 1',
    );
    const meta = this.metaStmt.get() ?? null;
    this.lastMeta = { at: now, meta };
    return meta;
  }

  /** True when reads come from the store, false when they fall back to the bundled dataset. */
  synced(): boolean {
    return this.meta() !== null;
  }

  /**
   * The answer for `key` under the dataset version in force now, computed once per version. Every sync
   * rewrites refdata_meta in the same transaction as the rows (and a new sync has a new synced_at), so the
   * meta row identifies the content: one indexed read per call instead of re-reading and re-parsing rows,
   * and a sync by another process is seen on the next read. Answers are shared: callers must not mutate them.
   */
  private cached<T>(key: string, compute: (meta: RefdataMeta | null) => T): T {
    const meta = this.meta();
    const version = meta ? `${meta.dataset_version}\0${meta.synced_at}\0${meta.scoring_version}` : 'bundled';
    // Keys carry caller filters (sex, vendor, age): the bound keeps junk queries from growing memory.
    if (this.cache.version !== version || this.cache.entries.size >= 512) {
      this.cache = { version, entries: new Map() };
    }
    if (this.cache.entries.has(key)) return this.cache.entries.get(key) as T;
    const value = compute(meta);
    this.cache.entries.set(key, value);
    return value;
  }

  concepts(): Concept[] {
    return this.cached('concepts', (meta) =>
      meta
        ? this.bodies<Concept>('SELECT body FROM refdata_concepts ORDER BY concept_id')
        : bundledDataset().concepts,
    );
  }

  labRanges(filter: LabRangeFilter = {}): LabRange[] {
    const gender = filter.sex?.toUpperCase();
    const vendor = filter.vendor?.toLowerCase();
    return this.cached(`labRanges\0${gender ?? '\u0001'}\0${vendor ?? '\u0001'}`, (meta) => {
      if (!meta)
        return bundledDataset().labRanges.filter(
          (r) =>
            (gender === undefined || r.gender_name === gender) &&
            (vendor === undefined || r.vendor_name.toLowerCase() === vendor),
        );
      return this.bodies<LabRange>(
        `SELECT body FROM refdata_lab_ranges
         WHERE (? IS NULL OR gender_name = ?) AND (? IS NULL OR lower(vendor_name) = ?)
         ORDER BY lab_range_id`,
        gender ?? null,
        gender ?? null,
        vendor ?? null,
        vendor ?? null,
      );
    });
  }

  topDiseasePredictors(): TopDiseasePredictors {
    return this.cached('top', (meta) => (meta ? this.storedTop() : bundledDataset().top));
  }

  private storedTop(): TopDiseasePredictors {
    const domains = this.db
      .prepare('SELECT disease FROM refdata_top_domains ORDER BY position')
      .all() as Array<{
      disease: string;
    }>;
    const byDisease = new Map<string, TopPredictor[]>(domains.map((d) => [d.disease, []]));
    const rows = this.db
      .prepare('SELECT disease, body FROM refdata_top_predictors ORDER BY disease_position, rank')
      .all() as Array<{ disease: string; body: string }>;
    for (const row of rows) byDisease.get(row.disease)?.push(JSON.parse(row.body) as TopPredictor);
    return {
      top_disease_predictors: [...byDisease].map(([disease, predictors]) => ({ disease, predictors })),
    };
  }

  /** SPEC.md C3 for a C2 request: the header echoed with the scoring version, the entries of the sex and age. */
  predictorStatistics(request: PredictorStatisticsRequest): PredictorStatisticsResponse {
    const { sex } = request;
    // Statistics are per whole year of age: keyed by it, fractional ages share one cache entry instead of
    // churning the cache's bound.
    const age = Math.round(request.age);
    const { scoringVersion, statistics } = this.cached(`statistics\0${sex}\0${age}`, (meta) => ({
      scoringVersion: meta?.scoring_version ?? bundledDataset().scoring_version,
      statistics: meta ? this.storedStatistics(sex, age) : bundledStatistics(sex, age),
    }));
    return {
      header: {
        event_id: request.header.event_id,
        event_asof_dtutc: request.header.event_asof_dtutc,
        scoring_version: scoringVersion,
      },
      predictor_statistics: statistics,
      ...(statistics.length === 0 ? { notice: NO_STATISTICS_NOTICE } : {}),
    };
  }

  private storedStatistics(sex: Sex, age: number): PredictorStatistic[] {
    const span = this.db
      .prepare('SELECT MIN(age) AS youngest, MAX(age) AS oldest FROM refdata_predictor_stats WHERE sex = ?')
      .get(sex) as { youngest: number | null; oldest: number | null };
    if (span.youngest === null || span.oldest === null) return [];
    const at = statisticsAge(age, span.youngest, span.oldest);
    if (at === null) return [];
    return this.bodies<PredictorStatistic>(
      'SELECT body FROM refdata_predictor_stats WHERE sex = ? AND age = ? ORDER BY position',
      sex,
      at,
    );
  }

  /** Everything the store holds, as a dataset (the base a partial sync from a folder builds on). */
  dataset(): RefDataset {
    if (!this.synced()) return bundledDataset();
    const groups = new Map<string, RefDataset['statistics'][number]>();
    const rows = this.db
      .prepare('SELECT sex, age, body FROM refdata_predictor_stats ORDER BY sex, age, position')
      .all() as Array<{ sex: Sex; age: number; body: string }>;
    for (const row of rows) {
      const key = `${row.sex} ${row.age}`;
      let group = groups.get(key);
      if (!group) {
        group = { sex: row.sex, age: row.age, predictor_statistics: [] };
        groups.set(key, group);
      }
      group.predictor_statistics.push(JSON.parse(row.body) as PredictorStatistic);
    }
    return {
      scoring_version: this.meta()?.scoring_version ?? bundledDataset().scoring_version,
      concepts: this.concepts(),
      statistics: [...groups.values()],
      top: this.topDiseasePredictors(),
      labRanges: this.labRanges(),
    };
  }

  private bodies<T>(sql: string, ...params: unknown[]): T[] {
    return (this.db.prepare(sql).all(...params) as Array<{ body: string }>).map(
      (r) => JSON.parse(r.body) as T,
    );
  }
}

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
