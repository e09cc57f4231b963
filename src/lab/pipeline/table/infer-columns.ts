/**
 * Columns inferred from what a page's rows hold, for tables whose header words we do not know (or that
 * print none). Cells of result-like lines are grouped by where they start; each group is then named by
 * its content: the group of plain numbers is the result, the group of intervals and bounds the reference
 * range, the group of units the units, the group of flag words the flags. A group of words ("NEGATIVE",
 * "YELLOW") is the result when no group of numbers claims that role first. The header line, where there
 * is one, only locates the table; its words are not needed.
 */
import { type CellKind, cellKind, QUALITATIVE, startsName } from './cell-kind.js';
import { COLUMN_SLACK, type Column, type ColumnRole, type TableHeader } from './header.js';
import type { LineView } from './line.js';

/**
 * Cells whose extents overlap, or start within this many points of each other, are one column: numbers
 * set right-aligned or centred start at different x but overlap.
 */
const SAME_COLUMN = 12;
/** Longer cells are prose that runs across columns; they say nothing about where a column is. */
const MAX_CELL_LENGTH = 30;
/** Fewer rows than this say too little about a layout to infer its columns. */
const MIN_ROWS = 3;

interface Group {
  x: number;
  right: number;
  kinds: Map<CellKind, number>;
  cells: number;
}

export function inferColumns(views: readonly LineView[]): TableHeader | null {
  const rows = views.filter(isCandidateRow);
  if (rows.length < MIN_ROWS) return null;
  const nameX = Math.min(...rows.map((view) => view.cells[0]?.x ?? 0));
  const groups = groupCells(rows).filter((group) => group.x >= namesEnd(rows));
  const roles = assignRoles(groups);
  if (!roles.includes('value')) return null;
  const columns: Column[] = [{ role: 'name', start: nameX - COLUMN_SLACK }];
  groups.forEach((group, i) => {
    columns.push({ role: roles[i] ?? 'unknown', start: group.x - COLUMN_SLACK });
  });
  const dataStart = (groups[0]?.x ?? nameX) - COLUMN_SLACK;
  return { columns, nameX, dataStart, riskSummary: false };
}

/**
 * Where most names end: a group of cells starting left of it lies inside the names' span, so it is no
 * column (a stamp's or signature's specks read on a line that starts like a name). Lines without cell
 * widths give no end: every group is kept.
 */
function namesEnd(rows: readonly LineView[]): number {
  const ends = rows.flatMap((view) => (view.cells[0]?.right === undefined ? [] : [view.cells[0].right]));
  if (ends.length < rows.length) return Number.NEGATIVE_INFINITY;
  const sorted = [...ends].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** A name, then at least one cell that is data: a number, a range, a unit, a flag. */
export function isCandidateRow(view: LineView): boolean {
  const [first, ...rest] = view.cells;
  if (!first || rest.length === 0 || cellKind(first.text) !== 'text') return false;
  if (!startsName(first.text)) return false;
  return rest.some((cell) => {
    const kind = cellKind(cell.text);
    if (kind === 'text') return QUALITATIVE.test(cell.text.trim());
    return kind !== 'label' && kind !== 'date';
  });
}

function groupCells(rows: readonly LineView[]): Group[] {
  const cells = rows
    .flatMap((view) => view.cells.slice(1))
    .filter((cell) => cell.text.trim().length <= MAX_CELL_LENGTH && isCleanCell(cell.text))
    .sort((a, b) => a.x - b.x);
  const groups: Group[] = [];
  for (const cell of cells) {
    let group = groups.at(-1);
    if (!group || cell.x > Math.max(group.right, group.x + SAME_COLUMN)) {
      group = { x: cell.x, right: cell.x, kinds: new Map(), cells: 0 };
      groups.push(group);
    }
    group.right = Math.max(group.right, cell.right ?? cell.x);
    const kind = cellKind(cell.text);
    group.kinds.set(kind, (group.kinds.get(kind) ?? 0) + 1);
    group.cells += 1;
  }
  return groups;
}

/**
 * A cell that is one thing: a number, a range, a unit, a flag, a result word. Two things printed so close
 * that they make one cell ("334 140-400") would join two columns into one.
 */
function isCleanCell(text: string): boolean {
  const kind = cellKind(text);
  return kind !== 'text' || QUALITATIVE.test(text.trim());
}

type Scorer = (group: Group) => number;

const count = (group: Group, ...kinds: CellKind[]): number =>
  kinds.reduce((n, kind) => n + (group.kinds.get(kind) ?? 0), 0);

/** Roles in the order they are claimed: each takes the group that holds the most of its kind of cell. */
const CLAIMS: ReadonlyArray<readonly [ColumnRole, Scorer]> = [
  ['range', (g) => count(g, 'interval', 'rangeUnit') + 0.5 * count(g, 'bounded')],
  ['value', (g) => count(g, 'number', 'valueFlag', 'valueUnit') + 0.5 * count(g, 'bounded')],
  ['unit', (g) => count(g, 'unit')],
  ['flag', (g) => count(g, 'flag')],
];

function assignRoles(groups: readonly Group[]): Array<ColumnRole | undefined> {
  const roles: Array<ColumnRole | undefined> = groups.map(() => undefined);
  for (const [role, score] of CLAIMS) {
    let best = -1;
    let bestScore = 0;
    groups.forEach((group, i) => {
      const s = score(group) / Math.sqrt(group.cells);
      if (roles[i] === undefined && s > bestScore) {
        best = i;
        bestScore = s;
      }
    });
    if (best >= 0) roles[best] = role;
  }
  // Words where a result goes (a qualitative panel): the first unclaimed group of words left of the range.
  if (!roles.includes('value')) {
    const rangeAt = roles.indexOf('range');
    const words = groups.findIndex((_group, i) => roles[i] === undefined && (rangeAt < 0 || i !== rangeAt));
    if (words >= 0) roles[words] = 'value';
  }
  return roles;
}
