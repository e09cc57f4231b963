import type pg from 'pg';
import { inTransaction } from '../engine/postgres/connect.js';
import { openSharedPool, releasePool } from '../engine/postgres/pool.js';
import type { Concept, LabRange, PredictorStatistic, Sex, TopDiseasePredictors } from '../schemas/refdata.js';
import type { StatisticsGroup } from './dataset.js';
import { groupStatistics, groupTop } from './group-rows.js';
import type {
  ChangeCounts,
  RefdataBackend,
  RefdataMeta,
  StoredRangeFilter,
  TableCounts,
} from './refdata-store.js';
import { type Row, TABLES, type TableName, type TableSpec } from './rows.js';
import { planReplace } from './write.js';

/** Any fixed number: a sync holds it, so two nodes syncing at once take turns instead of mixing plans. */
const SYNC_LOCK = 0x72656664;
/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest table. */
const BATCH = 1000;

/**
 * The reference data tables in a PostgreSQL database shared by every node (migration 0005). Every read is
 * one statement, so it sees one committed sync; the server asks this only when its cached version is stale.
 */
export class PgRefdataBackend implements RefdataBackend {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  /** Connect through the process's shared pool and bring the schema to this version's. */
  static async open(url: string): Promise<PgRefdataBackend> {
    const pool = await openSharedPool(url);
    return new PgRefdataBackend(pool, url);
  }

  async meta(): Promise<RefdataMeta | null> {
    const { rows } = await this.pool.query<RefdataMeta>({
      name: 'refdata-meta',
      text: 'SELECT dataset_version, source, scoring_version, synced_at FROM refdata_meta WHERE id = 1',
    });
    return rows[0] ?? null;
  }

  concepts(): Promise<Concept[]> {
    return this.bodies<Concept>('SELECT body FROM refdata_concepts ORDER BY concept_id');
  }

  labRanges({ gender, vendor }: StoredRangeFilter): Promise<LabRange[]> {
    return this.bodies<LabRange>(
      `SELECT body FROM refdata_lab_ranges
       WHERE ($1::text IS NULL OR gender_name = $1) AND ($2::text IS NULL OR lower(vendor_name) = $2)
       ORDER BY lab_range_id`,
      [gender ?? null, vendor ?? null],
    );
  }

  async topDiseasePredictors(): Promise<TopDiseasePredictors> {
    const { rows } = await this.pool.query<{ disease: string; body: string | null }>(
      `SELECT d.disease, p.body FROM refdata_top_domains d
       LEFT JOIN refdata_top_predictors p ON p.disease = d.disease
       ORDER BY d.position, p.rank`,
    );
    return groupTop(rows);
  }

  predictorStatistics(sex: Sex, age: number): Promise<PredictorStatistic[]> {
    // statisticsAge() in SQL: one statement, so the span and the group come from the same committed sync.
    // The conformance suite holds both backends to the same answers below the youngest and above the oldest.
    return this.bodies<PredictorStatistic>(
      `WITH span AS (SELECT min(age) AS youngest, max(age) AS oldest FROM refdata_predictor_stats WHERE sex = $1)
       SELECT s.body FROM refdata_predictor_stats s, span
       WHERE s.sex = $1 AND $2::integer >= span.youngest AND s.age = least($2::integer, span.oldest)
       ORDER BY s.position`,
      [sex, Math.round(age)],
    );
  }

  async statisticsGroups(): Promise<StatisticsGroup[]> {
    const { rows } = await this.pool.query<{ sex: Sex; age: number; body: string }>(
      'SELECT sex, age, body FROM refdata_predictor_stats ORDER BY sex, age, position',
    );
    return groupStatistics(rows);
  }

  replace(
    rows: Record<TableName, readonly Row[]>,
    meta: RefdataMeta,
    onTable?: (table: TableName, counts: ChangeCounts) => void,
  ): Promise<TableCounts> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SYNC_LOCK]);
      const counts = {} as TableCounts;
      for (const table of Object.keys(TABLES) as TableName[]) {
        counts[table] = await replaceTable(client, TABLES[table], rows[table]);
        onTable?.(table, counts[table]);
      }
      await client.query(
        `INSERT INTO refdata_meta (id, dataset_version, source, scoring_version, synced_at)
         VALUES (1, $1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET dataset_version = excluded.dataset_version, source = excluded.source,
           scoring_version = excluded.scoring_version, synced_at = excluded.synced_at`,
        [meta.dataset_version, meta.source, meta.scoring_version, meta.synced_at],
      );
      return counts;
    });
  }

  close(): Promise<void> {
    return releasePool(this.url);
  }

  private async bodies<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const { rows } = await this.pool.query<{ body: string }>(sql, params);
    return rows.map((r) => JSON.parse(r.body) as T);
  }
}

async function replaceTable(
  client: pg.PoolClient,
  spec: TableSpec,
  rows: readonly Row[],
): Promise<ChangeCounts> {
  const existing = await client.query<Row>(`SELECT ${spec.columns.join(', ')} FROM ${spec.table}`);
  const plan = planReplace(spec, existing.rows, rows);
  const updates = spec.columns.filter((c) => !spec.key.includes(c));
  const onConflict = updates.length
    ? `DO UPDATE SET ${updates.map((c) => `${c} = excluded.${c}`).join(', ')}`
    : 'DO NOTHING';
  for (let i = 0; i < plan.upserts.length; i += BATCH) {
    const batch = plan.upserts.slice(i, i + BATCH);
    const values = batch.map(
      (_, r) => `(${spec.columns.map((_, c) => `$${r * spec.columns.length + c + 1}`).join(', ')})`,
    );
    await client.query(
      `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${values.join(', ')}
       ON CONFLICT (${spec.key.join(', ')}) ${onConflict}`,
      batch.flatMap((row) => spec.columns.map((c) => row[c])),
    );
  }
  for (let i = 0; i < plan.removes.length; i += BATCH) {
    const batch = plan.removes.slice(i, i + BATCH);
    const tuples = batch.map(
      (_, r) => `(${spec.key.map((_, k) => `$${r * spec.key.length + k + 1}`).join(', ')})`,
    );
    await client.query(
      `DELETE FROM ${spec.table} WHERE (${spec.key.join(', ')}) IN (${tuples.join(', ')})`,
      batch.flatMap((row) => spec.key.map((k) => row[k])),
    );
  }
  return plan.counts;
}
