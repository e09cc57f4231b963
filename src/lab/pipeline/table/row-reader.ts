/**
 * One line of a results table read into its parts: the test name, the value, flag, unit and reference
 * range. Each cell is judged by what it holds (cell-kind.ts) and, where its text alone cannot say (a bare
 * number may be a result, a previous result or a bound; a word may be a result or a range), by the column
 * the header puts it in. Without a header, cells are read in the order labs print them: name, value,
 * flag, unit, range.
 */
import type { Cell } from '../pdf/layout.js';
import { isPercentRange } from '../results/ranges.js';
import {
  type CellKind,
  cellKind,
  GENOTYPE,
  isRangeKind,
  isUnit,
  isValueKind,
  QUALITATIVE,
  splitValueUnit,
  startsName,
} from './cell-kind.js';
import { flagText, isFlag, splitFlag } from './flags.js';
import type { ColumnRole, TableHeader } from './header.js';
import type { LineView } from './line.js';
import { columnOf, inNameSpan, isOcrCell, SPECK_IN_UNIT, withoutSpeckMarks } from './ocr-cells.js';
import { splitRangeAndUnit, splitUnitAndRange } from './range-unit.js';

export interface LineRead {
  view: LineView;
  /** The name column's text ('' when the line starts in a result column). */
  name: string;
  /** x where the name starts; null when there is no name. */
  nameX: number | null;
  value: string | null;
  flag: string | null;
  unit: string | null;
  range: string | null;
  /** A performing-site code printed in the Lab column. */
  labCode: boolean;
  /** "See below:", "See note": the results follow under this name, which heads no panel. */
  pointer: boolean;
  /**
   * Two ranges or more side by side (risk bands, percentile scales), or several cells that are neither
   * result, flag, unit nor range: a row of an interpretive table.
   */
  bands: boolean;
  /** The value is words that do not read as a result ("Percentile in Reference Population", "75th"). */
  doubtfulText: boolean;
  /** OCR: the value or unit was repaired from a misreading. */
  ocrRepaired: boolean;
  /** OCR: the lowest confidence of the words the value and unit were read from. */
  ocrConfidence: number | null;
}

interface Draft {
  value: string | null;
  flag: string | null;
  unit: string | null;
  range: string | null;
  ranges: number;
  labCode: boolean;
  pointer: boolean;
  unread: number;
  repaired?: boolean;
  confidence?: number;
}

export function readLine(view: LineView, header: TableHeader | null): LineRead {
  const { nameCells, dataCells } = splitName(view.cells.flatMap(flagBeforeValue), header);
  const draft: Draft = {
    value: null,
    flag: null,
    unit: null,
    range: null,
    ranges: 0,
    labCode: false,
    pointer: false,
    unread: 0,
  };
  for (const cell of dataCells) {
    readCell(cell, header ? columnOf(cell, header) : null, draft);
  }
  const name = nameCells
    .map((cell) => cell.text.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return {
    view,
    name,
    nameX: nameCells[0]?.x ?? null,
    value: draft.value,
    flag: draft.flag,
    // `40%-80%`: a range printed with the per cent sign on each bound names the unit a scan lost.
    unit: draft.unit ?? (isPercentRange(draft.range) ? '%' : null),
    range: draft.range,
    labCode: draft.labCode,
    pointer: draft.pointer,
    bands: draft.ranges >= 1 || draft.unread >= 2 || hasRiskBands(dataCells) || isCategoryRow(draft),
    doubtfulText: draft.value !== null && !plausibleValue(draft.value, draft.range, draft.unit),
    ocrRepaired: draft.repaired === true,
    ocrConfidence: draft.confidence ?? null,
  };
}

/** A flag in brackets before the value, after the name or alone: "HAEMOGLOBIN (L) 6.9", "(H) 105.0". */
const FLAG_THEN_VALUE = /^(?:(.*[\p{L})\].]) +)?\(([HL])\) *([<>]?\d[\d.,]*)$/u;

/**
 * Some laboratories print the flag in brackets before the value: set left of the result column, or a
 * space from the name, it was read as part of the name and the row had no value. Split into the name (if
 * the cell holds it), the flag and the value.
 */
function flagBeforeValue(cell: Cell): Cell[] {
  const found = FLAG_THEN_VALUE.exec(cell.text.trim());
  if (!found) return [cell];
  const [, name, flag, value] = found as unknown as [string | undefined, string, string, string];
  const { right: _, ...head } = cell;
  return [...(name ? [{ ...head, text: name }] : []), { ...cell, text: flag }, { ...cell, text: value }];
}

