/**
 * One spelling for a printed test name, so that "ALT (SGPT)", "Alt/Sgpt" and "ALT - SGPT" meet in one index
 * key, and "M.C.V." is "MCV". Percent and number signs stay as tokens because labs use them to tell a relative count from an
 * absolute one ("NEUTROPHILS %" versus "NEUT #").
 */

const DIACRITICS = /[\u0300-\u036f]/g;
/**
 * Initials printed with full stops ("M.C.H.C.", "W. B. C.", "R.B.C Count"), as laboratories in India and
 * Pakistan print them: two or more single letters, each after the first behind a stop, are one word.
 */
const DOTTED_INITIALS = /(?<![a-z0-9])(?:[a-z]\.\s?){2,}(?:[a-z](?![a-z0-9]))?/g;
const SEPARATORS = /[^a-z0-9%#]+/g;
const SIGN_TOKENS = /([%#])/g;
const SPACES = /\s+/g;

export function normaliseName(printed: string): string {
  return printed
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .toLowerCase()
    .replace(DOTTED_INITIALS, (initials) => `${initials.replace(/[.\s]/g, '')} `)
    .replace(SEPARATORS, ' ')
    .replace(SIGN_TOKENS, ' $1 ')
    .replace(SPACES, ' ')
    .trim();
}

/** The tokens of a normalised name. */
export function nameTokens(normalised: string): string[] {
  return normalised === '' ? [] : normalised.split(' ');
}

/** Word order and repeats ignored: "neutrophils absolute" and "absolute neutrophils" share this key. */
export function tokenSetKey(normalised: string): string {
  return [...new Set(nameTokens(normalised))].sort().join(' ');
}
