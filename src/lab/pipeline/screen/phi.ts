/**
 * PHI stage: find personal health information in a layout and return the kinds found (never the values)
 * with a redacted copy of the layout, which is all later stages ever see. Detection works in three passes:
 *
 * 1. labelled fields ("Patient:", "DOB:", "MRN:", "Ordering Physician:" ...), with the value beside the
 *    label or, for an empty label, on the next line in the same column (Quest prints physicians that way);
 * 2. shapes that need no label: SSNs, phone numbers, e-mail addresses, street and city lines, "LAST, FIRST"
 *    names in a report's header block, "Dr. ..." and "..., MD";
 * 3. propagation: every value found is redacted wherever else it appears (footers repeat the patient's
 *    name and specimen number), and so is each word of a person's name on its own.
 *
 * The date of birth from the request is never seen here: the caller passes a predicate that compares a
 * candidate date, so this module only learns whether it matched.
 */
import type { Cell, Line, TextItem } from '../pdf/layout.js';
import type { DocumentLayout, PageLayout } from '../pdf/pdf-text.js';
import { TRAILING_MARKS } from '../table/labcorp-marks.js';
import { memoByText } from '../table/text-memo.js';
import { findDates, usDateToIso } from './dates.js';
import { nameWordRedactor } from './name-words.js';

export type PhiKind =
  | 'patient_name'
  | 'physician_name'
  | 'contact_name'
  | 'date_of_birth'
  | 'address'
  | 'phone'
  | 'email'
  | 'ssn'
  | 'medical_record_number'
  | 'patient_id'
  | 'accession_number'
  | 'specimen_id'
  | 'account_number'
  | 'insurance_id'
  | 'provider_id';

export interface DobVerification {
  dobFound: boolean;
  dobMatches: boolean | null;
}

export interface PhiScan {
  /** Kinds of PHI found, sorted; values are never returned. */
  kinds: PhiKind[];
  redacted: DocumentLayout;
  verification: DobVerification;
}

export interface PhiOptions {
  /** Whether a date of birth printed in the document (YYYY-MM-DD) is the requester's. */
  matchesDob?: (isoDate: string) => boolean;
}

export const REDACTED = '[REDACTED]';

interface Finding {
  kind: PhiKind;
  value: string;
}

export function detectPhi(layout: DocumentLayout, options: PhiOptions = {}): PhiScan {
  const findings = layout.pages.flatMap(findOnPage);
  const birthDates = [
    ...new Set(findings.filter((f) => f.kind === 'date_of_birth').flatMap((f) => isoDates(f.value))),
  ];
  const redact = redactor(findings, birthDates);
  return {
    kinds: [...new Set(findings.map((f) => f.kind))].sort(),
    redacted: { ...layout, pages: layout.pages.map((page) => redactPage(page, redact)) },
    verification: verifyDob(birthDates, options.matchesDob),
  };
}

function verifyDob(birthDates: string[], matchesDob: PhiOptions['matchesDob']): DobVerification {
  const dobFound = birthDates.length > 0;
  if (!dobFound || !matchesDob) return { dobFound, dobMatches: null };
  return { dobFound, dobMatches: birthDates.some((iso) => matchesDob(iso)) };
}

// --- Pass 1: labelled fields --------------------------------------------------------------------------------

