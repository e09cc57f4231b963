/**
 * A scan's test name that no catalogue spelling matches, read as the one name laboratories print that lies
 * within an edit or two of it: "olymorphs" (a smudge over the P), "o1ymorphs", "clymorphs". Only long names
 * are tried, only names with a word no laboratory prints, and only where the nearest spellings all belong
 * to one test: a short name, a name of known words, or one as near to two tests, stays as read. The row
 * is then flagged as repaired (ocr-rows.ts), so the guess is never silent.
 */
import { distance } from 'fastest-levenshtein';
import { loincCatalogue } from '../../../terminology/loinc-catalogue.js';
import { normaliseName } from '../../../terminology/normalise-name.js';

/** Names shorter than this (letters and digits) are too easily near another: no repair. */
const MIN_LENGTH = 6;
/** From this length two edits are allowed; below it, one. */
const TWO_EDITS_FROM = 9;

interface Spelling {
  key: string;
  printed: string;
  code: string;
}

let spellings: Spelling[] | undefined;
let vocabulary: Set<string> | undefined;

/** What laboratories print (the catalogue's synonyms), each with its compact key. */
function printedSpellings(): Spelling[] {
  spellings ??= loincCatalogue().entries.flatMap((entry) =>
    entry.synonyms.map((printed) => ({ key: compact(printed), printed, code: entry.code })),
  );
  return spellings;
}

const compact = (name: string): string => normaliseName(name).replace(/ /g, '');

const wordsOf = (name: string): string[] => normaliseName(name).match(/[a-z]{3,}/g) ?? [];

/**
 * A name all of whose words laboratories print elsewhere ("Platelets Count", where the catalogue spells
 * "Platelet Count") was read right and is only spelt another way: it is left as printed.
 */
function madeOfKnownWords(read: string): boolean {
  vocabulary ??= new Set(printedSpellings().flatMap((spelling) => wordsOf(spelling.printed)));
  const known = vocabulary;
  return wordsOf(read).every((word) => known.has(word));
}

/** The printed name a misread one stands for, cased as it was read; null when none or several tests fit. */
export function nearestPrintedName(read: string): string | null {
  const key = compact(read);
  if (key.length < MIN_LENGTH || madeOfKnownWords(read)) return null;
  const limit = key.length >= TWO_EDITS_FROM ? 2 : 1;
  let nearest: Spelling[] = [];
  let least = limit + 1;
  for (const spelling of printedSpellings()) {
    if (Math.abs(spelling.key.length - key.length) > limit) continue;
    const d = distance(key, spelling.key);
    if (d > limit || d > least) continue;
    if (d < least) [nearest, least] = [[], d];
    nearest.push(spelling);
  }
  const [best] = nearest;
  if (!best || least === 0 || new Set(nearest.map((s) => s.code)).size !== 1) return null;
  return casedLike(read, best.printed);
}

/**
 * The catalogue keeps synonyms in capitals; a name read in mixed case is given back in mixed case, long
 * words capitalised and short ones (abbreviations: "WBC", "HB") left in capitals.
 */
function casedLike(read: string, printed: string): string {
  if (!/\p{Ll}/u.test(read) || /\p{Ll}/u.test(printed)) return printed;
  return printed.replace(/\p{L}{4,}/gu, (word) => word[0] + word.slice(1).toLowerCase());
}
