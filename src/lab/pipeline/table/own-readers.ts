/**
 * Tables with a reader of their own, read before the general table reader: antibiograms (a lone S or R is
 * a result only there) and titre grids (a result is a column's dilution, not a cell). Their lines are kept
 * from the general reader, and what they saw and could not read is reported as unread.
 */
import type { ParsedPanel } from '../../types.js';
import { readAntibiograms } from './antibiogram.js';
import type { LineView } from './line.js';
import { readTitreGrids } from './titre-grid.js';

export interface OwnReaderTables {
  panels: ParsedPanel[];
  read: Set<LineView>;
  unread: LineView[];
}

export function readOwnTables(pages: readonly (readonly LineView[])[]): OwnReaderTables {
  const antibiograms = readAntibiograms(pages);
  const grids = readTitreGrids(pages.map((views) => views.filter((view) => !antibiograms.read.has(view))));
  return {
    panels: [...antibiograms.panels, ...grids.panels],
    read: new Set([...antibiograms.read, ...grids.read]),
    unread: [...antibiograms.unread, ...grids.unread],
  };
}
