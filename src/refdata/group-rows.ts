import type { PredictorStatistic, Sex, TopDiseasePredictors, TopPredictor } from '../schemas/refdata.js';
import type { StatisticsGroup } from './dataset.js';

// Stored rows back into SPEC.md shapes, the same for every backend.

/** Rows of (disease, predictor body or null) in domain then rank order, as the C4 answer. */
export function groupTop(
  rows: ReadonlyArray<{ disease: string; body: string | null }>,
): TopDiseasePredictors {
  const byDisease = new Map<string, TopPredictor[]>();
  for (const row of rows) {
    let predictors = byDisease.get(row.disease);
    if (!predictors) {
      predictors = [];
      byDisease.set(row.disease, predictors);
    }
    if (row.body !== null) predictors.push(JSON.parse(row.body) as TopPredictor);
  }
  return {
    top_disease_predictors: [...byDisease].map(([disease, predictors]) => ({ disease, predictors })),
  };
}

/** Rows of (sex, age, statistic body) in sex, age, position order, as statistics groups. */
export function groupStatistics(
  rows: ReadonlyArray<{ sex: Sex; age: number; body: string }>,
): StatisticsGroup[] {
  const groups = new Map<string, StatisticsGroup>();
  for (const row of rows) {
    const key = `${row.sex} ${row.age}`;
    let group = groups.get(key);
    if (!group) {
      group = { sex: row.sex, age: row.age, predictor_statistics: [] };
      groups.set(key, group);
    }
    group.predictor_statistics.push(JSON.parse(row.body) as PredictorStatistic);
  }
  return [...groups.values()];
}
