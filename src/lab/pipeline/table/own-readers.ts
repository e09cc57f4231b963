/**
 * Tables with a reader of their own, read before the general table reader: antibiograms (a lone S or R is
 * a result only there), titre grids (a result is a column's dilution, not a cell) and band tables (a result
 * printed under the band it falls in, the bands' bounds on the line below). Their lines are kept
 * from the general reader, and what they saw and could not read is reported as unread.
 */
import type { ParsedPanel } from '../../types.js';
import { readAntibiograms } from './antibiogram.js';
import { readBandTables } from './band-table.js';
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
  const taken = new Set([...antibiograms.read, ...grids.read]);
  const bands = readBandTables(pages.map((views) => views.filter((view) => !taken.has(view))));
  return {
    panels: [...antibiograms.panels, ...grids.panels, ...bands.panels],
    read: new Set([...taken, ...bands.read]),
    unread: [...antibiograms.unread, ...grids.unread, ...bands.unread],
  };
}