/** Labels (lower-cased, without the colon) and the kind of value they introduce. */
const LABELS: Array<[RegExp, PhiKind]> = [
  [/^(?:patient(?: name)?|name|member(?: name)?|subscriber(?: name)?|insured|guarantor)$/, 'patient_name'],
  [/^(?:emergency contact|guardian|responsible party|next of kin|contact)$/, 'contact_name'],
  [
    /^(?:ordering|referring|attending)(?: physician| provider| doctor| md)?$|^(?:physician|doctor|médico solicitante)$/,
    'physician_name',
  ],
  [/^(?:dob|d\.o\.b\.?|date of birth|birth ?date|fecha de nacimiento)$/, 'date_of_birth'],
  [/^(?:ssn|social security(?: number| no\.?| #)?)$/, 'ssn'],
  [
    /^(?:mrn|uhid|medical record(?: number| no\.?| #)?|med rec(?: #| no\.?)?|chart(?: #| no\.?))$/,
    'medical_record_number',
  ],
  [/^(?:patient (?:id|#|no\.?|number)|pt(?:\.)? id)$/, 'patient_id'],
  [
    /^(?:accession(?: #| no\.?| number| id)?|requisition(?: #| no\.?| number)?|control (?:id|#|no\.?)|lab ref(?: #| no\.?)?|order (?:#|no\.?|number|id)|(?:sample|lab|reg(?:istration)?|visit) (?:#|no\.?|number|id))$/,
    'accession_number',
  ],
  [/^(?:specimen(?: id| #| no\.?| number)?)$/, 'specimen_id'],
  [
    /^(?:acct(?:\.)?(?: #| no\.?)?|account(?: #| no\.?| number)?|client(?: #| id| no\.?| number))$/,
    'account_number',
  ],
  [
    /^(?:insurance(?: id| #| no\.?| number)?|member (?:id|#|no\.?|number)|policy(?: id| #| no\.?| number)?|group(?: #| no\.?| number)?|subscriber (?:id|#)|claim(?: #| no\.?| number)?|medicare(?: id| #)?|medicaid(?: id| #)?)$/,
    'insurance_id',
  ],
  [/^(?:npi|upin|provider (?:id|#|number))$/, 'provider_id'],
  [/^(?:phone|tel|telephone|mobile|cell|home phone|fax|phone number)$/, 'phone'],
  [/^(?:e-?mail(?: address)?)$/, 'email'],
  [/^(?:address|home address|street address|patient address)$/, 'address'],
];

/** "Label:" inside a cell. Labels start with a letter, so times such as 08:12 never split a cell. */
const LABEL = /(?:^|\s)([\p{L}][\p{L} .#()'/&-]{0,32}?)\s*:(?=\s|$)/gu;

const NAME_VALUE = /^[\p{L}][\p{L} ,.'’-]*$/u;

function labelKind(label: string): PhiKind | null {
  return memoLabelKind(label);
}

/** Every cell is asked whether it is a bare label (findBareLabelled): each text once per document. */
const memoLabelKind = memoByText(labelKindOf);

function labelKindOf(label: string): PhiKind | null {
  // No label holds a digit, and most cells do (values, ranges, dates): the patterns are not tried on them.
  if (/\d/.test(label)) return null;
  const key = label.toLowerCase().replace(/\s+/g, ' ').trim();
  for (const [pattern, kind] of LABELS) if (pattern.test(key)) return kind;
  return null;
}

/** Split a cell into (label, value) pairs, each value running to the next label. */
function labelledPairs(text: string): Array<{ label: string; value: string }> {
  // Most cells hold no colon, and a label needs one: the pattern need not scan them.
  if (!text.includes(':')) return [];
  const matches = [...text.matchAll(LABEL)];
  return matches.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = matches[i + 1]?.index ?? text.length;
    return { label: m[1] ?? '', value: text.slice(start, end).trim() };
  });
}

function acceptValue(kind: PhiKind, value: string): boolean {
  if (value === '' || value === REDACTED) return false;
  switch (kind) {
    case 'patient_name':
    case 'contact_name':
    case 'physician_name':
      return /\p{L}{2}/u.test(value) && NAME_VALUE.test(stripContact(value));
    case 'date_of_birth':
      return /\d/.test(value);
    case 'email':
      return value.includes('@');
    case 'address':
      return /\p{L}/u.test(value);
    default:
      // Identifiers carry digits; a digit-free value ("Specimen: SERUM") is a description, not an id.
      return /\d/.test(value);
  }
}

/** "Adaeze Okafor (713) 555-0177": the name part of a contact; the phone is found by its shape. */
function stripContact(value: string): string {
  return value.replace(/\s*\(?\+?\d[\d() .-]{6,}$/, '').trim();
}

function findLabelled(lines: readonly Line[], index: number): Finding[] {
  const line = lines[index];
  if (!line) return [];
  const out: Finding[] = [];
  for (const cell of line.cells) {
    for (const { label, value } of labelledPairs(cell.text)) {
      const kind = labelKind(label);
      if (!kind) continue;
      const found = value || (isNameKind(kind) ? valueBelow(lines, index, cell) : '');
      const cleaned = isNameKind(kind) ? stripContact(found) : found;
      if (acceptValue(kind, cleaned)) out.push({ kind, value: cleaned });
    }
  }
  return [...out, ...findBareLabelled(line)];
}

/**
 * "Sample No | AG1234": an identifier's label as a cell of its own with no colon (a scan drops a colon
 * printed apart as a speck; some layouts print it in a column of its own), its value the next cell.
 * Only identifiers and dates of birth, whose values must carry digits: a bare word such as "Name" is as
 * often a column heading as a label.
 */
function findBareLabelled(line: Line): Finding[] {
  const out: Finding[] = [];
  line.cells.forEach((cell, i) => {
    const kind = labelKind(cell.text.replace(/\s*:\s*$/, ''));
    const next = line.cells[i + 1];
    if (!kind || isNameKind(kind) || !next || (cell.text.includes(':') && !/:\s*$/.test(cell.text))) return;
    const value = next.text.replace(/^\s*:\s*/, '').trim();
    if (/\d/.test(value) && acceptValue(kind, value)) out.push({ kind, value });
  });
  return out;
}

function isNameKind(kind: PhiKind): boolean {
  return kind === 'patient_name' || kind === 'physician_name' || kind === 'contact_name';
}

/**
 * A label with nothing after it: its value is the name-shaped cell right below, in the same column. A table's
 * heading is never that value: an OCR'd "Patient:" over "Test Name" would otherwise redact the heading on
 * every page and leave the table unreadable.
 */
function valueBelow(lines: readonly Line[], index: number, labelCell: Cell): string {
  const next = lines[index + 1];
  if (!next || isTableHeading(next)) return '';
  const below = next.cells.find((cell) => Math.abs(cell.x - labelCell.x) < 24);
  if (!below || below.text.includes(':') || onlyLabWords(below.text)) return '';
  return NAME_VALUE.test(below.text) ? below.text : '';
}

// --- Pass 2: shapes ----------------------------------------------------------------------------------------

const SSN = /(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])/g;
/**
 * Telephone numbers: US (713) 555-0177 and 713-555-0177; numbers written with a country code (+92 300
 * 1234567, +44 7700 900123); national numbers after a trunk zero (0300-1234567, 07700 900123), whose
 * 10-12 digits no reference range or value prints; and ten-digit mobile numbers as Indian reports print
 * them (9876543210; spaced, "98765 43210" could be two numbers of a row).
 */
const PHONE = new RegExp(
  [
    String.raw`(?:\+1[ .-]?)?\(\d{3}\)\s?\d{3}[-.\s]\d{4}(?!\d)`,
    String.raw`(?<![\d-])\d{3}[-.]\d{3}[-.]\d{4}(?![\d-])`,
    String.raw`(?<![\w+])\+\d{1,3}(?:[ -]?\d){8,13}(?![\d.])`,
    String.raw`(?<![\d.,/-])0\d{2,4}[ -]?\d{6,8}(?![\d.,])`,
    String.raw`(?<![\d.,/-])[6-9]\d{9}(?![\d.,])`,
  ].join('|'),
  'g',
);
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const STREET =
  /^(?:\d{1,6}[A-Z]? [\p{L}\d .'’-]+? (?:street|st|road|rd|avenue|ave|drive|dr|lane|ln|court|ct|boulevard|blvd|way|trail|trl|mews|place|pl|parkway|pkwy|circle|cir|terrace|ter|highway|hwy|square|sq|row|close|crescent|loop|path|pike|alley|plaza)\.?|p\.?\s?o\.? box \d+)(?:,? (?:apt|suite|ste|unit|#)\.? ?[\w-]+)?(?:, [\p{L} .'-]+, [A-Z]{2} \d{5}(?:-\d{4})?)?$/iu;
const CITY_STATE_ZIP = /^[\p{L}][\p{L} .'-]*, [A-Z]{2}\.? \d{5}(?:-\d{4})?$/u;
const CITY_LIKE = /^[\p{L}][\p{L} .'-]*, [\p{L}\d .-]+$/u;
const LAST_FIRST =
  /^[\p{Lu}][\p{L}'’-]+(?: [\p{Lu}][\p{L}'’-]+)?, [\p{Lu}][\p{L}'’-]+(?: [\p{Lu}]\.?| [\p{Lu}][\p{L}'’-]+)?$/u;
// "Dr. Name", "Dr Name", and "Dr.Name" as OCR gives it back without the space.
const DOCTOR = /\bDra?(?:\.\s?|\s)(?:[\p{Lu}]\.? )?[\p{Lu}][\p{L}'’-]+(?: [\p{Lu}][\p{L}'’-]+)?/gu;
const CREDENTIALED =
  /\b[\p{Lu}][\p{L}'’-]*\.?(?: [\p{Lu}][\p{L}'’-]*\.?){1,3}, (?:MD|M\.D\.|DO|D\.O\.|NP|PA-C|PhD|RN)\b/gu;

/**
 * Words of lab reports that a "LAST, FIRST" shape would otherwise take for a name (PROTEIN, TOTAL), and that
 * must survive redaction even when a patient shares one as a surname (WHITE BLOOD CELL COUNT).
 */
const LAB_WORDS = new Set(
  (
    'total complete panel protein bilirubin cholesterol glucose serum urine blood white red cell cells count ' +
    'direct indirect free random fasting calc calculated ratio screen test tests culture specimen urinalysis ' +
    'routine final report result results reference range interval cardiac iron vitamin hemoglobin level ' +
    'plasma whole differential platelet automated manual comprehensive basic metabolic lipid thyroid ' +
    'hepatic function profile quest labcorp diagnostics laboratory laboratories corporation america ' +
    'patient physician ordering referring page information details comments collected received reported ' +
    'street road drive lane court avenue trail name date birth male female example'
  ).split(' '),
);

function findShapes(lines: readonly Line[], headerEnd: number): Finding[] {
  const out: Finding[] = [];
  const rows = rowNamesBelow(lines, headerEnd);
  lines.forEach((line, index) => {
    // Each shape needs a character most lines lack (a digit, an @, "Dr", ", "): the patterns, some slow to
    // fail on long lines, are not run where they cannot match.
    const digits = /\d/.test(line.text);
    if (digits) for (const m of line.text.matchAll(SSN)) out.push({ kind: 'ssn', value: m[0] });
    if (digits) for (const m of line.text.matchAll(PHONE)) out.push({ kind: 'phone', value: m[0] });
    if (line.text.includes('@'))
      for (const m of line.text.matchAll(EMAIL)) out.push({ kind: 'email', value: m[0] });
    if (line.text.includes('Dr'))
      for (const m of line.text.matchAll(DOCTOR)) out.push({ kind: 'physician_name', value: m[0] });
    if (line.text.includes(', '))
      for (const m of line.text.matchAll(CREDENTIALED)) out.push({ kind: 'physician_name', value: m[0] });
    for (const cell of line.cells) {
      const text = cell.text.trim();
      if (STREET.test(text)) {
        out.push({ kind: 'address', value: text });
        const city = cityBelow(lines[index + 1], cell);
        if (city) out.push({ kind: 'address', value: city });
      } else if (CITY_STATE_ZIP.test(text)) {
        out.push({ kind: 'address', value: text });
      } else if (index < headerEnd && isLastFirst(text) && !rows.has(text)) {
        out.push({ kind: 'patient_name', value: text });
      }
    }
    const dear = /^Dear ([\p{L} .'’-]+),/u.exec(line.text);
    if (dear?.[1]) out.push({ kind: 'patient_name', value: dear[1].trim() });
  });
  return out;
}

/**
 * The names rows below the table header start with, on lines that hold a value. Labcorp heads each test's
 * table with the test's name ("Pregnenolone, MS", a test and its method), which has the "LAST, FIRST"
 * shape; the row under the header repeats it beside its result. A patient's name is never a row's.
 */
function rowNamesBelow(lines: readonly Line[], headerEnd: number): Set<string> {
  const names = new Set<string>();
  for (const line of lines.slice(headerEnd + 1)) {
    // The raw text keeps Labcorp's raised site code and footnote letter after the name ("... MS 05").
    const first = line.cells[0]?.text.trim().replace(TRAILING_MARKS, '');
    if (first && line.cells.length > 1 && /\d/.test(line.text)) names.add(first);
  }
  return names;
}

/** The line under a street line, in its column, is the city line whatever the country's format. */
function cityBelow(next: Line | undefined, street: Cell): string | null {
  const cell = next?.cells.find((c) => Math.abs(c.x - street.x) < 24);
  const text = cell?.text.trim();
  return text && CITY_LIKE.test(text) ? text : null;
}

function isLastFirst(text: string): boolean {
  return LAST_FIRST.test(text) && !labWords(text).some((word) => LAB_WORDS.has(word));
}

function labWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s,.]+/)
    .filter(Boolean);
}

function onlyLabWords(text: string): boolean {
  const words = labWords(text);
  return words.length > 0 && words.every((word) => LAB_WORDS.has(word));
}

/**
 * Where a page's header block ends: the first line that heads a results table. "LAST, FIRST" cells are only
 * taken for names above it, where the patient block is; below it they are test names.
 */
function headerEnd(lines: readonly Line[]): number {
  const index = lines.findIndex(isTableHeading);
  return index < 0 ? lines.length : index;
}

function isTableHeading(line: Line): boolean {
  return line.cells.length >= 3 && /\b(?:result|reference|units?|in range|flag)\b/i.test(line.text);
}

function findOnPage(page: PageLayout): Finding[] {
  const labelled = page.lines.flatMap((_, index) => findLabelled(page.lines, index));
  return [...labelled, ...findShapes(page.lines, headerEnd(page.lines))];
}

// --- Pass 3: redaction -------------------------------------------------------------------------------------

function isoDates(value: string): string[] {
  const iso = value.match(/\d{4}-\d{2}-\d{2}/g) ?? [];
  const us = findDates(value)
    .map(usDateToIso)
    .filter((d): d is string => d !== null);
  return [...iso, ...us];
}

/** Every way a report prints a date of birth: 02/14/1991, 2/14/1991, 02/14/91, 1991-02-14. */
function dateForms(iso: string): string[] {
  const [y, m, d] = iso.split('-');
  if (!y || !m || !d) return [iso];
  const mm = String(Number(m));
  const dd = String(Number(d));
  return [iso, `${m}/${d}/${y}`, `${mm}/${dd}/${y}`, `${m}/${d}/${y.slice(2)}`, `${d}/${m}/${y}`];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Names: each word of three letters or more, except lab vocabulary and titles. */
function nameWords(value: string): string[] {
  return (value.match(/[\p{L}'’-]{3,}/gu) ?? []).filter(
    (word) => !LAB_WORDS.has(word.toLowerCase()) && !/^(?:md|phd|dra?|mrs?|ms)$/i.test(word),
  );
}

/** One function that redacts any string: whole values first (longest first), then name words, then shapes. */
function redactor(findings: readonly Finding[], birthDates: readonly string[]): (text: string) => string {
  const values = new Set<string>();
  for (const f of findings) if (f.value.length >= 3) values.add(f.value);
  for (const iso of birthDates) for (const form of dateForms(iso)) values.add(form);
  const words = new Set(findings.filter((f) => isNameKind(f.kind)).flatMap((f) => nameWords(f.value)));
  const sortedValues = [...values].sort((a, b) => b.length - a.length);
  const valuePattern = sortedValues.length ? new RegExp(sortedValues.map(escapeRegExp).join('|'), 'g') : null;
  const redactWords = words.size ? nameWordRedactor([...words], REDACTED) : null;
  // Every cell and every text item is redacted, and most items repeat their cell's text: each text once.
  const done = new Map<string, string>();
  return (text) => {
    const known = done.get(text);
    if (known !== undefined) return known;
    let out = text;
    if (valuePattern) out = out.replace(valuePattern, REDACTED);
    if (redactWords) out = redactWords(out);
    // SSNs and phone numbers need a digit, e-mail addresses an @: most texts have neither.
    if (/\d/.test(out)) out = out.replace(SSN, REDACTED).replace(PHONE, REDACTED);
    if (out.includes('@')) out = out.replace(EMAIL, REDACTED);
    out = out.replace(/\[REDACTED\](?:[ ,]*\[REDACTED\])+/g, REDACTED);
    done.set(text, out);
    return out;
  };
}

/**
 * Lines and cells are redacted as strings. Text items are rebuilt from them where a cell changed, because a
 * value split over several items ("OKAFOR," "DESMOND" "A") cannot be matched item by item: the cell's first
 * item carries the redacted text and the rest of the cell's items are dropped.
 */
function redactPage(page: PageLayout, redact: (text: string) => string): PageLayout {
  const lines = page.lines.map((line) => {
    const cells = line.cells.map((cell) => ({ ...cell, text: redact(cell.text) }));
    return { ...line, text: cells.map((cell) => cell.text).join(' '), cells };
  });
  return { ...page, lines, items: redactItems(page, lines, redact) };
}

function redactItems(page: PageLayout, redactedLines: Line[], redact: (text: string) => string): TextItem[] {
  const items: TextItem[] = [];
  const started = new Set<Cell>();
  // A line's items share its baseline: the nearest line is looked up once per baseline, not per item.
  const lineAt = new Map<number, number>();
  for (const item of page.items) {
    let lineIndex = lineAt.get(item.y);
    if (lineIndex === undefined) {
      lineIndex = nearestLine(page.lines, item.y);
      lineAt.set(item.y, lineIndex);
    }
    const original = page.lines[lineIndex];
    const redactedLine = redactedLines[lineIndex];
    const cellIndex = original ? cellOf(original.cells, item.x) : -1;
    const before = original?.cells[cellIndex];
    const after = redactedLine?.cells[cellIndex];
    if (!before || !after || before.text === after.text) {
      items.push({ ...item, str: redact(item.str) });
      continue;
    }
    if (started.has(before)) continue;
    started.add(before);
    items.push({ ...item, str: after.text });
  }
  return items;
}

function nearestLine(lines: readonly Line[], y: number): number {
  let best = -1;
  let distance = Number.POSITIVE_INFINITY;
  lines.forEach((line, i) => {
    const d = Math.abs(line.y - y);
    if (d < distance) {
      distance = d;
      best = i;
    }
  });
  return best;
}

function cellOf(cells: readonly Cell[], x: number): number {
  let index = -1;
  cells.forEach((cell, i) => {
    if (cell.x <= x + 0.5) index = i;
  });
  return Math.max(index, 0);
}
