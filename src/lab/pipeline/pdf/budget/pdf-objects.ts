/**
 * Just enough of PDF's object syntax to read a stream's dictionary the way pdf.js will: names with `#xx`
 * escapes decoded, indirect references, nested arrays and dictionaries, strings decoded to their bytes. The
 * budget check must see the same /Filter chain pdf.js will apply, or a bomb hides behind any spelling pdf.js
 * accepts; and the same /Encrypt keys (/O, /U, /ID are strings), or it counts ciphertext.
 */

export type PdfValue =
  | { kind: 'name'; name: string }
  | { kind: 'number'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'ref'; num: number; gen: number }
  | { kind: 'array'; items: PdfValue[] }
  | { kind: 'dict'; entries: Map<string, PdfValue> }
  | { kind: 'string'; bytes: Buffer }
  | { kind: 'other' };

export interface Parsed {
  value: PdfValue;
  /** Offset just past the value. */
  end: number;
}

/** Deeper nesting than this is hostile, not a lab report; parsing gives up rather than recursing on. */
const MAX_DEPTH = 64;

const isWhite = (c: number | undefined) =>
  c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
// ( ) < > [ ] { } / %
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const isRegular = (c: number | undefined) => c !== undefined && !isWhite(c) && !DELIMITERS.has(c);

/** The offset of the next token at or after `at`: whitespace and comments skipped. */
export function skipSpace(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length) {
    const c = bytes[i];
    if (isWhite(c)) i++;
    else if (c === 0x25) {
      while (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    } else break;
  }
  return i;
}

/** The value that starts at `at`, or undefined when the bytes there are not one. */
export function parseValue(bytes: Buffer, at: number, depth = 0): Parsed | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const i = skipSpace(bytes, at);
  const c = bytes[i];
  if (c === undefined) return undefined;
  if (c === 0x3c && bytes[i + 1] === 0x3c) return parseDict(bytes, i + 2, depth);
  if (c === 0x5b) return parseArray(bytes, i + 1, depth);
  if (c === 0x2f) return parseName(bytes, i + 1);
  if (c === 0x28) return parseLiteralString(bytes, i + 1);
  if (c === 0x3c) return parseHexString(bytes, i + 1);
  if (!isRegular(c)) return undefined;
  let end = i;
  while (isRegular(bytes[end])) end++;
  const word = bytes.toString('latin1', i, end);
  if (word === 'true' || word === 'false') return { value: { kind: 'bool', value: word === 'true' }, end };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { value: { kind: 'other' }, end };
  return asReference(bytes, word, end) ?? { value: { kind: 'number', value: Number(word) }, end };
}

/** `12 0 R` is one value, a reference, not two numbers and a keyword. */
function asReference(bytes: Buffer, first: string, after: number): Parsed | undefined {
  if (!/^\d+$/.test(first)) return undefined;
  const genStart = skipSpace(bytes, after);
  let genEnd = genStart;
  while (isDigit(bytes[genEnd])) genEnd++;
  if (genEnd === genStart || isRegular(bytes[genEnd])) return undefined;
  const r = skipSpace(bytes, genEnd);
  if (bytes[r] !== 0x52 || isRegular(bytes[r + 1])) return undefined;
  const gen = Number(bytes.toString('latin1', genStart, genEnd));
  return { value: { kind: 'ref', num: Number(first), gen }, end: r + 1 };
}

function parseName(bytes: Buffer, start: number): Parsed {
  let end = start;
  while (isRegular(bytes[end])) end++;
  const raw = bytes.toString('latin1', start, end);
  // pdf.js reads /Fl#61teDecode as /FlateDecode, so the check must too.
  const name = raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return { value: { kind: 'name', name }, end };
}

function parseDict(bytes: Buffer, start: number, depth: number): Parsed | undefined {
  const entries = new Map<string, PdfValue>();
  let i = start;
  for (;;) {
    i = skipSpace(bytes, i);
    if (bytes[i] === 0x3e && bytes[i + 1] === 0x3e) return { value: { kind: 'dict', entries }, end: i + 2 };
    if (bytes[i] !== 0x2f) return undefined;
    const key = parseName(bytes, i + 1);
    const value = parseValue(bytes, key.end, depth + 1);
    if (!value) return undefined;
    if (key.value.kind === 'name') entries.set(key.value.name, value.value);
    i = value.end;
  }
}

