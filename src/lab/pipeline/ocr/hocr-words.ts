/**
 * Rules for tesseract's words on one hOCR line, by their characters' boxes: what is a raised footnote mark,
 * a flag set a space after its value, a later word of a name, a cell a column away, a range's lone dash,
 * a power of ten's exponent, a speck, a rule under a word, a tick drawn by hand. hocr-page.ts applies them.
 */
import { QUALITATIVE } from '../table/cell-kind.js';
import type { Box, HocrChar, HocrLine, HocrWord } from './hocr.js';

/** A raised mark is smaller than this fraction of its line's font size ... */
export const RAISED_HEIGHT = 0.62;
/** ... and its bottom sits at least this fraction of the font size above the baseline. */
const RAISED_LIFT = 0.12;
/** Dashes, comparators and the like sit above the baseline by nature; they are no marks. */
const NEVER_RAISED = /^[-\u2010-\u2015=~+.,<>\u2264\u2265]$/u;

export interface Part {
  chars: HocrChar[];
  raised: boolean;
}

/**
 * A word as printed and the raised mark at its end, if it has one. A mark is split from a name (two
 * letters or more, no digit: "Glucose" + "01"), never from a number or unit ("1.73m2"); a word raised
 * whole is a mark on its own; raised quotes and specks at either end of any word are dropped.
 */
export function splitRaised(word: HocrWord, line: HocrLine, afterName: boolean, apart = false): Part[] {
  const raised = word.chars.map((c) => isRaisedChar(c, line));
  // "4." for a mark "01": a full stop or dash sits high or low by nature, so it decides nothing.
  const whole = word.chars.every((c, i) => raised[i] || NEVER_RAISED.test(c.text));
  // A word of letters, or a number, a column's width from the word before it marks nothing: it is a cell
  // of its own (a result set high where the line's baseline bends, or where a tick drawn beside the value
  // swells the line), not a footnote mark, which is glued to what it marks.
  const text = word.chars.map((c) => c.text).join('');
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const cellWord = (letters >= 2 && letters === word.chars.length) || CELL_NUMBER.test(text);
  if (whole && apart && cellWord) return [{ chars: word.chars, raised: false }];
  // Footnote marks and site codes are at most three letters: a word of four is print ("Rh TYPE", set in
  // capitals beside a name with an ascender, whose line the bracketed value beside it made tall).
  if (whole && letters > MARK_MAX_LETTERS && letters === word.chars.length)
    return [{ chars: word.chars, raised: false }];
  if (whole && raised.some(Boolean)) return [{ chars: word.chars, raised: true }];
  let end = word.chars.length;
  while (end > 0 && raised[end - 1]) end--;
  let start = 0;
  while (start < end && raised[start] && !isAlnum(word.chars[start] as HocrChar)) start++;
  const kept = word.chars.slice(start, end);
  const tail = word.chars.slice(end);
  const parts: Part[] = [{ chars: kept, raised: false }];
  if (tail.length === 0) return parts;
  const keptText = kept.map((c) => c.text).join('');
  // "Ni" + a high "l": a result word whose ascender sits above a skewed baseline, not a marked name.
  const wholeText = word.chars.map((c) => c.text).join('');
  if (start === 0 && QUALITATIVE.test(wholeText) && !QUALITATIVE.test(keptText))
    return [{ chars: word.chars, raised: false }];
  const isName = (keptText.match(/\p{L}/gu) ?? []).length >= 2 && !/[\d/]/.test(keptText);
  // "Beta-amyloid 42" + "5%": a name's number, a word apart from the name, carries marks as the name would.
  const isNameNumber = afterName && /^\d{1,3}$/.test(keptText);
  if (isName || isNameNumber) parts.push({ chars: tail, raised: true });
  else if (tail.some(isAlnum)) parts[0] = { chars: word.chars.slice(start), raised: false };
  return parts;
}

