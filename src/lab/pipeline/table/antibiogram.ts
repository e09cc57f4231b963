/**
 * Antibiograms: the susceptibility table of a culture report, one antibiotic per line with its
 * interpretation (S, I, R, as a letter, a word or `S(++)`) and sometimes its MIC. A lone letter is a result
 * only here: anywhere else an `R` or an `I` after a name means nothing, so these lines are read by their own
 * reader, inside a section a heading opens ("DRUG SENSITIVITY", "Antibiotic Susceptibility"), and never by
 * the general table reader. Reading the susceptible rows and dropping the resistant ones would be the worst
 * misreading a culture report allows; here every row of the section is read, or the line stays unread.
 *
 * The organism itself ("RESULT: Significant growth of ...") is free text, often wrapped: it is not read as a
 * result, but reported as a line seen and not read, so the report never looks complete without it.
 */
import type { ParsedPanel, ParsedRow } from '../../types.js';
import type { Cell } from '../pdf/layout.js';
import type { LineView } from './line.js';
import { isOcrCell } from './ocr-cells.js';
import { lineBox } from './row-box.js';

export interface Antibiograms {
  panels: ParsedPanel[];
  /** Lines read here, which the general reader must not read again. */
  read: Set<LineView>;
  /** A culture's finding, seen and not read. */
  unread: LineView[];
}

/** A heading that opens a susceptibility table. */
const SECTION = /\b(?:sensitivity|susceptibility|susceptibilities|antibiogram)\b/i;
/** The interpretation, as laboratories print it: a letter, a word, or a letter graded with plus signs. */
const INTERPRETATION =
  /^(?:S|I|R|SDD|NS|sensitive|susceptible|intermediate|resistant|moderately\s+sensitive)(?:\s*\(\+{1,4}\))?$/i;
/**
 * A susceptibility as laboratories print it ("S", "Resistant", "S(++)"): a shape only antibiograms give. A
 * lone small letter ("i", "s") is a scan's speck or misread, not an interpretation, wherever it stands.
 */
export const isInterpretation = (text: string): boolean =>
  INTERPRETATION.test(text.trim()) && !/^[a-z]$/.test(text.trim());

/** A minimum inhibitory concentration: `<=0.5`, `16`, `>=32`, `16/4`. */
const MIC = /^(?:[<>≤≥]=?\s*)?\d+(?:\.\d+)?(?:\/\d+(?:\.\d+)?)?$/;
/** An empty column printed as a dash. */
const PLACEHOLDER = /^[-–—.]+$/;
/** The label of a culture's finding. */
const FINDING_LABEL = /^(?:organisms?(?:\s+isolated)?|isolated?|culture(?:\s+result)?|result|growth)\s*:?$/i;
const FINDING_WORDS = /\b(?:growth|isolated|organism|sterile|colon(?:y|ies)|cfu)\b/i;

interface Row {
  name: string;
  interpretation: string;
  mic: string | null;
  /** Read from a scan: the least sure word's confidence, and whether a grade's plus sign was repaired. */
  ocr?: { repaired: boolean; confidence: number | null };
}

/** A plus sign of a grade read as a 4 or a t by OCR ("S(++4)"), after at least one plus read right. */
const PLUS_MISREAD = /(?<=\(\++)[4t]+(?=\)$)/;

/** Measured on a real culture report scanned at 200 dpi: dashes 2-3 pt wide, the name's letters 4.5. */
const DASH_SHARE_OF_LETTER = 0.7;

/**
 * A scan's dash in an empty column read as a character or two ("a", "is", "2"): a mark narrower than
 * most of one of the name's letters. An MIC of one digit is a letter's width, and is kept.
 */
function isMisreadDash(cell: Cell, name: Cell): boolean {
  if (!isOcrCell(cell) || !isOcrCell(name) || !/^[\p{L}\d]{1,2}$/u.test(cell.text.trim())) return false;
  const letterWidth = (name.right - name.x) / Math.max(1, name.text.trim().length);
  return cell.right - cell.x < DASH_SHARE_OF_LETTER * letterWidth;
}

/** The interpretation a scan gives, its misread plus signs put back; null when it reads as none. */
function interpretationOf(cell: Cell): { text: string; repaired: boolean } | null {
  const text = cell.text.trim();
  if (INTERPRETATION.test(text)) return { text, repaired: false };
  if (!isOcrCell(cell)) return null;
  const plus = text.replace(PLUS_MISREAD, (marks: string) => '+'.repeat(marks.length));
  return plus !== text && INTERPRETATION.test(plus) ? { text: plus, repaired: true } : null;
}

/** Every susceptibility table of the document, page by page. */
export function readAntibiograms(pages: readonly (readonly LineView[])[]): Antibiograms {
  const out: Antibiograms = { panels: [], read: new Set(), unread: [] };
  for (const views of pages) readPage(views, out);
  return out;
}

