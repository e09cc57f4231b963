import type Database from 'better-sqlite3';
import type { Concept, LabRange, PredictorStatistic, Sex, TopDiseasePredictors } from '../schemas/refdata.js';
import { statisticsAge } from './age.js';
import type { StatisticsGroup } from './dataset.js';
import { groupStatistics, groupTop } from './group-rows.js';
import type {
  ChangeCounts,
  RefdataBackend,
  RefdataMeta,
  StoredRangeFilter,
  TableCounts,
} from './refdata-store.js';
import { type Row, TABLES, type TableName } from './rows.js';
import { planReplace } from './write.js';

const META_SQL = 'SELECT dataset_version, source, scoring_version, synced_at FROM refdata_meta WHERE id = 1';

/** refdata_meta of a home's file, synchronously (`assay doctor` reads it beside its other checks). */
export function readSqliteMeta(db: Database.Database): RefdataMeta | null {
  return (db.prepare(META_SQL).get() as RefdataMeta | undefined) ?? null;
}

/**
 * The reference data tables in the home's SQLite file (migration 0002). better-sqlite3 answers synchronously;
 * the promises only fit the shared interface. close() runs `onClose` (the opener's way to close its own
 * connection); without one, the connection stays the caller's.
 */
export class SqliteRefdataBackend implements RefdataBackend {
  private metaStmt: Database.Statement<[], RefdataMeta> | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly onClose: () => void = () => {},
  ) {}

  async meta(): Promise<RefdataMeta | null> {
    // Prepared once: the server checks the version often, and preparing costs more than the query.
    this.metaStmt ??= this.db.prepare<[], RefdataMeta>(META_SQL);
    return this.metaStmt.get() ?? null;
  }

  async concepts(): Promise<Concept[]> {
    return this.bodies<Concept>('SELECT body FROM refdata_concepts ORDER BY concept_id');
  }

  async labRanges({ gender, vendor }: StoredRangeFilter): Promise<LabRange[]> {
    return this.bodies<LabRange>(
      `SELECT body FROM refdata_lab_ranges
       WHERE (? IS NULL OR gender_name = ?) AND (? IS NULL OR lower(vendor_name) = ?)
       ORDER BY lab_range_id`,
      gender ?? null,
      gender ?? null,
      vendor ?? null,
      vendor ?? null,
    );
  }

  async topDiseasePredictors(): Promise<TopDiseasePredictors> {
    // One statement, so a domain and its predictors come from the same committed sync.
    const rows = this.db
      .prepare(
        `SELECT d.disease, p.body FROM refdata_top_domains d
         LEFT JOIN refdata_top_predictors p ON p.disease = d.disease
         ORDER BY d.position, p.rank`,
      )
      .all() as Array<{ disease: string; body: string | null }>;
    return groupTop(rows);
  }

  async predictorStatistics(sex: Sex, age: number): Promise<PredictorStatistic[]> {
    const read = this.db.transaction(() => {
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
    });
    return read();
  }

  async statisticsGroups(): Promise<StatisticsGroup[]> {
    const rows = this.db
      .prepare('SELECT sex, age, body FROM refdata_predictor_stats ORDER BY sex, age, position')
      .all() as Array<{ sex: Sex; age: number; body: string }>;
    return groupStatistics(rows);
  }

  async replace(
    rows: Record<TableName, readonly Row[]>,
    meta: RefdataMeta,
    onTable?: (table: TableName, counts: ChangeCounts) => void,
  ): Promise<TableCounts> {
    // IMMEDIATE: the write lock is taken before the rows are read and compared, so two syncs cannot
    // interleave their plans. Synchronous throughout: a kill at any point leaves the previous dataset.
    const write = this.db.transaction((): TableCounts => {
      const counts = {} as TableCounts;
      for (const table of Object.keys(TABLES) as TableName[]) {
        counts[table] = this.replaceTable(table, rows[table]);
        onTable?.(table, counts[table]);
      }
      this.db
        .prepare(
          `INSERT INTO refdata_meta (id, dataset_version, source, scoring_version, synced_at)
           VALUES (1, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET dataset_version = excluded.dataset_version, source = excluded.source,
             scoring_version = excluded.scoring_version, synced_at = excluded.synced_at`,
        )
        .run(meta.dataset_version, meta.source, meta.scoring_version, meta.synced_at);
      return counts;
    });
    return write.immediate();
  }

  private replaceTable(table: TableName, rows: readonly Row[]): ChangeCounts {
    const spec = TABLES[table];
    const existing = this.db.prepare(`SELECT ${spec.columns.join(', ')} FROM ${spec.table}`).all() as Row[];
    const plan = planReplace(spec, existing, rows);
    const upsert = this.db.prepare(
      `INSERT OR REPLACE INTO ${spec.table} (${spec.columns.join(', ')})
       VALUES (${spec.columns.map(() => '?').join(', ')})`,
    );
    const remove = this.db.prepare(
      `DELETE FROM ${spec.table} WHERE ${spec.key.map((k) => `${k} = ?`).join(' AND ')}`,
    );
    for (const row of plan.upserts) upsert.run(...spec.columns.map((c) => row[c]));
    for (const row of plan.removes) remove.run(...spec.key.map((k) => row[k]));
    return plan.counts;
  }

  async close(): Promise<void> {
    this.onClose();
  }

  private bodies<T>(sql: string, ...params: unknown[]): T[] {
    return (this.db.prepare(sql).all(...params) as Array<{ body: string }>).map(
      (r) => JSON.parse(r.body) as T,
    );
  }
}