/** Raised marks (Labcorp's `01`, Quest's `EZ`, `Z4W`) are at most this many letters. */
const MARK_MAX_LETTERS = 3;

/** A number of two digits or more, or with a decimal point: a lone digit apart may be a pen's speck. */
const CELL_NUMBER = /^(?:\d{2,}|\d+[.,]\d+)$/;

/** Words of one name are at most this many font sizes apart. */
const NAME_GAP = 0.6;

/** The word follows a word of letters at a space's distance: it is part of the same name. */
export function continuesName(previous: HocrWord | undefined, word: HocrWord, line: HocrLine): boolean {
  const last = previous?.chars.at(-1);
  const first = word.chars[0];
  if (!previous || !last || !first || !/\p{L}{2}/u.test(previous.chars.map((c) => c.text).join('')))
    return false;
  return /\p{L}/u.test(last.text) && first.box.left - last.box.right <= NAME_GAP * line.size;
}

/** Cells of a table row are at least this many font sizes apart. */
const CELL_GAP = 3;

/** The word stands a cell's distance from the one before it on its line. */
export function standsApart(previous: HocrWord | undefined, word: HocrWord, line: HocrLine): boolean {
  const last = previous?.chars.at(-1);
  const first = word.chars[0];
  if (!last || !first) return false;
  return first.box.left - last.box.right >= CELL_GAP * line.size;
}

/** A space is at least this fraction of the font size; letters of a word sit closer. */
const SPACE_GAP = 0.22;
/** Quest's flags, printed a space after the value in the out-of-range column. */
const FLAG_LETTER = /^[HLA]$/;
const NUMBER_LIKE = /^[<>]?[\d.,+-]*\d[\d.,+-]*$/;

/**
 * A value and its flag read as one word ("120H", "HAZYA", "1+A"): tesseract drops the space when the
 * flag sits close. Split where a space's gap separates a last H, L or A from a number or a word result;
 * "NORMAL" keeps its L, set at a letter's distance.
 */
export function splitFlagLetter(part: Part, line: HocrLine): Part[] {
  const { chars } = part;
  const last = chars.at(-1);
  const before = chars.at(-2);
  if (part.raised || !last || !before || !FLAG_LETTER.test(last.text)) return [part];
  if (last.box.left - before.box.right < SPACE_GAP * line.size) return [part];
  const value = chars
    .slice(0, -1)
    .map((c) => c.text)
    .join('');
  if (!NUMBER_LIKE.test(value) && !QUALITATIVE.test(value)) return [part];
  return [
    { chars: chars.slice(0, -1), raised: false },
    { chars: [last], raised: false },
  ];
}

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** A power of ten opening a unit: `x10`, `×10` or `10`, then the exponent, then the rest of the unit. */
const POWER_UNIT = /^([x×X]?10)(\d{1,2})(?=[/\p{L}]|$)/u;

/**
 * A part's text, with the exponent of a power of ten printed raised (`x10³/µl`, `x10⁹/L`) written as the
 * superscript it is: read as plain digits, `x10³` would say `x103`, a thousand times more.
 */
export function withPowers(part: Part, line: HocrLine): string {
  const text = part.chars.map((c) => c.text).join('');
  const power = part.raised || part.chars.some((c) => c.text.length !== 1) ? null : POWER_UNIT.exec(text);
  if (!power) return text;
  const [base = '', exponent = ''] = [power[1], power[2]];
  const digits = part.chars.slice(base.length, base.length + exponent.length);
  const baseRaised = part.chars.slice(0, base.length).some((c) => isRaisedChar(c, line));
  if (baseRaised || !digits.every((c) => isRaisedChar(c, line))) return text;
  const raised = [...exponent].map((d) => SUPERSCRIPTS[Number(d)] ?? d).join('');
  return base + raised + text.slice(base.length + exponent.length);
}

