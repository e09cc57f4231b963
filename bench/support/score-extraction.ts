/**
 * Scores extracted lab results against hand-written truth: which rows were found (precision, recall,
 * F1) and, of those, how many carry the right value, unit, range, page and LOINC code. Pure, so the real
 * report bench and its tests share one definition of "right".
 */

/** One result row as printed on the report, written by hand (bench/real/truth/*.json). */
export interface TruthRow {
  name: string;
  value: string | null;
  unit: string | null;
  range: string | null;
  /** Kept for the reader of the truth file; not scored, since ExtractionResults carry no flag. */
  flag?: string | null;
  page: number | null;
  /** The code the row should map to, where the author is sure of it. */
  loinc?: string | null;
}

/** The fields of a PanelResult (SPEC.md B3) that the truth speaks about. */
export interface FoundRow {
  biomarker: string;
  resultValue: string | null;
  resultUnit: string | null;
  referenceRangeText: string | null;
  pageNumber: number | null;
  loincCode: string | null;
}

export type ScoredField = 'value' | 'unit' | 'range' | 'page' | 'loinc';

export interface ExtractionScore {
  truth: number;
  found: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
  /** Over matched rows. With no matched rows there is nothing to be wrong about: 1. */
  valueAccuracy: number;
  unitAccuracy: number;
  rangeAccuracy: number;
  pageAccuracy: number;
  /** Over matched rows whose truth names a code; null when none does. */
  loincAccuracy: number | null;
  /** How many matched rows have a code in the truth. */
  loincRows: number;
  /** Truth names with no row found. */
  missed: string[];
  /** Found names with no truth row. */
  extra: string[];
  /** One entry per matched row and field that differs; `name` is the truth's. */
  wrong: Array<{ name: string; field: ScoredField; expected: string | null; found: string | null }>;
}

/** Names compare without case, spaces or punctuation: "LDL-P" is "ldl p" is "LDLP". */
export function nameKey(name: string): string {
  // \p{Nd} rather than \p{N}: superscript footnote marks (CoQ10¹) are not part of the name.
  return name.toLowerCase().replace(/[^\p{L}\p{Nd}]+/gu, '');
}

const squash = (s: string | null): string | null => (s === null ? null : s.replace(/\s+/g, ' ').trim());
const folded = (s: string | null): string | null => squash(s)?.toLowerCase() ?? null;

/**
 * Value and range text compare without case ("NEGATIVE" is "Negative"); units keep it, since case is
 * meaning in UCUM (mU/L is not mu/L). All compare with runs of whitespace squashed.
 */
const same: Record<ScoredField, (t: TruthRow, f: FoundRow) => boolean> = {
  value: (t, f) => folded(t.value) === folded(f.resultValue),
  unit: (t, f) => squash(t.unit) === squash(f.resultUnit),
  range: (t, f) => folded(t.range) === folded(f.referenceRangeText),
  page: (t, f) => t.page === f.pageNumber,
  loinc: (t, f) => squash(t.loinc ?? null) === squash(f.loincCode),
};

const shown: Record<ScoredField, (f: FoundRow) => string | null> = {
  value: (f) => f.resultValue,
  unit: (f) => f.resultUnit,
  range: (f) => f.referenceRangeText,
  page: (f) => (f.pageNumber === null ? null : String(f.pageNumber)),
  loinc: (f) => f.loincCode,
};

const expectedOf: Record<ScoredField, (t: TruthRow) => string | null> = {
  value: (t) => t.value,
  unit: (t) => t.unit,
  range: (t) => t.range,
  page: (t) => (t.page === null ? null : String(t.page)),
  loinc: (t) => t.loinc ?? null,
};

/** The fields of a matched row that were read wrong, of value, unit and range (what a reader acts on). */
export function misreadFields(t: TruthRow, f: FoundRow): Array<'value' | 'unit' | 'range'> {
  return (['value', 'unit', 'range'] as const).filter((field) => !same[field](t, f));
}

/**
 * Pairs rows one to one by name. A report can print one name twice (the same test in two panels), so
 * within a name the pairs that agree on value and page are taken first, then value alone, then page
 * alone, then whatever is left in reading order: a swap of two repeated rows is not scored as two errors.
 */