/**
 * A row of an interpretive table (`Deficient | < 50 | High risk for developing bone disease`): a category
 * named, its bounds where a value goes, words where the range goes, no unit. No result is an interval with
 * a sentence for its range. A text layer often draws such a table's borders in characters that keep it out
 * of the results; a scan has only the lines, and its rows were read as results.
 */
function isCategoryRow(draft: Draft): boolean {
  if (draft.unit !== null || draft.value === null || draft.range === null) return false;
  const kind = cellKind(draft.value);
  return (
    (kind === 'interval' || kind === 'bounded') && !/\d/.test(draft.range) && /\p{L}{3}/u.test(draft.range)
  );
}

/**
 * The name is the text left of the first result column. A value printed left of its column (a narrow
 * name, a wide number) is recognised by its kind once the name has started.
 */
function splitName(cells: readonly Cell[], header: TableHeader | null) {
  const nameCells: Cell[] = [];
  let i = 0;
  for (; i < cells.length; i++) {
    const cell = cells[i] as Cell;
    const kind = cellKind(cell.text);
    const inNameColumn = header ? inNameSpan(cell, header) : i === 0;
    if (!inNameColumn) break;
    if (nameCells.length > 0 && (isValueKind(kind) || kind === 'flag' || kind === 'rangeUnit')) break;
    // A word result printed left of its column ("Equivocal", "NEGATIVE"), apart from the name.
    if (nameCells.length > 0 && QUALITATIVE.test(cell.text.trim())) break;
    // "APO E Genotyping Result:  E3/E3": a labelled genotype is a result; the label is its name.
    if (kind === 'label' && nameCells.length === 0 && GENOTYPE.test(cells[i + 1]?.text.trim() ?? '')) {
      nameCells.push({ ...cell, text: cell.text.trim().replace(/\s*:$/, '') });
      continue;
    }
    if (kind === 'label' || kind === 'date') {
      // "RHEUMATOID FACTOR  Collected: 11/13/2024 ...": a section line; the label is no part of a name.
      i = cells.length;
      break;
    }
    const named = nameCells.length === 0 && isOcrCell(cell) ? withoutSpeckMarks(cell) : cell;
    if (nameCells.length === 0 && !startsName(named.text)) break;
    nameCells.push(named);
  }
  return { nameCells, dataCells: cells.slice(nameCells.length === 0 ? 0 : i) };
}

function readCell(cell: Cell, column: ColumnRole | null, draft: Draft): void {
  const text = cell.text.trim().replace(/\s+/g, ' ');
  // Data printed left of the first result column is read as a result would be.
  const role = column === 'name' ? 'value' : column;
  if (text === '') return;
  if (role === 'lab') {
    draft.labCode = true;
    return;
  }
  if (role === 'unknown') {
    draft.unread += 1;
    return;
  }
  const kind = cellKind(text);
  if (POINTER.test(text)) {
    draft.pointer = true;
    return;
  }
  if (kind === 'date' || kind === 'label') return;
  if (role === 'unit' && draft.unit === null && isOcrCell(cell) && SPECK_IN_UNIT.test(text)) {
    // A scan's unit read as a letter or digit ("a", "0" for "%"): kept as the unit, for the OCR repairs
    // to read or leave (ocr-units.ts), rather than taken for a flag the row's numbers never gave.
    draft.unit = text;
    return;
  }
  if (role === 'previous') {
    // History is never read, but a unit or range set a little left of its own column is still one.
    if (kind === 'unit' || kind === 'rangeUnit') readByKind(text, kind, 'range', draft);
    return;
  }
  const before = `${draft.value}|${draft.flag}|${draft.unit}|${draft.range}|${draft.ranges}`;
  const value = draft.value;
  const unit = draft.unit;
  const range = draft.range;
  readByKind(text, kind, role, draft);
  if (draft.value !== value || draft.unit !== unit) noteOcr(cell, draft);
  // A range whose dash was put back (split-ranges.ts) is a guess the row must own.
  else if (draft.range !== range && cell.repaired) draft.repaired = true;
  // A cell nothing took: a row with several is a table of categories ("Optimal | Borderline | High").
  if (
    role !== 'ignore' &&
    before === `${draft.value}|${draft.flag}|${draft.unit}|${draft.range}|${draft.ranges}`
  )
    draft.unread += 1;
}

