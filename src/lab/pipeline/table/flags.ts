/**
 * Abnormal flags printed next to a value (`120 H`, `30 High`, `TRACE A`, `27.2 [L]`, `9 (L)`, `14.1 ↑`).
 * The value is reported without them (SPEC.md B3 resultValue is the measured value); the flag is kept
 * apart on the parsed row.
 */
import { memoByText } from './text-memo.js';

const FLAG_WORDS = new Set([
  'H',
  'L',
  'A',
  'HH',
  'LL',
  'AA',
  'HI',
  'LO',
  'HIGH',
  'LOW',
  'ABNORMAL',
  'CRITICAL',
  'ABN',
]);

/** Arrows some labs print for a flag, read as the letter they stand for. */
const ARROWS: Record<string, string> = { '↑': 'H', '▲': 'H', '⬆': 'H', '↓': 'L', '▼': 'L', '⬇': 'L' };

/**
 * A flag letter in brackets, as printed (`[H]`, `(L)`) or as a scan reads the brackets (`[LJ`, `(L`, `[H)`,
 * `{H]`): an opening bracket, one or two flag letters, and a closing bracket or the letter OCR reads it as.
 * Inside, a small `l` (`[lL]`) is the `L` it looks like; nothing else is guessed.
 */
const BRACKETED = /^[[({]\s*([HLAhl]{1,2})\s*(?:[\])}]|J|\|)?$/;

export interface FlaggedValue {
  value: string | null;
  flag: string | null;
}

/** Splits a trailing flag word off a value; a lone word is a value ("A" may be a blood group). */
export function splitFlag(text: string): FlaggedValue {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (trimmed === '') return { value: null, flag: null };
  const at = trimmed.lastIndexOf(' ');
  if (at < 0) return { value: trimmed, flag: null };
  const last = trimmed.slice(at + 1);
  if (!isFlag(last)) return { value: trimmed, flag: null };
  return { value: trimmed.slice(0, at), flag: flagText(last) };
}

/**
 * `*H`, `H*`, `L**`: some labs star the flag (two stars: a critical value); the stars add nothing to which
 * flag it is. `[H]`, `(L)`, `↑`: see flagText.
 */
export function isFlag(word: string): boolean {
  return memoFlag(word);
}

const memoFlag = memoByText(flagOf);

function flagOf(word: string): boolean {
  const bare = word
    .trim()
    .replace(/^\*{1,2}|\*{1,2}$/g, '')
    .toUpperCase();
  return FLAG_WORDS.has(bare) || bracketed(word) !== null || ARROWS[word.trim()] !== undefined;
}

/**
 * The flag a flag word stands for: a bracketed flag (`[H]`, `(L)`, `[LJ`) or an arrow is its letter; any
 * other flag word is kept as printed.
 */
export function flagText(word: string): string {
  const t = word.trim();
  return bracketed(t) ?? ARROWS[t] ?? t;
}

function bracketed(word: string): string | null {
  const inside = BRACKETED.exec(word.trim())?.[1];
  if (inside === undefined) return null;
  // A small l is the L it looks like, or a stroke of the bracket read twice ("[lL]"): one L either way.
  if (inside.includes('l')) return /^[lL]+$/.test(inside) ? 'L' : null;
  const letters = inside.toUpperCase();
  // "[HH]" is a critical flag; "[HL]" says nothing.
  return new Set(letters).size === 1 ? letters : null;
}
