/**
 * A range whose parts a scan's line split into cells of their own ("4.5" | "- 5.6", "40.0" | "-" |
 * "47.0"): a typewriter or a wide face prints the spaces round the dash wider than the gap that starts a
 * new cell. Read apart, the row looks like two ranges side by side (a table of bands) and is lost; the parts
 * are one cell again when together they make one range.
 *
 * A thin dash can also be lost altogether (`67 %` | `40` | `75%`): two bounds at the end of a line that
 * already has its value, close together, the low one first, are that range; the dash is a guess, so the
 * cell is marked repaired and the row carries the doubt.
 */
import type { Cell, Line } from '../pdf/layout.js';

const BOUND = /^[<>]?\d[\d.,]*$/;
const DASH = /^[-\u2010-\u2015~]$/u;
const DASH_THEN_BOUND = /^[-\u2010-\u2015~]\s*\d[\d.,]*$/u;
const BOUND_THEN_DASH = /^[<>]?\d[\d.,]*\s*[-\u2010-\u2015~]$/u;

/** The line with each range split over two or three cells put back in one. */
export function withSplitRangesJoined(line: Line): Line {
  const cells: Cell[] = [];
  for (let i = 0; i < line.cells.length; i++) {
    const span = labelSpan(line.cells, i) ?? rangeSpan(line.cells, i);
    if (span === 1) {
      cells.push(line.cells[i] as Cell);
      continue;
    }
    cells.push(joined(line.cells.slice(i, i + span), CATEGORY_LABEL.test(line.cells[i]?.text.trim() ?? '')));
    i += span - 1;
  }
  const ended = withLostDash(cells);
  if (ended.length === line.cells.length) return line;
  return { ...line, cells: ended, text: ended.map((cell) => cell.text).join(' ') };
}

/**
 * A low bound, maybe after the bracket a range printed in brackets opens with (`(26`), maybe at the end of
 * the cell that holds the value too (`112 mg/dL (70`).
 */
const LOW_BOUND = /^((?:.*\s)?)(\(?)([<>]?\d[\d.,]*)$/;
/** A high bound with the per cent sign printed after it (`75%`), or the closing bracket (`36)`). */
const HIGH_BOUND = /^(\d[\d.,]*)\s*(%?)(\)?)$/;

/** The line's last two cells as one range when they are a range whose dash was lost. */
function withLostDash(cells: Cell[]): Cell[] {
  const [low, high] = cells.slice(-2);
  const before = cells.slice(1, -2);
  const from = LOW_BOUND.exec(low?.text.trim() ?? '');
  const to = HIGH_BOUND.exec(high?.text.trim() ?? '');
  if (!low || !high || !from || !to || !close([low, high])) return cells;
  const [, valueBefore = '', opened, lowBound = ''] = from;
  // Brackets open and close together, or not at all.
  if ((opened === '(') !== (to[3] === ')')) return cells;
  if (!/\d/.test(valueBefore) && !before.some((cell) => /\d/.test(cell.text))) return cells;
  if (!(numberOf(lowBound) < numberOf(to[1] as string))) return cells;
  const range = `${lowBound} - ${to[1]}${to[2] ? ` ${to[2]}` : ''}`;
  const text = `${valueBefore}${opened === '(' ? `(${range})` : range}`;
  return [...cells.slice(0, -2), { ...joined([low, high]), text, repaired: true }];
}

function numberOf(text: string): number {
  return Number(text.trim().replace(/^[<>]/, '').replace(/,/g, ''));
}

/** `Male :` or `Female`, set a column's gutter before the sex's range. */
const SEX_LABEL = /^(?:male|female|men|women)\s*:?$/i;
const RANGE = /^[<>]?\d[\d.,]*\s*[-\u2010-\u2015~]\s*\d[\d.,]*(?:\s*\(?%\)?)?$/u;
/**
 * `Desirable :`, `Pre-diabetic :`, `Adults :`: a category of an interpretive range, or an age band or
 * phase of a hormone's, printed a line each under the row (`Desirable : < 200` / `Borderline : 200 -
 * 239`). Words that are also flags (`High`, `Low`, `Normal`) are left out: a flag column can sit a gutter
 * before the range.
 */