function readByKind(text: string, kind: CellKind, role: ColumnRole | null, draft: Draft): void {
  switch (kind) {
    case 'flag':
      // A lone "A" where the result goes is a result (ABO group A), not the abnormal flag.
      if (text === 'A' && role === 'value' && draft.value === null) draft.value = text;
      else draft.flag ??= flagText(text);
      return;
    case 'valueFlag': {
      if (draft.value !== null) {
        addRange(text, draft);
        return;
      }
      const split = splitFlag(text);
      draft.value = split.value;
      draft.flag ??= split.flag;
      return;
    }
    case 'valueUnit': {
      const split = splitValueUnit(text);
      if (!split || draft.value !== null) {
        addRange(text, draft);
        return;
      }
      draft.value = split.value;
      draft.unit ??= split.unit;
      draft.flag ??= split.flag;
      return;
    }
    case 'rangeUnit': {
      // A bound and its unit where the result goes ("<0.2 mg/L") is the result.
      if (role === 'value' && draft.value === null) {
        const split = splitRangeAndUnit(text);
        draft.value = split.range;
        draft.unit ??= split.unit;
        return;
      }
      const split = splitRangeAndUnit(text);
      addRange(split.range, draft);
      draft.unit ??= split.unit;
      return;
    }
    case 'unit': {
      // "/HPF *A": the flag of a result printed after its unit.
      const split = splitFlag(text);
      readUnit(withoutCalc(split.flag ? (split.value ?? text) : text), draft);
      if (split.flag) draft.flag ??= split.flag;
      return;
    }
    default:
      readValueOrRange(text, kind, role, draft);
  }
}

/** A number, bound, interval or words: a result in a result column, else a range or a unit. */
function readValueOrRange(text: string, kind: CellKind, role: ColumnRole | null, draft: Draft): void {
  const resultColumn = role === 'value' || role === 'flag' || role === null;
  // An interval after the row's unit, in a column the header names as nothing read (a clipped "Refer"
  // label), is the range: the result cell was left empty or not read, and the range is no result.
  const rangeAfterUnit = kind === 'interval' && role === 'ignore' && draft.unit !== null;
  if (draft.value === null && !rangeAfterUnit && (resultColumn || (isValueKind(kind) && role !== 'range'))) {
    const glued = kind === 'text' ? splitGlued(text) : null;
    if (glued) {
      draft.value = glued.value;
      draft.flag ??= glued.flag;
      addRange(glued.range, draft);
      return;
    }
    // "None seen /hpf": a word result with its unit in one cell.
    const split = kind === 'text' ? splitRangeAndUnit(text) : null;
    if (split?.range && split.unit && QUALITATIVE.test(split.range)) {
      draft.value = split.range;
      draft.unit ??= split.unit;
      return;
    }
    draft.value = text;
    return;
  }
  if (role === 'unit' && kind === 'text') {
    // A result word one column off ("Negative" under Units) is still the result.
    if (draft.value === null && QUALITATIVE.test(text)) draft.value = text;
    else readUnit(text, draft);
    return;
  }
  if (role === 'value' && kind === 'text') {
    // A second result column holding words after the result: the reference printed a column early.
    const split = splitRangeAndUnit(text);
    addRange(split.range, draft);
    draft.unit ??= split.unit;
    return;
  }
  if (role === 'range' || role === 'unit' || role === 'ignore' || isRangeKind(kind) || role === null) {
    if (role === 'range' || role === null || isRangeKind(kind)) {
      const split = kind === 'text' ? splitRangeAndUnit(text) : { range: text, unit: null };
      addRange(split.range, draft);
      draft.unit ??= split.unit;
    }
  }
}

/** A unit cell, with the range of the next column when it ran into it (`mg/dl13.5-17.5`). */
function readUnit(text: string, draft: Draft): void {
  // `-` where a test has no unit (INR), or what a scan makes of it (`>`): a placeholder, no unit.
  if (UNIT_PLACEHOLDER.test(text)) return;
  const split = splitUnitAndRange(text);
  if (!split) {
    draft.unit ??= text;
    return;
  }
  draft.unit ??= split.unit;
  addRange(split.range, draft);
}

const UNIT_PLACEHOLDER = /^[-–—>~.]$/;

/** "g/dL (calc)": the mark of a calculated result, no part of its unit. */
const withoutCalc = (unit: string): string => unit.replace(/\s+\(calc\)$/i, '');

const POINTER = /^see\s+(below|note|comment|report)s?\b/i;

