/**
 * The table walk: the read lines of every page, in order, become result rows grouped into panels. One
 * current panel is kept across page breaks, so a panel continued on the next page stays one panel.
 *
 * Lines are told apart by layout, the way a reader does: a row has a name and a value; a heading starts
 * at the heading indent; a wrapped name follows its row at row spacing; a name printed on its own line
 * with its value on the next, one indent in, is one row; anything else (comments, footnotes, sub-headings,
 * interpretive tables) is read past.
 */

import { matchLoinc } from '../../../terminology/loinc-match.js';
import type { ParsedPanel, ParsedRow, ValidationFlag } from '../../types.js';
import { isSexRange, isSexRanges } from '../results/ranges.js';
import { cellKind } from './cell-kind.js';
import { withoutNameFlag } from './doubts.js';
import { COLUMN_SLACK, isColumnLabel } from './header.js';
import { isOcrCell } from './ocr-cells.js';
import { joinsUnit } from './ocr-units.js';
import { lineBox, unionBox } from './row-box.js';
import { readsAsRange } from './row-reader.js';
import type { TableLine } from './table-lines.js';
import { measureTable, type TableMetrics } from './table-metrics.js';
import { sharesWord } from './words.js';

export interface WalkResult {
  panels: ParsedPanel[];
  /** The lines each row was read from, to tell read lines from unread ones. */
  readLines: Set<TableLine>;
  /**
   * Rows read without a header of known words (strict mode, or inferred columns), which may repeat a row
   * of a table: a graphical summary page, say.
   */
  strictRows: Set<ParsedRow>;
  validationFlags: ValidationFlag[];
}

/**
 * A label of the patient block ("Patient's Name", "Ref. By", "Age / Sex"), whose value OCR lost or a box
 * redacted: no panel heading and no test starts so, and neither a panel nor a row may be named after the
 * person's details (a redacted "Reporting Date 22/04" beside "Ref. Dr..." was once read as a row).
 */
const PATIENT_BLOCK =
  /^(?:patient|pt\.?\s|name\s*[:.]?$|ref(?:\.|erred\b)|(?:age|sex|gender)\s*(?:[/:.]|$)|d\.?o\.?b\b)/i;
/** The document's own title set over a table ("Test Report", "Laboratory Results"): no panel's name. */
const DOCUMENT_TITLE = /^(?:(?:test|lab|laboratory|final|patient|investigation)\s+)?(?:reports?|results?)$/i;

/** "(Cont.)", "(Continued)", "- continued" after a panel heading repeated on the next page. */
const CONTINUED = /\s*(\((cont\.?|continued)\)|-\s*continued)\s*$/i;
/** A value that points elsewhere ("See below:", "See note") heads sub-results; it is no result. */
const POINTER_VALUE = /^see\s+(below|note|comment|report)/i;
const HEADING_MAX_LENGTH = 80;
/** A wrapped name is the tail of a name cut at the column edge: short, and indented at most about an em. */
const WRAP_MAX_LENGTH = 40;
const WRAP_MAX_INDENT_EM = 1.6;
const DEFAULT_FONT = 9;
const FONT_TOLERANCE = 0.3;
/** Lines further apart than this many row pitches are not one row, nor a row and its wrapped name. */
const NEAR_PITCHES = 1.3;
/** Words that name categories of interpretive tables, never tests on their own. */
const BAND_WORDS =
  /^(low|high|moderate|optimal|borderline|desirable|average|normal|abnormal|negative|positive|equivocal|very high|above optimal|borderline-high|near optimal|reactive|non reactive)$/i;

interface WalkState {
  panels: ParsedPanel[];
  current: ParsedPanel | null;
  lastRow: ParsedRow | null;
  /** The line that ended the last row (itself or its wrapped name), for wrap detection. */
  lastRowLine: TableLine | null;
  lastRowX: number;
  /** The last heading, while the lines after it may still wrap it. */
  lastHeading: TableLine | null;
  headingSeenOnPage: boolean;
  read: Set<TableLine>;
  strictRows: Set<ParsedRow>;
  flags: ValidationFlag[];
  /** The document prints a method note in parentheses under its rows: such a line is no wrapped name. */
  methodNotes: boolean;
  /** A label line left unread just now: the heading of the first rows when no panel is open yet. */
  loneLabel: TableLine | null;
}

