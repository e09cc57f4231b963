/**
 * A photographed report whose columns drift apart. A phone held at an angle to the page shrinks the far
 * side: on a real CBC photographed that way, the result column's rows are 11% closer together than the
 * names' (pitch 51 against 57 pixels), so by the fifth row each value sits beside the next test's name and
 * every reading of a row by its height pairs the wrong cells (4 of 12 results read, one value given to
 * its neighbour). Within one column the rows keep their order, so each column is mapped onto the names'
 * by a straight-line stretch and shift (y' = a y + b) and its words are moved onto the names' rows.
 *
 * Such a page is read twice (ocr.ts): row by row as every page is, which shows the drift on the words' own
 * boxes, and then as blocks, which on that photo read every name and the range column that rows lost.
 */
import type { TextItem } from '../pdf/layout.js';
import type { HocrPage } from './hocr.js';
import { median } from './median.js';

/** A run of words on one line with no wide gap: a cell as printed. */
interface Phrase {
  items: TextItem[];
  x: number;
  y: number;
  font: number;
}

/** Words further apart than this many font sizes are separate cells. */
const CELL_GAP = 1.5;
/** Phrases whose left edges lie within this many font sizes are one column. */
const COLUMN_REACH = 2;
/** A column needs this many rows for its pitch to say anything. */
const MIN_ROWS = 6;
/**
 * Columns whose row pitches differ by more than this share drift: flat real scans' table columns measured
 * 0.5-2.3% apart, the phone photo's 6% on its words' own boxes (11% once read as blocks).
 */
const DRIFT = 0.04;
/** A step within this share of the pitch is one row; most of a table column's steps are. */
const REGULAR = 0.25;
const MIN_REGULAR = 0.7;
/** Drift matters once a column's last row has wandered this many rows from its name. */
const MIN_WANDER = 0.5;
/** A column's stretch onto the names' lies within this range (a photo, not another table). */
const MIN_STRETCH = 0.75;
const MAX_STRETCH = 1.33;
/** A mapped row lands on a name's row when within this share of the names' pitch. */
const LANDS = 0.3;
/** At least this share of a column's rows must land for the map to be taken. */
const MIN_LANDED = 0.8;

/**
 * Whether the page's columns drift apart, judged on each word's own place. The page read row by row puts
 * every word of a tesseract line on that line's baseline, and tesseract joins a name to the value beside
 * it whatever row the value belongs to, so drift is only seen on the words' own boxes (the page's slant
 * taken out).
 */
export function pageDrifts(page: HocrPage): boolean {
  const slopes = page.lines
    .filter((line) => line.words.length >= 2)
    .map((line) => line.baselineAt(line.box.left + 1) - line.baselineAt(line.box.left));
  const slope = median(slopes) ?? 0;
  const words: TextItem[] = page.lines.flatMap((line) =>
    line.words.map((word) => ({
      str: word.chars.map((c) => c.text).join(''),
      x: word.box.left,
      y: word.box.bottom - slope * (word.box.left - page.width / 2),
      width: word.box.right - word.box.left,
      height: word.box.bottom - word.box.top,
      fontSize: line.size,
    })),
  );
  return columnsDrift(words);
}

/**
 * Whether two columns of one table keep rows at different pitches, by enough to put a value beside another
 * row's name somewhere down the column. A column's results are compared with the part of a column left of
 * them that lies beside them (names beside values, not the patient block above them), and only where the two
 * hold about as many rows: a flat scan's columns keep one pitch to within 2%.
 */
export function columnsDrift(items: readonly TextItem[]): boolean {
  const columns = columnsOf(phrasesOf(items)).filter((c) => c.length >= MIN_ROWS);
  for (const right of columns) {
    const pitch = pitchOf(right);
    // A column of results (a note beside the table in smaller type keeps another pitch too).
    if (pitch === null || !regular(right, pitch) || right.filter(startsWithNumber).length < MIN_ROWS)
      continue;
    const [top, bottom] = [(right[0] as Phrase).y - pitch / 2, (right.at(-1) as Phrase).y + pitch / 2];
    for (const left of columns) {
      if ((left[0] as Phrase).x >= (right[0] as Phrase).x) continue;
      const beside = left.filter((p) => p.y >= top && p.y <= bottom);
      const besidePitch = beside.length >= MIN_ROWS ? pitchOf(beside) : null;
      if (besidePitch === null || !regular(beside, besidePitch)) continue;
      const rows = beside.length / right.length;
      if (rows < MIN_STRETCH || rows > MAX_STRETCH) continue;
      const drift = Math.abs(besidePitch / pitch - 1);
      // How far the last row has wandered from its name by the foot of the column, in rows.
      if (drift > DRIFT && drift * (right.length - 1) >= MIN_WANDER) return true;
    }
  }
  return false;
}

