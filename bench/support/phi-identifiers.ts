/**
 * The identifiers a lab report prints about its patient, read from the PDF at run time so that none of
 * them is ever stored in the repo, and a count of where they turn up again. Independent of src/lab/pipeline/screen/phi.ts
 * on purpose: the PHI check should not share the blind spots of the code it checks.
 *
 * Reading is by label, on `pdftotext -layout` text: a value after its label on the same line ("DOB:
 * 04/07/1962", "Accession    XX0000"), or under it in the same column (a "Specimen Number | Patient ID"
 * header row over a row of values, a "Patient Information" block over the name). Callers must never print
 * what this returns; only counts.
 */
import { execa } from 'execa';
import type { DocumentLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';

export type IdentifierCategory =
  | 'name'
  | 'dob'
  | 'patient_id'
  | 'specimen'
  | 'account'
  | 'control'
  | 'accession'
  | 'health_id'
  | 'requisition'
  | 'lab_ref'
  | 'npi'
  | 'physician'
  | 'phone';

export interface Identifier {
  category: IdentifierCategory;
  value: string;
}

/** Shorter strings match too much by chance ("Acceptable" is not an id; "12" is in every file). */
const MIN_LENGTH = 4;

interface Cell {
  start: number;
  end: number;
  text: string;
}

/** pdftotext -layout separates columns by runs of spaces; one space is inside a cell. */
function cellsOf(line: string): Cell[] {
  const cells: Cell[] = [];
  for (const m of line.matchAll(/\S+(?: \S+)*/g)) {
    const last = cells.at(-1);
    // "Name           : A B" (Indian layouts): the colon and value belong to the label before them.
    if (last && m[0].startsWith(':')) {
      last.text = `${last.text} ${m[0]}`;
      last.end = m.index + m[0].length;
    } else cells.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return cells;
}

/** `signed`: a name that may be one word, as a referring doctor is printed ("Ref By : Dr Surname"). */
type Shape = 'id' | 'date' | 'name' | 'namePart' | 'signed';

interface Label {
  category: IdentifierCategory;
  /** Matches a whole cell that starts with the label; group 1 is what follows it in the cell. */
  pattern: RegExp;
  shape: Shape;
  /** Whether the value may sit under the label in the same column (a header row). */
  below: boolean;
}

const label = (category: IdentifierCategory, words: string, shape: Shape, below = true): Label => ({
  category,
  pattern: new RegExp(`^(?:alternate\\s+)?(?:${words})(?:\\s*[:#.])*\\s*(.*)$`, 'i'),
  shape,
  below,
});

const LABELS: Label[] = [
  label('name', 'patient\\s+last\\s+name|patient\\s+first\\s+name|last\\s+name|first\\s+name', 'namePart'),
  label(
    'name',
    'patient\\s+information|patient\\s+details|patient\\s+name|patient(?=\\s*:)|name(?=\\s*:)',
    'name',
  ),
  label('dob', 'dob|d\\.o\\.b|date\\s+of\\s+birth|birth\\s*date', 'date'),
  label(
    'patient_id',
    'patient\\s+id|patient\\s+no|uhid|mrn|cr\\s+no|reg(?:istration)?\\.?\\s*no|ip\\s+no|op\\s+no',
    'id',
  ),
  label('specimen', 'specimen\\s+id|specimen\\s+number|specimen\\s+no|specimen\\s*#|specimen', 'id'),
  label(
    'account',
    'account\\s+number|account\\s+no|account\\s*#|acct\\s*#|acct\\s+no|client\\s*#|client\\s+number|client\\s+id',
    'id',
  ),
  label('control', 'control\\s+id|control\\s+number|control\\s+no|control\\s*#', 'id'),
  label('accession', 'accession\\s+number|accession\\s+no|accession\\s*#|accession', 'id'),
  label('health_id', 'health\\s+id', 'id'),
  label('requisition', 'requisition\\s+number|requisition\\s+no|requisition\\s*#|requisition', 'id'),
  label('lab_ref', 'lab\\s+ref(?:erence)?\\s*(?:#|no|number)?', 'id'),
  // Indian layouts: "Lab No. :", "Lab/Study No. :", "Sample Type/No :", "Report No. :", "Bill No :".
  label(
    'lab_ref',
    'lab(?:\\s*\\/\\s*study)?\\s+no|sample(?:\\s+type)?\\s*\\/?\\s*no|sample\\s+id|report\\s+no|bill\\s+no|visit\\s+no',
    'id',
  ),
  label(
    'physician',
    // "Ref." alone, as Indian pathology laboratories print the referrer ("Ref. Range" names no one: NOT_NAME).
    // Longest first: "Ref." alone would take "Doctor" of "Ref. Doctor" for the referrer's name.
    'ref\\.?\\s*doctor|ref\\.?\\s*by|referred\\s+by|referring\\s+(?:doctor|physician)|ordering\\s+physician|ref\\.',
    'signed',
  ),
  label('npi', 'npi', 'id'),
];

/** Words of labels and headings, which a name column or block can hold instead of a name. */
const NOT_NAME =
  /\b(patient|name|date|birth|dob|sex|gender|age|id|number|physician|doctor|information|details|status|specimen|account|phone|report|final|fasting|range|interval|values?|limits?)\b/i;

const DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

function shaped(text: string, shape: Shape): string | null {
  const t = text.trim();
  if (shape === 'id') {
    const token = t.split(/\s+/)[0] ?? '';
    return /\d/.test(token) && /^[A-Za-z0-9][A-Za-z0-9/-]*$/.test(token) ? token : null;
  }
  if (shape === 'date') {
    const date = /^\d{1,2}[/.-]\d{1,2}[/.-]\d{4}\b/.exec(t);
    return date ? date[0] : null;
  }
  const name = t.replace(HONORIFIC, '');
  if (!/^[\p{L}][\p{L}'. ,-]*$/u.test(name) || NOT_NAME.test(name)) return null;
  if (shape === 'namePart' || shape === 'signed') return name;
  // A name is at least two words: "LAST, FIRST" or "First Last".
  return name.split(/[\s,]+/).filter((w) => w.replace(/\./g, '').length > 1).length >= 2 ? name : null;
}

/** A title before a name (Mr., Ms., Dr, Smt.): not part of what identifies the person. */
const HONORIFIC = /^(?:(?:mr|mrs|ms|miss|mx|master|baby|smt|shri|sri|dr|prof)(?:\.\s*|\s+))+(?=\p{L})/iu;

/**
 * Words that sample and template documents print in place of a name ("TEST, JOHN", "DUMMY"): searching for
 * them alone finds the report's own vocabulary ("a test name"), not the person.
 */
const PLACEHOLDER =
  /^(?:test|tests|sample|samples|dummy|demo|patient|unknown|anonymous|self|none|specimen|report|result|lab)$/i;

/** The value for a label cell: in the cell, else the next cell on the line, else under it. */
function findValue(lines: Cell[][], row: number, col: number, rest: string, l: Label): string | null {
  if (rest !== '') return shaped(rest, l.shape);
  const cells = lines[row] ?? [];
  const next = cells[col + 1];
  const cell = cells[col] as Cell;
  if (next && l.shape !== 'namePart') {
    // "Name        : A B": the colon stands apart from its label.
    const v = shaped(next.text.replace(/^[:#]\s*/, ''), l.shape);
    if (v) return v;
  }
  if (!l.below) return null;
  // The first cell under the label, within a few lines; header rows are loosely centred over values.
  for (let r = row + 1, seen = 0; r < lines.length && seen < 3; r++) {
    const below = lines[r] ?? [];
    if (below.length === 0) continue;
    seen++;
    const under = below.filter((c) => c.start < cell.end + 6 && c.end > cell.start - 6);
    if (under.length === 0) continue;
    const mid = (c: Cell) => (c.start + c.end) / 2;
    const nearest = under.reduce((a, b) =>
      Math.abs(mid(a) - mid(cell)) <= Math.abs(mid(b) - mid(cell)) ? a : b,
    );
    return shaped(nearest.text, l.shape);
  }
  return null;
}

/** A name as printed, and its parts: surname and given name alone, and the other order. */
function nameForms(name: string, part: boolean): string[] {
  const printed = name.replace(/\s+/g, ' ').trim();
  if (part) return [printed];
  const words = (s: string) => s.split(/\s+/).filter((w) => w.replace(/\./g, '').length > 1);
  const comma = printed.indexOf(',');
  const surname = comma >= 0 ? printed.slice(0, comma).trim() : (words(printed).at(-1) ?? '');
  const given = comma >= 0 ? (words(printed.slice(comma + 1))[0] ?? '') : (words(printed)[0] ?? '');
  return [printed, surname, given, `${given} ${surname}`, `${surname}, ${given}`];
}

/** A date of birth as printed and as it may be stored: 04/07/1962, 4/7/1962, 1962-04-07. */
function dateForms(date: string): string[] {
  const m = DATE.exec(date);
  if (!m) return [date];
  const [, mm = '', dd = '', yyyy = ''] = m;
  const pad = (s: string) => s.padStart(2, '0');
  return [
    date,
    `${pad(mm)}/${pad(dd)}/${yyyy}`,
    `${Number(mm)}/${Number(dd)}/${yyyy}`,
    `${yyyy}-${pad(mm)}-${pad(dd)}`,
    `${pad(mm)}-${pad(dd)}-${yyyy}`,
  ];
}

/**
 * Phone numbers by shape, written apart from src/lab/pipeline/screen/phi.ts so the check does not share its
 * blind spots: US forms, and the international ones real reports of other countries print (a country code;
 * a national number after a trunk zero, 10-12 digits; a ten-digit Indian mobile), which no label may sit
 * beside on a scan whose OCR garbles labels.
 */
const PHONE = new RegExp(
  String.raw`(?<![\d(])(?:\(\d{3}\) ?\d{3}-\d{4}|\d{3}\.\d{3}\.\d{4}|\d{3}-\d{3}-\d{4})(?![\d-])` +
    String.raw`|(?<![\d.])(?:\+\d{2,3}[ -]?\d{3,4}[ -]?\d{6,7}|0\d{3,4}-\d{6,7}|0\d{9,11}|[6-9]\d{9})(?![\d.])`,
  'g',
);

/** Every identifier the text prints beside a known label, plus every phone number, deduplicated. */
export function identifiersInText(text: string): Identifier[] {
  const rawLines = text.split(/\r?\n|\f/);
  const lines = rawLines.map(cellsOf);
  const found = new Map<string, Identifier>();
  const add = (category: IdentifierCategory, value: string) => {
    const v = value.replace(/\s+/g, ' ').trim();
    if ((category === 'name' || category === 'physician') && PLACEHOLDER.test(v.replace(/\.$/, ''))) return;
    if (v.length >= MIN_LENGTH && !found.has(v.toLowerCase()))
      found.set(v.toLowerCase(), { category, value: v });
  };
  for (const [row, cells] of lines.entries()) {
    for (const [col, cell] of cells.entries()) {
      for (const l of LABELS) {
        const m = l.pattern.exec(cell.text);
        if (!m) continue;
        const value = findValue(lines, row, col, m[1] ?? '', l);
        if (value && (l.category === 'name' || l.category === 'physician'))
          for (const form of nameForms(value, l.shape !== 'name')) add(l.category, form);
        else if (value && l.category === 'dob') for (const form of dateForms(value)) add('dob', form);
        else if (value) add(l.category, value);
        break;
      }
    }
    // Labcorp's header line: "LAST, FIRST          DOB: 04/07/1962".
    const first = cells[0];
    if (first && cells.slice(1).some((c) => /^dob\b/i.test(c.text)) && first.text.includes(',')) {
      const name = shaped(first.text, 'name');
      if (name) for (const form of nameForms(name, false)) add('name', form);
    }
  }
  for (const m of text.matchAll(PHONE)) add('phone', m[0]);
  return [...found.values()];
}

/** Layout text from the project's own reader, for machines without poppler: cells placed by x. */
export function layoutText(layout: DocumentLayout): string {
  const POINTS_PER_COLUMN = 4.5;
  return layout.pages
    .map((page) =>
      page.lines
        .map((line) =>
          line.cells.reduce((s, c) => {
            const at = Math.max(s.length === 0 ? 0 : s.length + 2, Math.round(c.x / POINTS_PER_COLUMN));
            return s.padEnd(at) + c.text;
          }, ''),
        )
        .join('\n'),
    )
    .join('\f');
}

/** The PDF's text with layout: pdftotext when installed, else pdf.js, else OCR for a scan. */
export async function pdfLayoutText(path: string, bytes: Uint8Array): Promise<string> {
  try {
    const { stdout } = await execa('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], {
      stripFinalNewline: false,
    });
    if (stdout.trim() !== '') return stdout;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const { extractLayout } = await import('../../src/lab/pipeline/pdf/pdf-text.js');
  const layout = await extractLayout(bytes);
  if (layout.hasTextLayer) return layoutText(layout);
  const { ocrAvailable, ocrLayout } = await import('../../src/lab/pipeline/ocr/ocr.js');
  return (await ocrAvailable()) ? layoutText(await ocrLayout(bytes, layout.pages.length)) : '';
}

/**
 * Where each identifier occurs in `haystack`, without case, as a whole token: a letter-edged identifier
 * may not touch another letter, a digit-edged one another digit ("Doe" is not in "Doeskin", "55501"
 * not in "555012"). Overlapping hits (a full name and its surname) count once.
 */
export function countHits(
  haystack: string,
  identifiers: readonly Identifier[],
): Map<IdentifierCategory, number> {
  const spans = new Map<IdentifierCategory, Array<[number, number]>>();
  const lower = haystack.toLowerCase();
  for (const id of identifiers) {
    const needle = latin1(id.value).toLowerCase();
    const before = edgeClass(needle[0] ?? '');
    const after = edgeClass(needle.at(-1) ?? '');
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (before?.test(lower[at - 1] ?? '') || after?.test(lower[end] ?? '')) continue;
      spans.set(id.category, [...(spans.get(id.category) ?? []), [at, end]]);
    }
  }
  const counts = new Map<IdentifierCategory, number>();
  for (const [category, list] of spans) {
    list.sort((a, b) => a[0] - b[0]);
    let n = 0;
    let reach = -1;
    for (const [start, end] of list) {
      if (start >= reach) n++;
      reach = Math.max(reach, end);
    }
    counts.set(category, n);
  }
  return counts;
}

/** The identifier as it appears in UTF-8 bytes read as latin1, the way files are searched. */
function latin1(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

function edgeClass(ch: string): RegExp | null {
  if (/\p{L}/u.test(ch)) return /\p{L}/u;
  if (/\d/.test(ch)) return /\d/;
  return null;
}

/** Replaces every identifier in `text` (any case) by a mark: for anything printed that came from a PDF. */
export function redact(text: string, identifiers: readonly Identifier[]): string {
  let out = text;
  for (const id of [...identifiers].sort((a, b) => b.value.length - a.value.length)) {
    const escaped = id.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(escaped, 'gi'), `[${id.category}]`);
  }
  return out;
}