/** A line wholly in parentheses: "(Photometry)", "(IFCC without P5P)", "(Calculated)". */
const PARENTHESISED = /^\([^()]*\)$/;
/** List bullets, printed where a value would be. */
const BULLET = /^[·•●▪◦‣∙]+$/u;
/** A note of how a test was done, printed under its name ("Method Derived from RBC Histogram"). */
const METHOD_LINE = /^method(?:ology)?\b/i;
/** A line that opens a comment under a row ("Rh TYPE ... / Comment"): the note's label, not the name's tail. */
const SECTION_LABEL = /^(?:comments?|notes?|remarks?|interpretation|impression)$/i;
/**
 * Assay methods laboratories name in parentheses under a test ("(Hexokinase)", "(Real Time PCR)", "(BCG)"):
 * such a line is a method note even where the document prints too few rows to show the habit.
 */
const METHOD_WORDS =
  /\b(?:pcr|real[- ]time|hexokinase|elisa|clia|cmia|eclia|immunoassay|immunoturbidimetr\w*|turbidimetr\w*|nephelometr\w*|photometr\w*|spectrophotometr\w*|colorimetr\w*|enzymatic|hplc|ise|flow cytometry|electrophoresis|chemiluminescen\w*|ifcc|jaffe|god[- ]pod|gpo|biuret|bcg|bcp|uricase|diazo|impedance)\b/i;
/** Rows with a parenthesised line right under them that make a document's habit of method notes. */
const METHOD_NOTE_ROWS = 3;

/** A note under a row: a `Label: value` line alone ("Sample: Whole Blood EDTA") or a method line. */
function isNoteLine(line: TableLine): boolean {
  if (line.value !== null || line.range !== null || line.unit !== null) return false;
  const text = line.view.cells.map((cell) => cell.text.trim()).join(' ');
  return cellKind(text) === 'label' || METHOD_LINE.test(text);
}

/** A line wholly in parentheses that names a method, or any such line where the document makes a habit of them. */
function isMethodNote(text: string, state: WalkState): boolean {
  return PARENTHESISED.test(text) && (state.methodNotes || METHOD_WORDS.test(text));
}

/** Text closed by a parenthesis it never opened: "Calculated)", "Electrical Impedence)". */
const CLOSED_ONLY = /^[^()]+\)$/;

/**
 * A line wholly in parentheses under the name `above`. A scan loses the opening parenthesis of a note set
 * small under its row ("Calculated)"): on an OCR'd line that is still one, unless the name above left a
 * parenthesis open, when the line is that name's tail ("eGFR (non-African" over "American)").
 */
function parenthesisedUnder(line: TableLine, above: string): string | null {
  const text = line.name.trim();
  if (PARENTHESISED.test(text)) return text;
  if (!CLOSED_ONLY.test(text) || !line.view.cells.every(isOcrCell)) return null;
  return count(above, '(') > count(above, ')') ? null : `(${text}`;
}

/** isMethodNote of a table line, under the last row read. */
function isMethodNoteLine(line: TableLine, state: WalkState): boolean {
  const text = parenthesisedUnder(line, state.lastRow?.biomarker ?? '');
  return text !== null && isMethodNote(text, state);
}

const count = (text: string, char: string): number => text.split(char).length - 1;

/**
 * Whether the document puts a method in parentheses under its rows (Indian reference laboratories): a
 * wrapped name may end in a parenthesised abbreviation once, but not under row after row.
 */
function printsMethodNotes(lines: readonly TableLine[]): boolean {
  let notes = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as TableLine;
    const above = lines[i - 1] as TableLine;
    if (
      isNameOnly(line) &&
      parenthesisedUnder(line, above.name) !== null &&
      isRowLine(above) &&
      above.view.pageNumber === line.view.pageNumber
    )
      notes++;
  }
  return notes >= METHOD_NOTE_ROWS;
}