/**
 * The items with every column right of the names moved onto the names' rows; null where no column maps
 * onto them (then nothing is moved).
 */
export function alignDriftingColumns(items: readonly TextItem[]): TextItem[] | null {
  const columns = columnsOf(phrasesOf(items)).filter((c) => c.length >= MIN_ROWS - 1);
  const names = columns
    .filter((c) => c.length >= MIN_ROWS)
    .sort((a, b) => (a[0] as Phrase).x - (b[0] as Phrase).x)[0];
  const pitch = names ? pitchOf(names) : null;
  if (!names || pitch === null) return null;
  const moved = new Map<TextItem, number>();
  for (const column of columns) {
    if (column === names || (column[0] as Phrase).x <= (names[0] as Phrase).x || !overlap(column, names))
      continue;
    const best = bestMap(column, names, pitch);
    // A column at the names' own pitch was read in its rows already: the page is no photo that drifts.
    if (!best || Math.abs(best.stretch - 1) <= DRIFT / 2) continue;
    const landing = best.landing;
    for (const [phrase, row] of landing) for (const item of phrase.items) moved.set(item, row.y);
  }
  if (moved.size === 0) return null;
  return items.map((item) => {
    const y = moved.get(item);
    return y === undefined ? item : { ...item, y };
  });
}

/**
 * Of the maps of the column onto the names' rows that land enough of its rows, the one that moves them
 * least on the page (a row not landed costs a whole row's move): with the page's slant taken out, a
 * photo's columns are in register with the names somewhere down the table, not a row off all the way.
 * Null if none lands enough. Each map is tried from two of the column's end rows put on two names' rows,
 * then fitted to every row it landed. Landing the most rows is no test: a column's heading ("Result") and
 * a heading among the names ("Complete Blood Count") let the map shifted by one row land every row too,
 * each value beside the test above its own.
 */
function bestMap(
  column: Phrase[],
  names: Phrase[],
  pitch: number,
): { landing: Map<Phrase, Phrase>; stretch: number } | null {
  const enough = Math.max(MIN_ROWS - 1, MIN_LANDED * column.length);
  let best: { landing: Map<Phrase, Phrase>; cost: number; stretch: number } | null = null;
  const ends = [0, 1, 2].filter((i) => i < column.length);
  for (const i of ends)
    for (const j of ends.map((k) => column.length - 1 - k))
      for (let k = 0; k < names.length; k++)
        for (let l = k + 1; l < names.length; l++) {
          if (j <= i) continue;
          const [ci, cj] = [(column[i] as Phrase).y, (column[j] as Phrase).y];
          const a = ((names[l] as Phrase).y - (names[k] as Phrase).y) / (cj - ci);
          if (a < MIN_STRETCH || a > MAX_STRETCH) continue;
          let landing = land(column, names, a, (names[k] as Phrase).y - a * ci, pitch);
          const fitted = fittedMap(landing);
          if (fitted) landing = land(column, names, fitted.a, fitted.b, pitch);
          if (landing.size < enough) continue;
          const cost = moved(landing) + pitch * (column.length - landing.size);
          if (!best || cost < best.cost) best = { landing, cost, stretch: fitted?.a ?? a };
        }
  return best ? { landing: best.landing, stretch: best.stretch } : null;
}

/** The least-squares map through a landing's pairs; null for fewer than two, or a stretch out of range. */
function fittedMap(landing: Map<Phrase, Phrase>): { a: number; b: number } | null {
  const pairs = [...landing].map(([phrase, row]) => [phrase.y, row.y] as const);
  if (pairs.length < 2) return null;
  const mx = pairs.reduce((s, [x]) => s + x, 0) / pairs.length;
  const my = pairs.reduce((s, [, y]) => s + y, 0) / pairs.length;
  let [num, den] = [0, 0];
  for (const [x, y] of pairs) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  const a = den === 0 ? 1 : num / den;
  return a < MIN_STRETCH || a > MAX_STRETCH ? null : { a, b: my - a * mx };
}

