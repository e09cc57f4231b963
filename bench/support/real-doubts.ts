/**
 * Row doubts measured on genuine reports: of the matched rows read wrong (value, unit or range), how many
 * carry a doubt, and of the rows read right, how many carry one all the same. A misread without a doubt is
 * the silent kind of error a reader cannot catch; a doubt on a right row costs a reviewer one look.
 */
import { type FoundRow, misreadFields, pairRows, type TruthRow } from './score-extraction.js';

/** A result row as the CLI writes it, with the doubts the pipeline raised about it. */
export interface DoubtedRow extends FoundRow {
  doubts?: ReadonlyArray<{ code: string }>;
}

export interface RowDoubts {
  misread: number;
  misreadDoubted: number;
  right: number;
  rightDoubted: number;
  /** Misread rows without a doubt, each as `name field: truth -> read`. */
  silent: string[];
}

export function emptyRowDoubts(): RowDoubts {
  return { misread: 0, misreadDoubted: 0, right: 0, rightDoubted: 0, silent: [] };
}

export function rowDoubts(truth: readonly TruthRow[], found: readonly DoubtedRow[]): RowDoubts {
  const tally = emptyRowDoubts();
  for (const [t, row] of pairRows(truth, found).pairs) {
    // pairRows hands back the found rows it was given.
    const f = row as DoubtedRow;
    const doubted = (f.doubts?.length ?? 0) > 0;
    const wrong = misreadFields(t, f);
    if (wrong.length === 0) {
      tally.right++;
      if (doubted) tally.rightDoubted++;
      continue;
    }
    tally.misread++;
    if (doubted) tally.misreadDoubted++;
    else tally.silent.push(`${t.name} ${wrong.map((field) => readAs(field, t, f)).join(', ')}`);
  }
  return tally;
}

export function addRowDoubts(into: RowDoubts, from: RowDoubts): RowDoubts {
  return {
    misread: into.misread + from.misread,
    misreadDoubted: into.misreadDoubted + from.misreadDoubted,
    right: into.right + from.right,
    rightDoubted: into.rightDoubted + from.rightDoubted,
    silent: [...into.silent, ...from.silent],
  };
}

function readAs(field: 'value' | 'unit' | 'range', t: TruthRow, f: FoundRow): string {
  const [truth, read] = {
    value: [t.value, f.resultValue],
    unit: [t.unit, f.resultUnit],
    range: [t.range, f.referenceRangeText],
  }[field];
  return `${field}: ${JSON.stringify(truth)} -> ${JSON.stringify(read)}`;
}
