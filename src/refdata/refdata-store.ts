import type { Concept, LabRange, PredictorStatistic, Sex, TopDiseasePredictors } from '../schemas/refdata.js';
import type { StatisticsGroup } from './dataset.js';
import type { Row, TableName } from './rows.js';

/** refdata_meta: what the store was last synced with. */
export interface RefdataMeta {
  dataset_version: string;
  source: string;
  scoring_version: string;
  synced_at: string;
}

/** A lab-range filter as the tables hold it: gender upper case, vendor lower case; absent matches all. */
export interface StoredRangeFilter {
  gender?: string;
  vendor?: string;
}

export interface ChangeCounts {
  added: number;
  updated: number;
  removed: number;
}

/** Each table brought to the new rows, in the order a sync reports them. */
export type TableCounts = Record<TableName, ChangeCounts>;

/**
 * Where synced reference data lives: the home's SQLite file or a PostgreSQL database shared by every node.
 * Only the stored tables: the bundled-dataset fallback and the caching live above it, in RefdataStore.
 * Every read sees one committed sync (never a mix of two); replace() is all or nothing.
 */
export interface RefdataBackend {
  /** The refdata_meta row; null until the first sync. */
  meta(): Promise<RefdataMeta | null>;
  concepts(): Promise<Concept[]>;
  labRanges(filter: StoredRangeFilter): Promise<LabRange[]>;
  topDiseasePredictors(): Promise<TopDiseasePredictors>;
  /** The group of `sex` nearest `age` under statisticsAge(), or [] when none applies. */
  predictorStatistics(sex: Sex, age: number): Promise<PredictorStatistic[]>;
  /** Every stored statistics group, by sex then age. */
  statisticsGroups(): Promise<StatisticsGroup[]>;
  /**
   * In one transaction: make every table hold exactly `rows` (rows already equal untouched) and write
   * `meta`. `onTable` runs inside the transaction after each table (progress; tests crash there).
   */
  replace(
    rows: Record<TableName, readonly Row[]>,
    meta: RefdataMeta,
    onTable?: (table: TableName, counts: ChangeCounts) => void,
  ): Promise<TableCounts>;
  close(): Promise<void>;
}