const CATEGORY_LABEL =
  /^(?:(?:near|above)\s+)?(?:desirable|borderline(?:\s+high)?|optimal|non[- ]?diabetic|pre[- ]?diabetic|diabetic|deficien(?:t|cy)|insufficien(?:t|cy)|sufficien(?:t|cy)|toxic(?:ity)?|adults?|child(?:ren)?|infants?|new\s?borns?|neonates?|elderly|pregnan(?:t|cy)|(?:1st|2nd|3rd|first|second|third)\s+trimester|(?:pre|post)[- ]?menopausal|follicular(?:\s+phase)?|luteal(?:\s+phase)?|ovulat(?:ion|ory)(?:\s+phase)?|mid[- ]?cycle)\s*:?$/i;
const BOUND_OR_RANGE = /^(?:[<>]=?|≤|≥)?\s*\d[\d.,]*(?:\s*[-\u2010-\u2015~]\s*\d[\d.,]*)?$/u;

/**
 * `Male` | `13.0 - 17.0`, `Desirable` | `< 200`: a label and its range a gutter apart, 2 cells, as the text
 * layer gives them in one (`Desirable : < 200`, a label no reader takes for a result); null otherwise.
 */
function labelSpan(cells: readonly Cell[], i: number): number | null {
  const [label, range] = [cells[i], cells[i + 1]];
  if (!label || !range || !close([label, range])) return null;
  const [text, bounds] = [label.text.trim(), range.text.trim()];
  if (SEX_LABEL.test(text) && RANGE.test(bounds)) return 2;
  return CATEGORY_LABEL.test(text) && BOUND_OR_RANGE.test(bounds) ? 2 : null;
}

/** How many cells from `i` make one range: 3, 2, or 1 when the cell stands alone. */
function rangeSpan(cells: readonly Cell[], i: number): number {
  const [a, b, c] = [cells[i], cells[i + 1], cells[i + 2]].map((cell) => cell?.text.trim() ?? '');
  const near = (n: number) => close(cells.slice(i, i + n));
  if (!BOUND.test(a as string))
    return BOUND_THEN_DASH.test(a as string) && BOUND.test(b as string) && near(2) ? 2 : 1;
  if (DASH.test(b as string) && BOUND.test(c as string) && near(3)) return 3;
  return DASH_THEN_BOUND.test(b as string) && near(2) ? 2 : 1;
}

/**
 * Each gap no wider than the widest part: the parts of one range sit a space or two apart, a value and
 * the range in the next column a column's width.
 */
function close(parts: readonly Cell[]): boolean {
  const widths = parts.map((cell) => (cell.right === undefined ? null : cell.right - cell.x));
  if (widths.some((w) => w === null)) return false;
  const widest = Math.max(...(widths as number[]));
  return parts.slice(1).every((cell, k) => cell.x - ((parts[k] as Cell).right as number) <= widest);
}

function joined(parts: readonly Cell[], labelled = false): Cell {
  const first = parts[0] as Cell;
  const last = parts.at(-1) as Cell;
  const confidences = parts.flatMap((cell) => (cell.confidence === undefined ? [] : [cell.confidence]));
  const texts = parts.map((cell) => cell.text.trim());
  // A category's label whose colon the scan lost gets it back, so it reads as the label it is.
  if (labelled && !texts[0]?.endsWith(':')) texts[0] = `${texts[0]} :`;
  return {
    x: first.x,
    text: texts.join(' '),
    ...(last.right === undefined ? {} : { right: last.right }),
    ...(confidences.length ? { confidence: Math.min(...confidences) } : {}),
    ...(parts.some((cell) => cell.repaired) ? { repaired: true } : {}),
  };
}
