import type { ChangeCounts } from './refdata-store.js';
import type { Row, TableSpec } from './rows.js';

export type { ChangeCounts } from './refdata-store.js';

/** What bringing one table to new rows takes: the rows to insert or overwrite, the rows to delete. */
export interface RowPlan {
  upserts: Row[];
  removes: Row[];
  counts: ChangeCounts;
}

const keyOf = (spec: TableSpec, row: Row): string => JSON.stringify(spec.key.map((k) => row[k]));
const sameRow = (spec: TableSpec, a: Row, b: Row): boolean => spec.columns.every((c) => a[c] === b[c]);

/**
 * Make a table hold exactly `rows`: insert the new keys, update the changed rows, delete the keys that are
 * gone. Rows already equal are not touched, so a second sync of the same data changes nothing. Each backend
 * applies the plan inside its own transaction.
 */
export function planReplace(spec: TableSpec, existing: readonly Row[], rows: readonly Row[]): RowPlan {
  const before = new Map<string, Row>();
  for (const row of existing) before.set(keyOf(spec, row), row);
  const plan: RowPlan = { upserts: [], removes: [], counts: { added: 0, updated: 0, removed: 0 } };
  const wanted = new Set<string>();
  for (const row of rows) {
    const key = keyOf(spec, row);
    wanted.add(key);
    const old = before.get(key);
    if (old && sameRow(spec, old, row)) continue;
    plan.upserts.push(row);
    if (old) plan.counts.updated += 1;
    else plan.counts.added += 1;
  }
  for (const [key, row] of before) {
    if (wanted.has(key)) continue;
    plan.removes.push(row);
    plan.counts.removed += 1;
  }
  return plan;
}