export function walkTable(lines: readonly TableLine[]): WalkResult {
  const metrics = measureTable(lines, isRowLine);
  const state: WalkState = {
    panels: [],
    current: null,
    lastRow: null,
    lastRowLine: null,
    lastRowX: 0,
    lastHeading: null,
    headingSeenOnPage: false,
    read: new Set(),
    strictRows: new Set(),
    flags: [],
    methodNotes: printsMethodNotes(lines),
    loneLabel: null,
  };
  let page = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as TableLine;
    if (line.view.pageNumber !== page) {
      page = line.view.pageNumber;
      state.headingSeenOnPage = false;
      state.lastRowLine = null;
      state.lastHeading = null;
    }
    i += readAt(lines, i, metrics, state);
  }
  return {
    panels: state.panels.filter((panel) => panel.rows.length > 0),
    readLines: state.read,
    strictRows: state.strictRows,
    validationFlags: state.flags,
  };
}

/** Reads the line at i (and any it joins with); returns how many following lines it consumed. */
function readAt(lines: readonly TableLine[], i: number, metrics: TableMetrics, state: WalkState): number {
  const line = lines[i] as TableLine;
  const loneLabel = state.loneLabel;
  state.loneLabel = null;
  if (line.header?.riskSummary) return 0;
  if (isRowLine(line) && atRowIndent(line, metrics)) {
    if (!state.current && loneLabel && isHeadingOfFirstRow(loneLabel, line, metrics))
      startPanel(loneLabel.name, loneLabel.view.pageNumber, state);
    const fragment = unitFragmentBelow(line, lines[i + 1], metrics);
    addRow(fragment ? { ...line, unit: `${line.unit}${fragment}` } : line, line.name, metrics, state);
    if (line.range === null && state.lastRow && opensRangeBlock(lines[i + 1]))
      state.lastRow.rangeBlockBelow = true;
    return 0;
  }
  if (line.strict) {
    if (isNameOnly(line) && CONTINUED.test(line.name)) readNameOnly(line, metrics, state);
    return 0;
  }
  const next = lines[i + 1];
  if (isNameOnly(line)) {
    if (next && !isMethodNoteLine(line, state) && isNameThenValues(lines, i, metrics)) {
      addRow(line, line.name, metrics, state, next);
      return 1;
    }
    if (next && isSplitRow(lines, i, metrics)) {
      addRow(line, `${line.name} ${next.name}`, metrics, state, next);
      return 1;
    }
    readNameOnly(line, metrics, state);
    return 0;
  }
  if (isWrappedValue(line, metrics, state)) {
    continueValue(line, state);
    return 0;
  }
  if (isNextSexRange(line, metrics, state)) {
    continueRange(line, state);
    return 0;
  }
  state.lastHeading = null;
  if (line.name === '' && line.value !== null && !line.bands && isUnnamedRow(line, metrics)) {
    state.flags.push(withoutNameFlag(line.view.pageNumber));
  }
  if (isMissingValueRow(line, metrics)) addRow(line, line.name, metrics, state);
  return 0;
}

/**
 * `Female : 12.0 - 15.0` alone on the line under `Haemoglobin ... Male : 13.0 - 17.0`: the next sex's range
 * of the row above, part of its range text.
 */
function isNextSexRange(line: TableLine, metrics: TableMetrics, state: WalkState): boolean {
  const above = state.lastRowLine;
  const row = state.lastRow;
  if (!above || !row || line.name !== '' || line.value !== null || !isSexRange(line.range)) return false;
  if (!isSexRanges(row.referenceRangeText)) return false;
  return (
    above.view.pageNumber === line.view.pageNumber &&
    line.view.y - above.view.y <= metrics.rowPitch * NEAR_PITCHES
  );
}

function continueRange(line: TableLine, state: WalkState): void {
  const row = state.lastRow as ParsedRow;
  row.referenceRangeText = `${row.referenceRangeText} ${line.range}`;
  if (row.bbox && line.view.cells.length > 0) row.bbox = unionBox(row.bbox, lineBox(line.view));
  state.lastRowLine = line;
  state.read.add(line);
}

