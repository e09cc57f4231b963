/**
 * Repairs of OCR misreadings, made only where one reading is possible: a unit the catalogue does not know
 * that becomes one it knows when a look-alike character is swapped (`mg/0L` -> `mg/dL`), and a number
 * with letters that look like digits (`1O4` -> `104`, `l.5` -> `1.5`). A repaired word is marked, and the
 * row it ends up in is flagged, so no guessed value passes silently.
 */
import { normaliseUnit } from '../../../terminology/ucum.js';

/** Characters OCR confuses with each other in units, tried one substitution at a time. */
const UNIT_LOOKALIKES: ReadonlyArray<readonly [RegExp, string]> = [
  [/0/g, 'd'],
  [/O/g, 'd'],
  [/0/g, 'O'],
  [/O/g, '0'],
  [/1/g, 'l'],
  [/l/g, '1'],
  [/I/g, 'l'],
  [/l/g, 'I'],
  [/5/g, 'S'],
  [/b/g, 'L'],
  [/£/g, 'f'],
  // A stroke read twice ("x1l0E6/uL"): the copy is dropped.
  [/(?<=1)[lI|]|[lI|](?=1)/g, ''],
];
/** Letters that stand for digits inside a number. */
const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', o: '0', D: '0', I: '1', l: '1', '|': '1', S: '5' };
const NUMBER = /^[<>]?\d+(?:\.\d+)?$/;

export interface Repair {
  text: string;
  repaired: boolean;
}

export function repairOcrWord(word: string): Repair {
  return repairNumber(word) ?? repairUnit(word) ?? { text: word, repaired: false };
}

/**
 * `1O4`, `l.5`, `2O.1`: digits with look-alike letters, and at least one real digit; `33:5`: a decimal
 * point read as a colon (one digit after it: a time has two, a titer `1:40` two or more); `<l`, `<O`: a
 * bound whose one digit was read as a look-alike letter (a comparator and one letter make no word).
 */
function repairNumber(word: string): Repair | null {
  if (/^\d+:\d$/.test(word)) return { text: word.replace(':', '.'), repaired: true };
  if (/^[<>]=?[OIl|]$/.test(word))
    return { text: word.slice(0, -1) + lookalikeDigit(word.slice(-1)), repaired: true };
  if (!/\d/.test(word) || !/^[<>]?[\dOoDIl|S.]+$/.test(word) || NUMBER.test(word)) return null;
  const text = word.replace(/[OoDIl|S]/g, (ch) => DIGIT_LOOKALIKES[ch] ?? ch);
  return NUMBER.test(text) ? { text, repaired: true } : null;
}

function lookalikeDigit(ch: string): string {
  return DIGIT_LOOKALIKES[ch] ?? ch;
}

/**
 * A unit-shaped word (it has a slash, or a `£` no unit has) the normaliser does not know, with exactly one
 * known repair.
 */
function repairUnit(word: string): Repair | null {
  if (
    !/[/£]/.test(word) ||
    /^\d+\/\d+\/\d+$/.test(word) ||
    normaliseUnit(word).ucumMatchMethod !== 'not_found'
  )
    return null;
  const candidates = new Set<string>();
  for (const [pattern, replacement] of UNIT_LOOKALIKES) {
    const text = word.replace(pattern, replacement);
    if (text !== word && normaliseUnit(text).ucumMatchMethod !== 'not_found') candidates.add(unitKey(text));
  }
  if (candidates.size !== 1) return null;
  for (const [pattern, replacement] of UNIT_LOOKALIKES) {
    const text = word.replace(pattern, replacement);
    if (text !== word && normaliseUnit(text).ucumMatchMethod !== 'not_found') return { text, repaired: true };
  }
  return null;
}

/** Spellings that differ only in case are one unit here (mg/dL, MG/DL). */
function unitKey(text: string): string {
  return normaliseUnit(text).ucumCode ?? text.toLowerCase();
}
