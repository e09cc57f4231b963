/**
 * Cells a typed report runs together, cut apart before any reader looks at the line. Small laboratories
 * print a result as `Blood Sugar (Fasting)  :  112 mg/dL (70 - 110)`: a colon between the name and the
 * value, and the value, its unit and its range in brackets in one cell. Read as it stands, the colon was
 * taken for the value and the rest for text, and a whole report of such lines was called no lab report.
 * A star after a value (`10.8 *`, the laboratory's mark of an abnormal result, which says neither high nor
 * low) is dropped from the value.
 */
import type { Cell } from '../pdf/layout.js';
import { cellKind, isUnit } from './cell-kind.js';
import type { LineView } from './line.js';

/** `112 mg/dL (70 - 110)`, `1.4 (0.6 - 1.2)`: a value, maybe its unit, and its range in brackets. */
const VALUE_UNIT_RANGE = /^(\S+)(?:\s+(.+?))?\s*\(\s*([^()]+?)\s*\)$/;
/** `10.8 *`: a value and a star. */
const STARRED = /^(\S+)\s*\*$/;

export function withGluedCellsCut<View extends Pick<LineView, 'cells'>>(view: View): View {
  if (view.cells.length < 2) return view;
  const cells = view.cells.flatMap((cell, i) => (i === 0 ? [cell] : cut(cell)));
  return cells.length === view.cells.length && cells.every((cell, i) => cell === view.cells[i])
    ? view
    : { ...view, cells };
}

function cut(cell: Cell): Cell[] {
  const text = cell.text.trim();
  if (text === ':') return [];
  const starred = STARRED.exec(text);
  if (starred && cellKind(starred[1] as string) === 'number')
    return [{ ...cell, text: starred[1] as string }];
  const glued = VALUE_UNIT_RANGE.exec(text);
  if (!glued) return [cell];
  const [, value = '', unit, range = ''] = glued;
  const rangeKind = cellKind(range);
  if (cellKind(value) !== 'number' || (rangeKind !== 'interval' && rangeKind !== 'bounded')) return [cell];
  if (unit !== undefined && !isUnit(unit)) return [cell];
  const parts = [value, ...(unit === undefined ? [] : [unit]), range];
  return placed(cell, text, parts);
}

/** The parts as cells of their own, each at its place in the printed cell (widths by characters). */
function placed(cell: Cell, text: string, parts: readonly string[]): Cell[] {
  const width = cell.right === undefined ? null : cell.right - cell.x;
  let from = 0;
  return parts.map((part) => {
    const at = text.indexOf(part, from);
    from = at + part.length;
    if (width === null) return { ...cell, text: part, right: undefined };
    const x = cell.x + (width * at) / text.length;
    return { ...cell, text: part, x, right: cell.x + (width * from) / text.length };
  });
}