/** `Reference Range:` alone on its line: the ranges of the row above follow, one per line (Quest's estradiol). */
const RANGE_BLOCK_LABEL = /^reference\s+(?:range|interval)s?\s*:?$/i;

function opensRangeBlock(next: TableLine | undefined): boolean {
  const text = next?.view.cells.map((cell) => cell.text.trim()).join(' ') ?? '';
  return RANGE_BLOCK_LABEL.test(text);
}

/** A unit's wrapped tail is a letter or two, or a power's digit ("m" of "cells/cumm", "^3"). */
const UNIT_FRAGMENT = /^(?:[a-z]{1,2}|\^?\d)$/i;

/**
 * The end of an OCR'd row's unit wrapped onto the next line, alone in the unit column there (no value, no
 * range; a method note may share the line): taken when the two make a known unit and the first alone does
 * not.
 */
function unitFragmentBelow(
  line: TableLine,
  next: TableLine | undefined,
  metrics: TableMetrics,
): string | null {
  if (!next || line.unit === null || line.ocrConfidence === null || next.unit === null) return null;
  if (next.value !== null || next.range !== null || next.view.pageNumber !== line.view.pageNumber)
    return null;
  if (next.view.y - line.view.y > NEAR_PITCHES * metrics.rowPitch) return null;
  const fragment = next.unit.trim();
  return UNIT_FRAGMENT.test(fragment) && joinsUnit(line.unit, fragment) ? fragment : null;
}

export function isRowLine(line: TableLine): boolean {
  if (line.value === null || line.bands || line.doubtfulText || !isTestName(line.name)) return false;
  if (PATIENT_BLOCK.test(line.name)) return false;
  if (line.header?.riskSummary) return false;
  return !(POINTER_VALUE.test(line.value) && line.unit === null && line.range === null);
}

/**
 * A row with neither unit nor range has only its position to show it is a result: it must sit at the
 * result indent. Further in, "Normal to Mildly increased  <30" is a line of an interpretive table.
 */
function atRowIndent(line: TableLine, metrics: TableMetrics): boolean {
  if (line.unit !== null || line.range !== null || line.nameX === null) return true;
  return line.nameX <= metrics.rowX + WRAP_MAX_INDENT_EM * emOf(metrics);
}

/** A name as tests are named: letters, not a label, a sentence, a flag or a band category. */
function isTestName(name: string): boolean {
  if (name === '' || name.length > HEADING_MAX_LENGTH || /[:;]$/.test(name)) return false;
  // "Desirable ≥ 40": a band of an interpretive table, not a test.
  if (/[<>≤≥]\s*\d/.test(name)) return false;
  // A sentence (several words ending in a full stop) is a comment; "Estim. Avg Glu" is not.
  if (/\.$/.test(name) && name.split(/\s+/).length > 4) return false;
  if ((name.match(/[A-Za-z]/g) ?? []).length < 2) return false;
  // "Reference Range  <75" under a result is the range restated, not a test.
  if (isColumnLabel(name)) return false;
  return !BAND_WORDS.test(name.trim());
}

function isNameOnly(line: TableLine): boolean {
  return line.name !== '' && line.value === null && line.range === null && line.unit === null;
}

/** A row with a range but no value printed ("ALBUMIN ... 3.6-5.1 g/dL"): kept, and flagged. */
function isMissingValueRow(line: TableLine, metrics: TableMetrics): boolean {
  if (line.strict || line.value !== null || line.bands || line.range === null) return false;
  if (!readsAsRange(line.range)) return false;
  if (!isTestName(line.name) || line.nameX === null || PATIENT_BLOCK.test(line.name)) return false;
  return Math.abs(line.nameX - metrics.rowX) <= COLUMN_SLACK;
}

/** A value with nothing in the name column, at the row indent's level: a row whose name is missing. */
function isUnnamedRow(line: TableLine, metrics: TableMetrics): boolean {
  const first = line.view.cells[0];
  const header = line.header;
  if (!first || !header) return false;
  const inResultColumn = first.x >= header.dataStart && first.x < header.dataStart + 3 * emOf(metrics);
  return inResultColumn && (line.range !== null || line.unit !== null);
}