function readPage(views: readonly LineView[], out: Antibiograms): void {
  let heading: string | null = null;
  let panel: ParsedPanel | null = null;
  let culture = false;
  let tableSeen = false;
  let lastRowView: LineView | null = null;
  for (const view of views) {
    const text = view.cells.map((cell) => cell.text.trim()).join(' ');
    const row = rowOf(view);
    if (row && heading !== null) {
      if (!panel) {
        panel = { panelName: heading, pageNumber: view.pageNumber, rows: [] };
        out.panels.push(panel);
        tableSeen = true;
      }
      panel.rows.push(...rowsOf(row, view));
      out.read.add(view);
      lastRowView = view;
      continue;
    }
    const last = panel?.rows.filter((r) => !r.biomarker.endsWith(' MIC')).at(-1);
    if (last && lastRowView && isNameTail(view, lastRowView)) {
      last.biomarker = `${last.biomarker} ${text}`;
      out.read.add(view);
      continue;
    }
    // A line that is no row closes a table that has begun; a heading opens the next.
    if (panel) {
      panel = null;
      heading = null;
    }
    if (/\bculture\b/i.test(text)) culture = true;
    if (SECTION.test(text) && view.cells.length <= 3) heading = text;
    // An antibiotic's line after its table closed (a layout this reader does not follow): seen, not read.
    else if (row && tableSeen) out.unread.push(view);
    else if (culture && isFinding(view)) out.unread.push(view);
  }
}

/**
 * The rest of an antibiotic's name wrapped onto the next line: one short cell of words in the name column,
 * at line spacing under its row (a note after the table stands further off).
 */
function isNameTail(view: LineView, row: LineView): boolean {
  const [only] = view.cells;
  const [name, next] = row.cells;
  if (view.cells.length !== 1 || !only || !name) return false;
  const text = only.text.trim();
  const font = row.font ?? view.font ?? 10;
  return (
    /^[A-Za-z/(][A-Za-z/()\s-]*$/.test(text) &&
    text.split(/\s+/).length <= 3 &&
    !SECTION.test(text) &&
    view.y - row.y <= 1.5 * font &&
    only.x >= name.x - 2 &&
    (next === undefined || only.x < next.x)
  );
}

/** An antibiotic's line: its name, then its interpretation, with an MIC before or after and dashes. */
function rowOf(view: LineView): Row | null {
  const cells = view.cells.filter((cell) => cell.text.trim() !== '');
  const texts = cells.map((cell) => cell.text.trim());
  const readings = cells.map(interpretationOf);
  const at = readings.findIndex((reading) => reading !== null);
  const interpretation = readings[at];
  if (at < 1 || !interpretation) return null;
  const before = texts.slice(0, at);
  const after = cells.slice(at + 1);
  let mic: string | null = null;
  const last = before[before.length - 1] as string;
  if (before.length >= 2 && MIC.test(last)) mic = before.pop() as string;
  for (const cell of after) {
    const text = cell.text.trim();
    if (PLACEHOLDER.test(text) || isMisreadDash(cell, cells[0] as Cell)) continue;
    if (mic === null && MIC.test(text)) mic = text;
    else return null;
  }
  const name = before.join(' ').replace(/\s+/g, ' ');
  if (!/^[A-Za-z]/.test(name) || before.some((text) => MIC.test(text))) return null;
  const row: Row = { name, interpretation: interpretation.text, mic };
  const scanned = cells.filter(isOcrCell);
  if (scanned.length === 0) return row;
  const confidence = Math.min(...scanned.map((cell) => cell.confidence ?? 100));
  return { ...row, ocr: { repaired: interpretation.repaired, confidence } };
}

/** The interpretation as the row's result; an MIC printed beside it as a row of its own. */
function rowsOf(row: Row, view: LineView): ParsedRow[] {
  const base = { resultUnit: null, referenceRangeText: null, flag: null, pageNumber: view.pageNumber };
  const bbox = view.cells.length > 0 ? { bbox: lineBox(view) } : {};
  const ocr = row.ocr ? { ocr: row.ocr } : {};
  const rows: ParsedRow[] = [
    { ...base, ...bbox, ...ocr, biomarker: row.name, resultValue: row.interpretation },
  ];
  if (row.mic !== null) {
    const micOcr = row.ocr ? { ocr: { ...row.ocr, repaired: false } } : {};
    rows.push({ ...base, ...bbox, ...micOcr, biomarker: `${row.name} MIC`, resultValue: row.mic });
  }
  return rows;
}

function isFinding(view: LineView): boolean {
  const [label, ...rest] = view.cells.map((cell) => cell.text.trim());
  return label !== undefined && FINDING_LABEL.test(label) && FINDING_WORDS.test(rest.join(' '));
}
