/**
 * What a band table's rows repeat: the closing summary of such reports (band-table.ts), and the values a
 * row can hold.
 */
import { normaliseName } from '../../../terminology/normalise-name.js';
import type { ParsedPanel } from '../../types.js';
import type { Cell } from '../pdf/layout.js';
import { cellKind, QUALITATIVE, startsName } from './cell-kind.js';
import type { LineView } from './line.js';

/** What the band tables read: their panels, the lines they claimed, and those seen and not read. */
export interface BandTables {
  panels: ParsedPanel[];
  /** Lines read here, which the general reader must not read again. */
  read: Set<LineView>;
  /** Lines that look like a result and made no row: seen, not read. */
  unread: LineView[];
}

/**
 * Such reports close with a summary of the same results, name and value only, two lists side by side
 * ("Most Recent"). A line that does nothing but repeat what the band tables printed (a name with its value,
 * read or seen and reported unread, or a heading or name alone) is that summary: claimed here, so the general
 * reader does not read the two lists as one, and no result is reported twice.
 */
export function claimSummaryCopies(pages: readonly (readonly LineView[])[], out: BandTables): void {
  const printed = new Set<string>();
  const names = new Set<string>();
  for (const panel of out.panels) {
    names.add(normaliseName(panel.panelName));
    for (const row of panel.rows) {
      names.add(normaliseName(row.biomarker));
      printed.add(pairKey(row.biomarker, row.resultValue ?? ''));
    }
  }
  for (const view of out.read) {
    for (const cell of view.cells) if (startsName(cell.text)) names.add(normaliseName(cell.text));
  }
  // A name seen with numbers after it (a chart's markers, then its values) may be summarised by any of them.
  for (const view of out.unread) {
    let name: string | null = null;
    for (const cell of view.cells) {
      if (cellKind(cell.text) === 'number' && name !== null) printed.add(pairKey(name, cell.text));
      else if (startsName(cell.text)) name = cell.text;
    }
  }
  for (const views of pages) {
    for (const view of views) {
      if (!out.read.has(view) && repeats(view.cells, names, printed)) out.read.add(view);
    }
  }
}

/** Every cell a name already printed, each followed by nothing new: its value as printed, or no value. */
function repeats(cells: readonly Cell[], names: ReadonlySet<string>, printed: ReadonlySet<string>): boolean {
  if (cells.length === 0) return false;
  for (let i = 0; i < cells.length; i += 1) {
    const name = (cells[i] as Cell).text;
    if (!names.has(normaliseName(name))) return false;
    const value = cells[i + 1]?.text;
    if (value === undefined || !isValue(value)) continue;
    if (!printed.has(pairKey(name, value))) return false;
    i += 1;
  }
  return true;
}

function pairKey(name: string, value: string): string {
  return `${normaliseName(name)}=${value.trim()}`;
}

export function isValue(text: string): boolean {
  const kind = cellKind(text);
  return kind === 'number' || kind === 'bounded' || kind === 'valueFlag' || QUALITATIVE.test(text);
}
