import { distance } from 'fastest-levenshtein';

/** Levenshtein distance: how many one-letter edits turn `a` into `b`. */
export const editDistance = (a: string, b: string): number => distance(a, b);

/**
 * The candidates closest to what was typed, for a "did you mean": only near misses (a third of the word's
 * letters at most, and at least 2 edits allowed) so that a word unlike any candidate suggests nothing.
 */
export function closest(typed: string, candidates: Iterable<string>): string[] {
  const word = typed.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best = Number.POSITIVE_INFINITY;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    const d = editDistance(word, candidate.toLowerCase());
    if (d > limit || d > best) continue;
    if (d < best) found = [];
    best = d;
    found.push(candidate);
  }
  return found;
}
