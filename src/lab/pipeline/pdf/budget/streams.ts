import type { FilterChain } from './decoded-size.js';
import { nameOf, numberOf, type Parsed, type PdfValue, parseValue, skipSpace } from './pdf-objects.js';

/** One `stream ... endstream` body and the dictionary in front of it. */
export interface StreamRecord {
  /** The object's number and generation (what an encrypted file's per-object key is made from). */
  num: number;
  gen: number;
  /** Undefined when no object header could be read in front of the keyword. */
  dict: Map<string, PdfValue> | undefined;
  start: number;
  end: number;
}

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');
const OBJ = Buffer.from('obj');
/** How far back from `stream` its object header is looked for; a dictionary padded past this is hostile. */
const HEADER_REACH = 1024 * 1024;
/** `obj` keywords tried before giving up (one inside a string or a name can come first). */
const HEADER_TRIES = 8;

/**
 * Every stream in the file, found by its keyword rather than through the cross-reference table, so that
 * streams no table points at, or that two tables disagree on, are counted too. A `stream` keyword whose
 * object header cannot be parsed comes without a dictionary: the caller decides what unknown means.
 */
export function* findStreams(bytes: Buffer, objects: ObjectIndex): Generator<StreamRecord> {
  for (let at = bytes.indexOf(STREAM); at !== -1; at = bytes.indexOf(STREAM, at + STREAM.length)) {
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (bytes[start] === 0x0d) start += 1;
    if (bytes[start] === 0x0a) start += 1;
    const header = objectBefore(bytes, at);
    const dict = header?.dict;
    yield {
      num: header?.num ?? -1,
      gen: header?.gen ?? -1,
      dict,
      start,
      end: streamEnd(bytes, start, dict, objects),
    };
  }
}

/** The object whose `stream` keyword is at `at`: its number and dictionary, parsed forward from `N G obj`. */
function objectBefore(
  bytes: Buffer,
  at: number,
): { num: number; gen: number; dict: Map<string, PdfValue> } | undefined {
  const floor = Math.max(0, at - HEADER_REACH);
  let from = at;
  for (let tries = 0; tries < HEADER_TRIES; tries++) {
    const obj = bytes.lastIndexOf(OBJ, from - 1);
    if (obj < floor || obj < 0) return undefined;
    from = obj;
    const header = /(\d+)\s+(\d+)\s*$/.exec(bytes.toString('latin1', Math.max(0, obj - 24), obj));
    if (!header) continue;
    const parsed = parseValue(bytes, obj + OBJ.length);
    if (parsed?.value.kind === 'dict' && skipSpace(bytes, parsed.end) === at) {
      return { num: Number(header[1]), gen: Number(header[2]), dict: parsed.value.entries };
    }
  }
  return undefined;
}

/** Where pdf.js ends the body: at /Length when `endstream` follows it there, else at the next `endstream`. */
function streamEnd(
  bytes: Buffer,
  start: number,
  dict: Map<string, PdfValue> | undefined,
  objects: ObjectIndex,
): number {
  const length = numberOf(objects.resolve(dict?.get('Length')));
  if (length !== undefined && Number.isInteger(length) && length >= 0 && start + length <= bytes.length) {
    const after = skipSpace(bytes, start + length);
    if (bytes.subarray(after, after + ENDSTREAM.length).equals(ENDSTREAM)) return start + length;
  }
  const next = bytes.indexOf(ENDSTREAM, start);
  return next < 0 ? bytes.length : next;
}

/**
 * Indirect objects by number, for the values a dictionary refers to (/Length 12 0 R, /Filter 7 0 R).
 * Built on first use; the last definition of a number wins, as with incremental updates.
 */
export class ObjectIndex {
  readonly #bytes: Buffer;
  #offsets?: Map<string, number>;

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  /** The value itself, or what its reference points at (one level: a reference to a reference is not PDF). */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    if (value?.kind !== 'ref') return value;
    const at = this.#index().get(`${value.num} ${value.gen}`);
    if (at === undefined) return undefined;
    const parsed: Parsed | undefined = parseValue(this.#bytes, at);
    return parsed?.value.kind === 'ref' ? undefined : parsed?.value;
  }

  #index(): Map<string, number> {
    if (!this.#offsets) {
      this.#offsets = new Map();
      const text = this.#bytes.toString('latin1');
      for (const match of text.matchAll(/(\d+)\s+(\d+)\s+obj\b/g)) {
        this.#offsets.set(`${Number(match[1])} ${Number(match[2])}`, (match.index ?? 0) + match[0].length);
      }
    }
    return this.#offsets;
  }
}

/** The filter names and their parameters, in the order pdf.js applies them ([] when none). */
export function filterChain(dict: Map<string, PdfValue>, objects: ObjectIndex): FilterChain {
  const declared = dict.get('Filter') ?? dict.get('F');
  if (!declared) return { filters: [], params: [] };
  const filter = objects.resolve(declared);
  const params = objects.resolve(dict.get('DecodeParms') ?? dict.get('DP'));
  // Declared but unreadable here (an object inside an object stream): still a filter pdf.js may apply.
  if (!filter) return { filters: [undefined], params: [undefined] };
  if (filter.kind === 'array') {
    return {
      filters: filter.items.map((item) => nameOf(objects.resolve(item))),
      params: filter.items.map((_, i) =>
        params?.kind === 'array' ? objects.resolve(params.items[i]) : undefined,
      ),
    };
  }
  return { filters: [nameOf(filter)], params: [params] };
}
