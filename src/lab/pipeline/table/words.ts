/** Comparing test names by their words, for telling one printed test from another. */

/** Whether two names share a word of at least `minLength` letters or digits, case aside. */
export function sharesWord(a: string, b: string, minLength: number): boolean {
  const pattern = new RegExp(`[A-Z0-9]{${minLength},}`, 'g');
  const words = (s: string) => new Set(s.toUpperCase().match(pattern) ?? []);
  const wa = words(a);
  for (const w of words(b)) if (wa.has(w)) return true;
  return false;
}