/**
 * A name whose values are printed one line lower (Labcorp sets them on the next baseline). At the heading
 * indent it is a single test printed as its own panel, unless rows follow it: then it is a panel heading
 * over a row that lost its name.
 */
function isNameThenValues(lines: readonly TableLine[], i: number, metrics: TableMetrics): boolean {
  const line = lines[i] as TableLine;
  const next = lines[i + 1];
  if (next === undefined || next.name !== '' || next.value === null || next.bands) return false;
  // A bulleted list under a label ("Decreased Levels" over "· Dietary deficiency"): the bullet is no value.
  if (BULLET.test(next.value.trim())) return false;
  if (next.view.pageNumber !== line.view.pageNumber || line.nameX === null) return false;
  if (!isTestName(line.name) || (next.range === null && next.unit === null)) return false;
  if (next.view.y - line.view.y > NEAR_PITCHES * metrics.rowPitch) return false;
  if (Math.abs(line.nameX - metrics.rowX) <= COLUMN_SLACK) return true;
  const after = lines[i + 2];
  return (
    isHeadingLevelRow(line, metrics) &&
    !(after && isRowLine(after) && after.nameX !== null && after.nameX > line.nameX + COLUMN_SLACK)
  );
}

/**
 * A long name printed on its own line, its last word(s) and the values one indent in on the next (Quest:
 * "THYROID PEROXIDASE" / "ANTIBODIES 225 H <9 IU/mL"). A panel heading over a single row looks alike, so
 * the tail must be the only row under the name and share no word with it ("PSA (FREE AND TOTAL)" over
 * "PSA, TOTAL" is a heading).
 */
function isSplitRow(lines: readonly TableLine[], i: number, metrics: TableMetrics): boolean {
  const head = lines[i] as TableLine;
  const tail = lines[i + 1];
  if (!tail || !isRowLine(tail) || head.nameX === null || tail.nameX === null) return false;
  if (tail.view.pageNumber !== head.view.pageNumber || head.view.raised.length > 0) return false;
  if (tail.view.y - head.view.y > NEAR_PITCHES * metrics.rowPitch) return false;
  if (tail.nameX <= head.nameX + COLUMN_SLACK / 2 && !isUnfinishedName(head.name)) return false;
  if (sharesWord(head.name, tail.name, 2) || /[:;.]$/.test(head.name)) return false;
  // A heading over a single test prints no site code of its own; a name split from its values does.
  if (!head.labCode && isHeadingLevelRow(head, metrics)) return false;
  // The line after the tail, past the notes printed under it ("Sample: ...", "Method: ..."): another row
  // at the tail's indent makes the name a heading over rows.
  const after = lines.slice(i + 2).find((line) => !isNoteLine(line));
  const onlyRow =
    !after ||
    after.view.pageNumber !== head.view.pageNumber ||
    (after.nameX !== null && after.nameX <= head.nameX + COLUMN_SLACK) ||
    !isRowLine(after);
  return onlyRow;
}

/**
 * A name that cannot end where its line does: a parenthesis left open ("Vitamin E(Gamma") or a trailing
 * comma or joiner ("Sex Horm Binding Glob,"). Labcorp wraps such names at the row's own indent, the
 * rest of the name on the line of the values.
 */
function isUnfinishedName(name: string): boolean {
  const opened = (name.match(/\(/g) ?? []).length > (name.match(/\)/g) ?? []).length;
  return opened || /[,/&-]$/.test(name.trim());
}

