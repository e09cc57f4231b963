/**
 * Pure judgements of a cell's text (its kind, a flag, a unit, a column label) kept for the document being
 * read. Every reader judges the same cells again (validation, the own readers, the table walk, the
 * doubts): three to six times each, a third of the table code's time. Only primitive answers are kept,
 * so no caller can change what another is given. The pipeline forgets them when a document is done, so
 * no text outlives its document; a cap bounds what one document can hold.
 */

/** Far above the distinct texts of the largest fixture (~600); a document past it starts afresh. */
const MAX_TEXTS = 20_000;

const memos: Array<Map<string, unknown>> = [];

export function memoByText<T extends string | number | boolean | null>(
  judge: (text: string) => T,
): (text: string) => T {
  const memo = new Map<string, T>();
  memos.push(memo);
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    if (memo.size >= MAX_TEXTS) memo.clear();
    const answer = judge(text);
    memo.set(text, answer);
    return answer;
  };
}

/** Called when a document is done (pipeline.ts). */
export function forgetTexts(): void {
  for (const memo of memos) memo.clear();
}