export function pairRows(
  truth: readonly TruthRow[],
  found: readonly FoundRow[],
): { pairs: Array<[TruthRow, FoundRow]>; missed: TruthRow[]; extra: FoundRow[] } {
  const open = new Map<string, FoundRow[]>();
  for (const row of found) {
    const key = nameKey(row.biomarker);
    open.set(key, [...(open.get(key) ?? []), row]);
  }
  const paired = new Map<TruthRow, FoundRow>();
  const preferences: Array<(t: TruthRow, f: FoundRow) => boolean> = [
    (t, f) => same.value(t, f) && same.page(t, f),
    same.value,
    same.page,
    () => true,
  ];
  for (const prefer of preferences) {
    for (const row of truth) {
      if (paired.has(row)) continue;
      const candidates = open.get(nameKey(row.name)) ?? [];
      const i = candidates.findIndex((f) => prefer(row, f));
      if (i < 0) continue;
      paired.set(row, candidates[i] as FoundRow);
      candidates.splice(i, 1);
    }
  }
  return {
    pairs: truth.flatMap((t) => {
      const f = paired.get(t);
      return f ? [[t, f] as [TruthRow, FoundRow]] : [];
    }),
    missed: truth.filter((t) => !paired.has(t)),
    extra: [...open.values()].flat(),
  };
}

const ratio = (n: number, d: number): number => (d === 0 ? 1 : n / d);

export function scoreExtraction(truth: readonly TruthRow[], found: readonly FoundRow[]): ExtractionScore {
  const { pairs, missed, extra } = pairRows(truth, found);
  const wrong: ExtractionScore['wrong'] = [];
  const right: Record<ScoredField, number> = { value: 0, unit: 0, range: 0, page: 0, loinc: 0 };
  let loincRows = 0;
  for (const [t, f] of pairs) {
    for (const field of ['value', 'unit', 'range', 'page', 'loinc'] as const) {
      if (field === 'loinc' && (t.loinc === undefined || t.loinc === null)) continue;
      if (field === 'loinc') loincRows++;
      if (same[field](t, f)) right[field]++;
      else wrong.push({ name: t.name, field, expected: expectedOf[field](t), found: shown[field](f) });
    }
  }
  const matched = pairs.length;
  const precision = ratio(matched, found.length);
  const recall = ratio(matched, truth.length);
  return {
    truth: truth.length,
    found: found.length,
    matched,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    valueAccuracy: ratio(right.value, matched),
    unitAccuracy: ratio(right.unit, matched),
    rangeAccuracy: ratio(right.range, matched),
    pageAccuracy: ratio(right.page, matched),
    loincAccuracy: loincRows === 0 ? null : right.loinc / loincRows,
    loincRows,
    missed: missed.map((t) => t.name),
    extra: extra.map((f) => f.biomarker),
    wrong,
  };
}

/** The scored fields of every result of an ExtractionResults' panels, in reading order. */
export function rowsOf(panels: ReadonlyArray<{ panelResults: readonly FoundRow[] }>): FoundRow[] {
  return panels.flatMap((panel) =>
    panel.panelResults.map((r) => ({
      biomarker: r.biomarker,
      resultValue: r.resultValue,
      resultUnit: r.resultUnit,
      referenceRangeText: r.referenceRangeText,
      pageNumber: r.pageNumber,
      loincCode: r.loincCode,
    })),
  );
}

/** A fixture's expected results (its committed or drawn ExtractionResults) as truth rows. */
export function truthOf(expected: {
  panels: ReadonlyArray<{ panelResults: readonly FoundRow[] }>;
}): TruthRow[] {
  return rowsOf(expected.panels).map((r) => ({
    name: r.biomarker,
    value: r.resultValue,
    unit: r.resultUnit,
    range: r.referenceRangeText,
    page: r.pageNumber,
    loinc: r.loincCode,
  }));
}

/** Scores of several reports taken together: rows counted across reports, never paired across them. */
export interface PooledScore {
  truth: number;
  found: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
  value: number;
  unit: number;
  range: number;
  page: number;
  loinc: number | null;
  loincRows: number;
}

export function poolScores(scores: readonly ExtractionScore[]): PooledScore {
  const sum = (f: (s: ExtractionScore) => number): number => scores.reduce((n, s) => n + f(s), 0);
  const truth = sum((s) => s.truth);
  const found = sum((s) => s.found);
  const matched = sum((s) => s.matched);
  const precision = found === 0 ? 0 : matched / found;
  const recall = truth === 0 ? 1 : matched / truth;
  const over = (f: (s: ExtractionScore) => number): number =>
    matched === 0 ? 0 : sum((s) => f(s) * s.matched) / matched;
  const loincRows = sum((s) => s.loincRows);
  return {
    truth,
    found,
    matched,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    value: over((s) => s.valueAccuracy),
    unit: over((s) => s.unitAccuracy),
    range: over((s) => s.rangeAccuracy),
    page: over((s) => s.pageAccuracy),
    loinc: loincRows === 0 ? null : sum((s) => (s.loincAccuracy ?? 0) * s.loincRows) / loincRows,
    loincRows,
  };
}