function readNameOnly(line: TableLine, metrics: TableMetrics, state: WalkState): void {
  const text = line.name;
  if (isWrappedName(line, metrics, state)) {
    continueName(text, line, state);
    return;
  }
  state.lastRowLine = null;
  // A method note under a row is neither a heading nor a name: the row above stays in its panel.
  if (isMethodNoteLine(line, state)) return;
  if (isHeadingWrap(line, metrics, state)) {
    const panel = state.current;
    if (panel && panel.rows.length === 0) panel.panelName = `${panel.panelName} ${text}`;
    state.lastHeading = line;
    return;
  }
  state.lastHeading = null;
  if (
    isHeading(line, metrics) ||
    (line.headsTable && !PATIENT_BLOCK.test(text) && !DOCUMENT_TITLE.test(text))
  ) {
    startPanel(text, line.view.pageNumber, state);
    state.lastHeading = line;
  } else state.loneLabel = line;
}

/**
 * A label just above the document's first row, at the rows' indent or left of it, that the font did not
 * make a heading (set a little smaller than the rows): it heads them, rather than the first row's name.
 */
function isHeadingOfFirstRow(label: TableLine, row: TableLine, metrics: TableMetrics): boolean {
  if (label.nameX === null || row.nameX === null || label.view.pageNumber !== row.view.pageNumber)
    return false;
  if (label.nameX > row.nameX + COLUMN_SLACK || label.pointer || label.view.raised.length > 0) return false;
  if (label.name.length > HEADING_MAX_LENGTH || /[.:;]$/.test(label.name) || PATIENT_BLOCK.test(label.name))
    return false;
  return row.view.y - label.view.y <= 2 * NEAR_PITCHES * metrics.rowPitch;
}

function addRow(
  line: TableLine,
  biomarker: string,
  metrics: TableMetrics,
  state: WalkState,
  partner?: TableLine,
): void {
  const source = partner && partner.value !== null ? partner : line;
  const row: ParsedRow = {
    biomarker: biomarker.replace(/\s+/g, ' ').trim(),
    resultValue: source.value,
    resultUnit: source.unit,
    referenceRangeText: source.range,
    flag: source.flag,
    pageNumber: line.view.pageNumber,
    ...boxOf(line, partner),
    ...(source.ocrConfidence !== null || source.ocrRepaired
      ? { ocr: { repaired: source.ocrRepaired, confidence: source.ocrConfidence } }
      : {}),
  };
  if (isHeadingLevelRow(line, metrics) || !state.current) {
    // A test printed at the heading indent is a panel of its own (Quest's single-test panels).
    state.current = {
      panelName: row.biomarker,
      pageNumber: row.pageNumber,
      rows: [],
      ...(isHeadingLevelRow(line, metrics) ? {} : { untitled: true }),
    };
    state.panels.push(state.current);
  }
  state.current.rows.push(row);
  state.lastRow = row;
  const last = partner && partner.view.y > line.view.y ? partner : line;
  state.lastRowLine = last;
  state.lastRowX = line.nameX ?? metrics.rowX;
  state.lastHeading = null;
  state.read.add(line);
  if (partner) state.read.add(partner);
  if (line.strict || line.inferred) state.strictRows.add(row);
}

/** The box of the line a row was read from, with its partner line (a name split from its value). */
function boxOf(line: TableLine, partner?: TableLine): Pick<ParsedRow, 'bbox'> {
  if (line.view.cells.length === 0) return {};
  const box = lineBox(line.view);
  return { bbox: partner && partner.view.cells.length > 0 ? unionBox(box, lineBox(partner.view)) : box };
}

/** Appends a wrapped name's tail to its row, and to the panel the row makes on its own, if it does. */
function continueName(tail: string, line: TableLine, state: WalkState): void {
  const row = state.lastRow;
  if (!row) return;
  const panel = state.current;
  if (panel?.rows.length === 1 && panel.rows[0] === row && panel.panelName === row.biomarker) {
    panel.panelName = `${panel.panelName} ${tail}`;
  }
  row.biomarker = `${row.biomarker} ${tail}`;
  if (row.bbox && line.view.cells.length > 0) row.bbox = unionBox(row.bbox, lineBox(line.view));
  state.lastRowLine = line;
  state.read.add(line);
}

/** A result in words: letters only ("Normocytic", "Adequate"), no number a wrapped line could belong to. */
const WORDS = /^\p{L}+(?: \p{L}+){0,2}$/u;

