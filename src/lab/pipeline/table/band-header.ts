/**
 * The header of a band table: a name column, then bands in the order laboratories print them (`Optimal |
 * Borderline | Increased Risk`, `Low | Normal | High`), each placed where its word is printed; and where a
 * page's band tables start when it sets them side by side. Read by band-table.ts.
 */
import type { Cell } from '../pdf/layout.js';
import { columnRole, labelKey } from './header.js';
import type { LineView } from './line.js';

/** Bands in the order laboratories print them, and which of them is the reference (null: none is). */
const BAND_SETS: ReadonlyArray<{ words: readonly string[]; reference: number | null }> = [
  { words: ['optimal', 'borderline', 'increased risk'], reference: 0 },
  { words: ['low', 'normal', 'high'], reference: 1 },
  { words: ['low', 'mid', 'high'], reference: null },
];

/** A band word in a header cell ("Increased Risk" may lose its space). */
const BAND_WORD = /\b(optimal|borderline|increased ?risk|low|normal|high|mid)\b/g;

/** A header naming a result column before its bands prints the values there, not under the bands. */
const VALUE_LABEL = /^(?:results?|values?|your value|current result|result risk)$/;

/** Points between a column's header and text printed under it. */
const SLACK = 6;

/** Side-by-side tables start this far apart at least (points). */
const MIN_TABLE_GAP = 150;

export interface Band {
  word: string;
  centre: number;
  left: number;
  right: number;
}

export interface BandHeader {
  bands: Band[];
  reference: number | null;
  /** Cells starting left of this are the name column. */
  start: number;
  /** ...and right of this, columns the reader does not read (interpretation, footnotes, history). */
  end: number;
}

/**
 * Where the page's tables start (left edges, a little left of each name header), when a band header is on
 * it; none when there is none. Two name headers on one line far apart are two tables side by side.
 */
export function tableStarts(views: readonly LineView[]): number[] {
  const nameXs: number[] = [];
  for (const view of views) {
    for (const segment of segments(view.cells)) {
      if (segment[0] && bandHeader(segment) !== null) nameXs.push(segment[0].x);
    }
  }
  if (nameXs.length === 0) return [];
  const sorted = [...new Set(nameXs)].sort((a, b) => a - b);
  const starts: number[] = [];
  for (const x of sorted) {
    const last = starts[starts.length - 1];
    if (last === undefined || x - SLACK - last >= MIN_TABLE_GAP) starts.push(x - SLACK);
  }
  starts[0] = Number.NEGATIVE_INFINITY;
  return starts;
}

/** A line's cells cut at each name header ("Test Name") after the first cell. */
function segments(cells: readonly Cell[]): Cell[][] {
  const out: Cell[][] = [];
  for (const cell of cells) {
    const last = out[out.length - 1];
    if (last === undefined || columnRole(cell.text) === 'name') out.push([cell]);
    else last.push(cell);
  }
  return out.filter((segment) => columnRole(segment[0]?.text ?? '') === 'name');
}

/** A name header followed by two or more bands of one set, in the set's order. */
export function bandHeader(cells: readonly Cell[]): BandHeader | null {
  const [name, ...rest] = cells;
  if (!name || columnRole(name.text) !== 'name') return null;
  const found = rest.flatMap(bandsIn);
  const first = found[0];
  // A result column before the bands holds the values; the bands are then a risk table beside them.
  if (first && rest.some((cell) => cell.x < first.left && VALUE_LABEL.test(labelKey(cell.text)))) return null;
  return headerOf(found, rest);
}

/** The band words of a header cell, each placed by its share of the cell's width. */
export function bandsIn(cell: Cell): Band[] {
  const text = cell.text.trim().toLowerCase();
  const width = (cell.right ?? cell.x + text.length * 5) - cell.x;
  const at = (i: number) => cell.x + (i / Math.max(text.length, 1)) * width;
  return [...text.matchAll(BAND_WORD)].map((m) => {
    const left = at(m.index ?? 0);
    const right = at((m.index ?? 0) + m[0].length);
    return {
      word: m[0].replace(/\s+/g, '').replace('increasedrisk', 'increased risk'),
      left,
      right,
      centre: (left + right) / 2,
    };
  });
}

export function headerOf(found: readonly Band[], cells: readonly Cell[]): BandHeader | null {
  if (found.length < 2) return null;
  const set = BAND_SETS.find(({ words }) =>
    isOrderedSubset(
      found.map((b) => b.word),
      words,
    ),
  );
  if (!set) return null;
  const bands = withMissingBand(found, set.words);
  const last = bands[bands.length - 1] as Band;
  const next = cells.find((cell) => cell.x >= last.right && bandsIn(cell).length === 0);
  const pitch = last.centre - (bands[bands.length - 2] as Band).centre;
  // The reference band by name: where its header is lost, no band is the reference.
  const referenceWord = set.reference === null ? null : set.words[set.reference];
  const reference = bands.findIndex((band) => band.word === referenceWord);
  return {
    bands,
    reference: reference < 0 ? null : reference,
    start: Math.min(...bands.map((b) => b.left)) - SLACK,
    end: Math.min(
      next ? next.x - SLACK : Number.POSITIVE_INFINITY,
      last.right + Math.min(SLACK * 2, pitch / 2),
    ),
  };
}

function isOrderedSubset(found: readonly string[], words: readonly string[]): boolean {
  let at = -1;
  for (const word of found) {
    const i = words.indexOf(word);
    if (i <= at) return false;
    at = i;
  }
  return true;
}

/**
 * A set printed with one band's header missing (set as a picture, or lost from the text layer) keeps its
 * column: placed at the spacing of the others, where only the first or last is missing.
 */
function withMissingBand(found: readonly Band[], words: readonly string[]): Band[] {
  if (found.length !== words.length - 1) return [...found];
  const [a, b] = found as [Band, Band];
  const pitch = b.centre - a.centre;
  const half = (a.right - a.left) / 2;
  if (a.word !== words[0]) {
    const centre = a.centre - pitch;
    return [{ word: words[0] as string, centre, left: centre - half, right: centre + half }, ...found];
  }
  const z = found[found.length - 1] as Band;
  if (z.word === words[words.length - 1]) return [...found];
  const centre = z.centre + pitch;
  return [
    ...found,
    { word: words[words.length - 1] as string, centre, left: centre - half, right: centre + half },
  ];
}

export function nearestBand(x: number, header: BandHeader): number {
  let best = 0;
  header.bands.forEach((band, i) => {
    if (Math.abs(band.centre - x) < Math.abs((header.bands[best] as Band).centre - x)) best = i;
  });
  return best;
}
