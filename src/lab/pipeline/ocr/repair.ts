/**
 * Repairs of OCR misreadings, made only where one reading is possible: a unit the catalogue does not know
 * that becomes one it knows when a look-alike character is swapped (`mg/0L` -> `mg/dL`), a number with
 * letters or marks that look like digits (`1O4` -> `104`, `l.5` -> `1.5`, `§00` -> `500`), and a power of
 * ten no count is reported in, one digit from one that is (`x10²²/l` -> `x10¹²/l`), and `Ni`, the result
 * word `Nil` with its thin last letter lost (no test is named, and no result reads, `Ni`). A repaired word is
 * marked, and the row it ends up in is flagged, so no guessed value passes silently.
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
/** Letters and marks that stand for digits inside a number (a section sign is a 5 with its tail read). */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  I: '1',
  l: '1',
  '|': '1',
  S: '5',
  '§': '5',
};
const NUMBER = /^[<>]?\d+(?:\.\d+)?$/;
/** `20.3.L`: a decimal value and its flag, the space between them read as a point or comma. */
const GLUED_FLAG = /^(\d+\.\d+)[.,]([HL])$/;

export interface Repair {
  text: string;
  repaired: boolean;
}

export function repairOcrWord(word: string): Repair {
  const power = repairPower(word) ?? repairPlainPower(word);
  // "x10²²/I": the exponent, and then the unit after it.
  if (power) return { text: repairUnit(power.text)?.text ?? power.text, repaired: true };
  if (word === 'Ni') return { text: 'Nil', repaired: true };
  const glued = GLUED_FLAG.exec(word);
  if (glued) return { text: `${glued[1]} ${glued[2]}`, repaired: true };
  return repairNumber(word) ?? repairUnit(word) ?? { text: word, repaired: false };
}

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** `x10²²/l`: a unit opening with a power of ten, its exponent in superscript digits (hocr-words.ts). */
const POWER = /^([x×X]?10)([⁰¹²³⁴⁵⁶⁷⁸⁹]{2})(?=[/\p{L}])/u;
/** The powers of ten counts are reported in (per litre or per microlitre). */
const COUNT_EXPONENTS = ['³', '⁶', '⁹', '¹²'];

/**
 * A count's unit with an exponent no count has (above 12: `x10²²/l`), where changing one of its digits
 * gives exactly one exponent counts are reported in (`x10¹²/l`): a superscript 1 is a short stroke OCR
 * reads as other digits.
 */
function repairPower(word: string): Repair | null {
  const power = POWER.exec(word);
  if (!power) return null;
  const [base = '', exponent = ''] = [power[1], power[2]];
  const value = Number([...exponent].map((d) => SUPERSCRIPTS.indexOf(d)).join(''));
  if (value <= 12) return null;
  const near = COUNT_EXPONENTS.filter(
    (e) => e.length === exponent.length && [...e].filter((d, i) => d !== exponent[i]).length === 1,
  );
  if (near.length !== 1) return null;
  return { text: base + near[0] + word.slice(base.length + exponent.length), repaired: true };
}

/** `*103cells/ul`: a count's power of ten with its `×` read as a star and its exponent on the line. */
const STARRED_POWER = /^\*10(3|6|9|12)(?=[/\p{L}])/u;

/**
 * A star where `×` was printed says the sign was misread, and with it the superscript exponent, read on
 * the line: `*103` is x10³. Only the exponents counts are reported in are taken (`*104` stays as read, and
 * doubted). `x109/L` read from the baseline is left as printed: some laboratories' systems print it so.
 */
function repairPlainPower(word: string): Repair | null {
  const power = STARRED_POWER.exec(word);
  if (!power) return null;
  const [whole = '', exponent = ''] = power;
  const raised = [...exponent].map((d) => SUPERSCRIPTS[Number(d)]).join('');
  return { text: `x10${raised}${word.slice(whole.length)}`, repaired: true };
}

/**
 * `4,42`, `34,5`, `0.0-1,0`: a decimal point read as a comma (its dot with the speck of a tail), in a
 * number or in either bound of a range. One or two digits after it cannot be a thousands separator.
 */
const DECIMAL_COMMA = /^(?:\d+(?:[.,]\d{1,2})?-)?\d+,\d{1,2}$|^\d+,\d{1,2}-\d+(?:\.\d+)?$/;
const DECIMAL_COMMA_MARK = /(?<=\d),(?=\d{1,2}(?:-|$))/g;

/**
 * `1O4`, `l.5`, `2O.1`: digits with look-alike letters, and at least one real digit; `33:5`: a decimal
 * point read as a colon (one digit after it: a time has two, a titer `1:40` two or more); `<l`, `<O`: a
 * bound whose one digit was read as a look-alike letter (a comparator and one letter make no word).
 */
function repairNumber(word: string): Repair | null {
  if (/^\d+:\d$/.test(word)) return { text: word.replace(':', '.'), repaired: true };
  if (DECIMAL_COMMA.test(word)) return { text: word.replace(DECIMAL_COMMA_MARK, '.'), repaired: true };
  // "B.1": a bold 8 before a decimal point (a B nowhere else: "B12" is a vitamin).
  if (/^B\.\d+$/.test(word)) return { text: `8${word.slice(1)}`, repaired: true };
  if (/^[<>]=?[OIl|]$/.test(word))
    return { text: word.slice(0, -1) + lookalikeDigit(word.slice(-1)), repaired: true };
  if (!/\d/.test(word) || !/^[<>]?[\dOoDIl|S§.]+$/.test(word) || NUMBER.test(word)) return null;
  const text = word.replace(/[OoDIl|S§]/g, (ch) => DIGIT_LOOKALIKES[ch] ?? ch);
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