/**
 * "Normocytic" / "Normochromic": a result in words too long for its column, wrapped onto the next line
 * under its first word. The line has nothing else (no name, unit or range), lies closer than a row below,
 * and starts where the row's value does; the row's value is words too.
 */
function isWrappedValue(line: TableLine, metrics: TableMetrics, state: WalkState): boolean {
  const row = state.lastRow;
  const above = state.lastRowLine;
  if (!row || !above || line.name !== '' || line.value === null || line.unit !== null) return false;
  if (line.range !== null || line.flag !== null || above.view.pageNumber !== line.view.pageNumber)
    return false;
  if (line.view.y - above.view.y > metrics.rowPitch * NEAR_PITCHES) return false;
  if (row.resultUnit !== null || row.referenceRangeText !== null) return false;
  if (!WORDS.test(line.value.trim()) || !WORDS.test(row.resultValue?.trim() ?? '')) return false;
  const valueCell = above.view.cells.find((cell) => cell.text.trim() === row.resultValue?.trim());
  const first = line.view.cells[0];
  return !!valueCell && !!first && Math.abs(first.x - valueCell.x) <= 2 * COLUMN_SLACK;
}

function continueValue(line: TableLine, state: WalkState): void {
  const row = state.lastRow as ParsedRow;
  row.resultValue = `${row.resultValue} ${(line.value as string).trim()}`;
  if (row.bbox && line.view.cells.length > 0) row.bbox = unionBox(row.bbox, lineBox(line.view));
  state.lastRowLine = line;
  state.read.add(line);
}

/** Rows indented under their panels make a row at the heading indent a panel of its own. */
function isHeadingLevelRow(line: TableLine, metrics: TableMetrics): boolean {
  if (metrics.headingX === null || line.nameX === null) return false;
  return line.nameX <= metrics.headingX + COLUMN_SLACK;
}

/**
 * A wrapped name continues its row at row spacing, at most one small indent in, as a fragment: comments
 * under a row are indented further or read as sentences ("Please Note:", "... use race."). A name that
 * ends in a raised mark (Labcorp's "01") was complete, so the line under it is no tail of it.
 */
function isWrappedName(line: TableLine, metrics: TableMetrics, state: WalkState): boolean {
  const previous = state.lastRowLine;
  if (!previous || !state.lastRow || previous.view.pageNumber !== line.view.pageNumber) return false;
  if (line.view.y - previous.view.y > metrics.rowPitch * NEAR_PITCHES) return false;
  if (previous.view.raised.length > 0 && previous.name !== '') return false;
  const indent = (line.nameX ?? 0) - state.lastRowX;
  if (indent < -COLUMN_SLACK || indent > WRAP_MAX_INDENT_EM * emOf(metrics)) return false;
  if (line.name.length > WRAP_MAX_LENGTH || /[.:;]$/.test(line.name) || line.labCode) return false;
  if (isHeadingLevelRow(line, metrics) && metrics.headingX !== null) return false;
  if (CONTINUED.test(line.name) || line.pointer) return false;
  const name = line.name.trim();
  if (isMethodNoteLine(line, state)) return false;
  if (METHOD_LINE.test(name) || SECTION_LABEL.test(name)) return false;
  const phrase = isTitlePhrase(name) || isCapitalsPhrase(name);
  const above = state.lastRow.biomarker;
  if (phrase && /[a-z]/.test(above) && !completesName(above, name) && !closesBracket(above, name)) {
    return false;
  }
  return sameFont(line.view.font, metrics.rowFont);
}