function parseArray(bytes: Buffer, start: number, depth: number): Parsed | undefined {
  const items: PdfValue[] = [];
  let i = start;
  for (;;) {
    i = skipSpace(bytes, i);
    if (bytes[i] === 0x5d) return { value: { kind: 'array', items }, end: i + 1 };
    const item = parseValue(bytes, i, depth + 1);
    if (!item) return undefined;
    items.push(item.value);
    i = item.end;
  }
}

/**
 * A `( ... )` string's bytes. An end of line written inside the string is kept as written, as pdf.js keeps
 * it (ISO 32000 would read it as one LF): /O and /U are binary, and their bytes must be pdf.js's.
 */
function parseLiteralString(bytes: Buffer, start: number): Parsed {
  const end = skipLiteralString(bytes, start);
  const stop = Math.min(end, bytes.length);
  const out = Buffer.alloc(Math.max(0, stop - start));
  let length = 0;
  let depth = 1;
  let i = start;
  while (i < stop) {
    const c = bytes[i++] as number;
    if (c === 0x29 && --depth === 0) break;
    if (c === 0x28) depth++;
    if (c !== 0x5c) {
      out[length++] = c;
      continue;
    }
    const escaped = escapeAt(bytes, i);
    if (escaped.byte !== undefined) out[length++] = escaped.byte;
    i = escaped.next;
  }
  return { value: { kind: 'string', bytes: out.subarray(0, length) }, end };
}

// n r t b f
const ESCAPES = new Map([
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
  [0x62, 0x08],
  [0x66, 0x0c],
]);
const isOctal = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x37;

/** What the backslash before `at` stands for; no byte for a line continuation. */
function escapeAt(bytes: Buffer, at: number): { byte: number | undefined; next: number } {
  const c = bytes[at];
  if (c === undefined) return { byte: undefined, next: at };
  const named = ESCAPES.get(c);
  if (named !== undefined) return { byte: named, next: at + 1 };
  if (isOctal(c)) {
    let value = 0;
    let i = at;
    while (i < at + 3 && isOctal(bytes[i])) value = value * 8 + ((bytes[i++] as number) - 0x30);
    // \777 is past a byte: pdf.js keeps the low eight bits.
    return { byte: value & 0xff, next: i };
  }
  if (c === 0x0d) return { byte: undefined, next: bytes[at + 1] === 0x0a ? at + 2 : at + 1 };
  if (c === 0x0a) return { byte: undefined, next: at + 1 };
  // \\, \( and \) are the character itself, and so is any other escaped character.
  return { byte: c, next: at + 1 };
}

/** A `< ... >` string's bytes: whitespace and stray characters skipped (as pdf.js does), an odd digit as x0. */
function parseHexString(bytes: Buffer, start: number): Parsed | undefined {
  const close = bytes.indexOf(0x3e, start);
  if (close < 0) return undefined;
  const out = Buffer.alloc(Math.ceil((close - start) / 2));
  let length = 0;
  let high = -1;
  for (let i = start; i < close; i++) {
    const digit = hexDigit(bytes[i] as number);
    if (digit < 0) continue;
    if (high < 0) high = digit;
    else {
      out[length++] = (high << 4) | digit;
      high = -1;
    }
  }
  if (high >= 0) out[length++] = high << 4;
  return { value: { kind: 'string', bytes: out.subarray(0, length) }, end: close + 1 };
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Past a `( ... )` string: balanced parentheses, backslash escapes. */
function skipLiteralString(bytes: Buffer, start: number): number {
  let depth = 1;
  let i = start;
  while (i < bytes.length && depth > 0) {
    const c = bytes[i];
    if (c === 0x5c) i++;
    else if (c === 0x28) depth++;
    else if (c === 0x29) depth--;
    i++;
  }
  return i;
}

export const nameOf = (value: PdfValue | undefined): string | undefined =>
  value?.kind === 'name' ? value.name : undefined;

export const numberOf = (value: PdfValue | undefined): number | undefined =>
  value?.kind === 'number' ? value.value : undefined;

export const stringOf = (value: PdfValue | undefined): Buffer | undefined =>
  value?.kind === 'string' ? value.bytes : undefined;