function isRaisedChar(c: HocrChar, line: HocrLine): boolean {
  if (NEVER_RAISED.test(c.text)) return false;
  const lift = line.baselineAt((c.box.left + c.box.right) / 2) - c.box.bottom;
  return c.box.bottom - c.box.top < RAISED_HEIGHT * line.size && lift > RAISED_LIFT * line.size;
}

const isAlnum = (c: HocrChar): boolean => /[\p{L}\p{Nd}]/u.test(c.text);

export function boxOf(chars: readonly HocrChar[]): Box {
  return {
    left: Math.min(...chars.map((c) => c.box.left)),
    top: Math.min(...chars.map((c) => c.box.top)),
    right: Math.max(...chars.map((c) => c.box.right)),
    bottom: Math.max(...chars.map((c) => c.box.bottom)),
  };
}

/** Underscores at either end of a word, with any dashes among them. */
const RULE_ENDS = /^[-_]*_[-_]*|[-_]*_[-_]*$/g;

/**
 * An underline or a rule under a word is read as underscores glued to it ("R-__"); no result, name or unit
 * ends in one. Left on, they spoil the word for every later reader (a patient's name no longer reads as
 * one, so the PHI stage takes the line under it for the name, and redacts the table's header).
 */
export function withoutRules(text: string): string {
  return /[\p{L}\p{Nd}]/u.test(text) ? text.replace(RULE_ENDS, '') : text;
}

/**
 * Marks with no letter or digit (`.`, `-`, `_`, `:`, `©`, `°`) are what noise on a scan reads as; as
 * cells of their own they push values into the wrong columns. A lone `%` or `<` is kept: it is a unit or
 * a comparator.
 */
export const heightOf = (word: HocrWord): number => word.box.bottom - word.box.top;

/** A word this many times as tall as its line's printed words was drawn, not printed. */
const PEN_TALL = 1.8;

/**
 * A tick or stroke drawn by hand beside a value (a doctor's check mark on a phone photo) reads as a letter
 * or three (`WA`), often with high confidence; it stands out by its height, twice the print's or more. Left
 * in, it sat between the value and its unit and made the row a table of bands. Only a word right after a
 * number with another word after it is asked: tall letters elsewhere (a logo, a stamp) are left to the
 * readers that place the page's columns, which they steer.
 */
export function isPenMark(word: HocrWord, previous: HocrWord | undefined, printed: number | null): boolean {
  if (printed === null || heightOf(word) < PEN_TALL * printed) return false;
  if (!previous || !NUMBER_LIKE.test(previous.chars.map((c) => c.text).join(''))) return false;
  return /^\p{L}{1,3}$/u.test(word.chars.map((c) => c.text).join(''));
}

export function isSpeck(text: string): boolean {
  return !/[\p{L}\p{Nd}%<>+]/u.test(text);
}

/** The bounds either side of a range's dash are at most this many font sizes apart. */
const RANGE_DASH_GAP = 2.5;
const BOUND_WORD = /^[<>]?[\dOoIl|S§]*\d[\dOoIl|S§.,]*$/;

/**
 * `20 - 500`: the dash of a range printed with spaces is a word of its own, which would be dropped as a
 * speck, leaving two numbers where one range was printed. A dash kept is one between two numbers (as read,
 * or with digits OCR confuses), close to both; it reads as a hyphen. A typewriter's dash on a phone photo
 * can read as `=`: nothing else puts an equals sign between two bounds.
 */
export function isRangeDash(
  text: string,
  before: HocrWord | undefined,
  after: HocrWord | undefined,
  size: number,
): boolean {
  if (!/^[-\u2010-\u2015~=]$/u.test(text) || !before || !after) return false;
  const word = (w: HocrWord): string => w.chars.map((c) => c.text).join('');
  return (
    BOUND_WORD.test(word(before)) &&
    BOUND_WORD.test(word(after)) &&
    after.box.left - before.box.right <= RANGE_DASH_GAP * size
  );
}