/** "APTT (Activated Partial" / "Thromboplastin Time)": the tail closes the bracket the name left open. */
function closesBracket(name: string, tail: string): boolean {
  const open = (text: string) => (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
  return open(name) > 0 && open(`${name} ${tail}`) === 0;
}

/**
 * "Mean Corpuscular Haemoglobin" / "Concentration (MCHC)": a tail that looks like a heading but, joined to
 * the name above, names another test the catalogue knows, and nothing alone. Cut there, the row was filed
 * under the shorter name's test (MCH for MCHC).
 */
function completesName(name: string, tail: string): boolean {
  const whole = matchLoinc(`${name} ${tail}`).loincCode;
  return whole !== null && matchLoinc(tail).loincCode === null && matchLoinc(name).loincCode !== whole;
}

/**
 * "Insulin Resistance Score" under "LDL Size": words that each start a capital, several of them, under a
 * mixed-case name, open a new group; the tail of a wrapped name is a fragment ("renal)", "Globulin").
 */
function isTitlePhrase(text: string): boolean {
  const words = text.split(/\s+/);
  return words.length >= 2 && words.every((word) => /^[A-Z(]/.test(word)) && /[a-z]/.test(text);
}

/**
 * "DIFFERENTIAL COUNT" under "Total W. B. C.": words in capitals under a mixed-case name are a group's
 * heading set in capitals, not the name's tail, which keeps the name's case.
 */
function isCapitalsPhrase(text: string): boolean {
  const words = text.split(/\s+/);
  return words.length >= 2 && words.every((word) => /^[A-Z][A-Z()&/-]+$/.test(word));
}

/**
 * The second line of a heading too long for one ("COMPREHENSIVE METABOLIC" / "PANEL"). Quest sets its
 * headings in capitals and wraps the long ones; a mixed-case line under a heading ("NMR LipoProfile" /
 * "LDL Particle Number") is a sub-heading, and a line with a code or mark of its own is complete.
 */
function isHeadingWrap(line: TableLine, metrics: TableMetrics, state: WalkState): boolean {
  const heading = state.lastHeading;
  if (!heading || heading.nameX === null || line.nameX === null) return false;
  if (/[a-z]/.test(heading.name + line.name) || line.labCode || line.view.raised.length > 0) return false;
  if (heading.view.pageNumber !== line.view.pageNumber) return false;
  if (line.view.y - heading.view.y > metrics.rowPitch * NEAR_PITCHES) return false;
  const indent = line.nameX - heading.nameX;
  return indent > 0 && indent <= WRAP_MAX_INDENT_EM * emOf(metrics) && line.name.length <= WRAP_MAX_LENGTH;
}

/**
 * A panel heading: a short label at the heading indent. A label followed by "See below:" introduces rows
 * of the panel it is in; a label with a raised mark (Labcorp's "01"), or with a site code where headings
 * and rows share one indent, is a sub-heading of tests performed together, not a new panel.
 */
function isHeading(line: TableLine, metrics: TableMetrics): boolean {
  if (line.nameX === null || line.pointer || line.view.raised.length > 0) return false;
  if (line.labCode && metrics.headingX === null) return false;
  const level = metrics.headingX ?? metrics.rowX;
  if (line.nameX > level + COLUMN_SLACK) return false;
  const text = line.name;
  if (text.length > HEADING_MAX_LENGTH || /[.:;]$/.test(text) || PATIENT_BLOCK.test(text)) return false;
  const font = line.view.font;
  const rowFont = metrics.pageRowFont.get(line.view.pageNumber) ?? metrics.rowFont;
  return font === null || rowFont === null || font >= rowFont - FONT_TOLERANCE;
}

function startPanel(heading: string, pageNumber: number, state: WalkState): void {
  const continued = CONTINUED.test(heading);
  const panelName = heading.replace(CONTINUED, '').trim();
  const last = state.panels.at(-1);
  const resumes =
    last !== undefined &&
    last.pageNumber < pageNumber &&
    sameName(last.panelName, panelName) &&
    (continued || !state.headingSeenOnPage);
  state.headingSeenOnPage = true;
  if (resumes && last) {
    state.current = last;
    return;
  }
  state.current = { panelName, pageNumber, rows: [] };
  state.panels.push(state.current);
}

function emOf(metrics: TableMetrics): number {
  return metrics.rowFont ?? DEFAULT_FONT;
}

function sameFont(font: number | null, rowFont: number | null): boolean {
  return font === null || rowFont === null || Math.abs(font - rowFont) <= FONT_TOLERANCE;
}

function sameName(a: string, b: string): boolean {
  const key = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return key(a) === key(b);
}
