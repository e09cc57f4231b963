/**
 * Abnormal flags printed next to a value (`120 H`, `30 High`, `TRACE A`). The value is reported without
 * them (SPEC.md B3 resultValue is the measured value); the flag is kept apart on the parsed row.
 */
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
  return { value: trimmed.slice(0, at), flag: last };
}

/** `*H`, `H*`: some labs star the flag; the star adds nothing to it. */
export function isFlag(word: string): boolean {
  return FLAG_WORDS.has(
    word
      .trim()
      .replace(/^\*|\*$/g, '')
      .toUpperCase(),
  );
}