/** How far a landing moves its rows, in all (on the page, before any stretch). */
function moved(landing: Map<Phrase, Phrase>): number {
  let sum = 0;
  for (const [phrase, row] of landing) sum += Math.abs(phrase.y - row.y);
  return sum;
}

/** Each row of the column mapped by (a, b) onto the nearest name's row within reach, one to one. */
function land(column: Phrase[], names: Phrase[], a: number, b: number, pitch: number): Map<Phrase, Phrase> {
  const landing = new Map<Phrase, Phrase>();
  const taken = new Set<Phrase>();
  for (const phrase of column) {
    const y = a * phrase.y + b;
    let nearest: Phrase | null = null;
    for (const name of names)
      if (!taken.has(name) && (!nearest || Math.abs(name.y - y) < Math.abs(nearest.y - y))) nearest = name;
    if (nearest && Math.abs(nearest.y - y) <= LANDS * pitch) {
      landing.set(phrase, nearest);
      taken.add(nearest);
    }
  }
  return landing;
}

/** Words grouped into lines (by baseline) and lines cut at wide gaps. */
function phrasesOf(items: readonly TextItem[]): Phrase[] {
  const sorted = [...items].filter((i) => i.str.trim() !== '').sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: TextItem[][] = [];
  for (const item of sorted) {
    const line = lines.at(-1);
    const first = line?.[0];
    if (line && first && Math.abs(item.y - first.y) <= 0.3 * Math.max(item.fontSize, first.fontSize))
      line.push(item);
    else lines.push([item]);
  }
  const phrases: Phrase[] = [];
  for (const line of lines) {
    line.sort((a, b) => a.x - b.x);
    let phrase: Phrase | null = null;
    for (const item of line) {
      const last = phrase?.items.at(-1);
      if (phrase && last && item.x - (last.x + last.width) <= CELL_GAP * item.fontSize)
        phrase.items.push(item);
      else {
        phrase = { items: [item], x: item.x, y: item.y, font: item.fontSize };
        phrases.push(phrase);
      }
    }
  }
  return phrases;
}

/** Phrases whose left edges line up, each column top to bottom. */
function columnsOf(phrases: readonly Phrase[]): Phrase[][] {
  const columns: Phrase[][] = [];
  for (const phrase of [...phrases].sort((a, b) => a.x - b.x)) {
    const column = columns.find((c) => Math.abs((c[0] as Phrase).x - phrase.x) <= COLUMN_REACH * phrase.font);
    if (column) column.push(phrase);
    else columns.push([phrase]);
  }
  for (const column of columns) column.sort((a, b) => a.y - b.y);
  return columns;
}

/** The column's usual distance from one row to the next (gaps of a skipped row or more left out). */
function pitchOf(column: readonly Phrase[]): number | null {
  const steps = column.slice(1).map((p, i) => p.y - (column[i] as Phrase).y);
  const usual = median(steps.filter((s) => s > 0.5 * (column[0] as Phrase).font));
  if (usual === null) return null;
  return median(steps.filter((s) => s > 0.5 * usual && s < 1.5 * usual));
}

/**
 * A cell that starts with a number: a result or a range. A note printed beside a table in smaller type
 * ("Reference Range:" over "Males: 11-44 pg/mL") keeps another pitch too, but holds few of them.
 */
function startsWithNumber(phrase: Phrase): boolean {
  return /^[<>≤≥]?\d/.test(phrase.items[0]?.str ?? '');
}

/** Whether most of the column's steps are one pitch (a table's column, not words scattered down a page). */
function regular(column: readonly Phrase[], pitch: number): boolean {
  const steps = column.slice(1).map((p, i) => p.y - (column[i] as Phrase).y);
  return steps.filter((s) => Math.abs(s - pitch) <= REGULAR * pitch).length >= MIN_REGULAR * steps.length;
}

/** Whether the two columns share most of their height. */
function overlap(a: readonly Phrase[], b: readonly Phrase[]): boolean {
  const [aTop, aBottom] = [(a[0] as Phrase).y, (a.at(-1) as Phrase).y];
  const [bTop, bBottom] = [(b[0] as Phrase).y, (b.at(-1) as Phrase).y];
  const shared = Math.min(aBottom, bBottom) - Math.max(aTop, bTop);
  return shared > 0.5 * Math.min(aBottom - aTop, bBottom - bTop);
}