const BOUND_IN = /([<>])=?\s*(\d[\d,]*(?:\.\d+)?)/;
const INTERVAL_IN = /(\d[\d,]*(?:\.\d+)?)\s*-\s*(\d[\d,]*(?:\.\d+)?)/;
/** A bound as a scan may read it, a speck between the comparator and the number ("<$353"). */
const BOUND_LOOSE = /[<>]=?[^\d\s]?\d/;
const NOT_APPLICABLE = /^\W*n\/a\W*$/i;
const numberIn = (text: string | undefined): number => Number((text ?? '').replace(/,/g, ''));

/**
 * Three risk bands side by side, each category's bounds meeting the next's: "<150 | 150-199 | >=200",
 * "<200 | N/A | >=200" (Quest's Cardio IQ summary). Its results are drawn as graphics and printed again
 * as rows elsewhere, so a line like this is never a result, however a scan garbles the arrows around the
 * bounds ("~->219").
 */
function hasRiskBands(cells: readonly Cell[]): boolean {
  for (let i = 0; i + 2 < cells.length; i++) {
    const [a, b, c] = [cells[i], cells[i + 1], cells[i + 2]].map((cell) => cell?.text.trim() ?? '');
    if (!BOUND_LOOSE.test(c ?? '')) continue;
    const high = BOUND_IN.exec(c ?? '');
    const low = BOUND_IN.exec(a ?? '');
    if (NOT_APPLICABLE.test(b ?? '')) {
      if (low && high && numberIn(low[2]) === numberIn(high[2])) return true;
      continue;
    }
    const interval = INTERVAL_IN.exec(b ?? '');
    if (!interval) continue;
    const first = low ? numberIn(low[2]) : /^\d[\d,.]*$/.test(a ?? '') ? numberIn(a) : Number.NaN;
    if (first === numberIn(interval[1]) || (high && numberIn(high[2]) === numberIn(interval[2]))) return true;
  }
  return false;
}

/**
 * A value is a number, a bound, an interval, or words a lab reports results in. Other words count only
 * beside a unit or a range that reads like one, and never as ordinals or arrows of a scale.
 */
function plausibleValue(value: string, range: string | null, unit: string | null): boolean {
  const kind = cellKind(value);
  if (kind !== 'text' && kind !== 'unit') return true;
  if (QUALITATIVE.test(value.trim())) return true;
  // A genotype is a result, with no range or one that reads as one (an interpretation beside it is no range).
  if (GENOTYPE.test(value.trim())) return range === null || readsAsRange(range);
  if (/\d(?:st|nd|rd|th)\b|<-|->/.test(value) || value.split(/\s+/).length > 3) return false;
  // "Very High", "Borderline High": a category of a risk table, not a result.
  if (isFlag(value.split(/\s+/).at(-1) ?? '')) return false;
  const rangeReads = range !== null && readsAsRange(range);
  // "Collec.Date  BR 4s": a label whose colon a scan lost, beside words that are no unit, is no result.
  return (unit !== null && isUnit(unit)) || rangeReads;
}

/**
 * A range as labs print them: bounds, or words a result is reported in ("Negative"). A scan's garbled date
 * or time beside a label ("BR 4s", "ER 02:25") and specks read as letters ("ee") are none.
 */
export function readsAsRange(range: string): boolean {
  return QUALITATIVE.test(range.trim()) || (/\d/.test(range) && !/\d\p{L}|\d:\d\d/u.test(range));
}

/**
 * "208 <=527", "4.8 HIGH 1.5-4.5": a result, maybe its flag, and its range set so close together that
 * the text layer gives them as one cell.
 */
function splitGlued(text: string): { value: string; flag: string | null; range: string } | null {
  const words = text.split(' ');
  if (words.length < 2 || words.length > 6) return null;
  const value = words[0] ?? '';
  if (cellKind(value) !== 'number') return null;
  const hasFlag = words.length > 2 && cellKind(words[1] ?? '') === 'flag';
  const range = words.slice(hasFlag ? 2 : 1).join(' ');
  const kind = cellKind(range);
  if (kind !== 'interval' && kind !== 'bounded') return null;
  return { value, flag: hasFlag ? flagText(words[1] ?? '') : null, range };
}

/** What OCR said of the cell that gave the row its value or unit: repaired, and how sure it was. */
function noteOcr(cell: Cell, draft: Draft): void {
  if (cell.repaired) draft.repaired = true;
  if (cell.confidence !== undefined) draft.confidence = Math.min(draft.confidence ?? 100, cell.confidence);
}

/** The first range is the row's; each further one counts towards telling a band table from a row. */
function addRange(text: string | null, draft: Draft): void {
  if (text === null || text === '') return;
  if (draft.range === null) draft.range = text;
  else draft.ranges += 1;
}
