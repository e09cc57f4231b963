/**
 * Parse stage of lab extraction: a document's layout -> panels of result rows as printed (OCR misreadings
 * repaired where one reading is possible), the merges of panels continued across pages, the doubts about
 * the rows and lines, and how much of what looked like results was read. Terminology comes later
 * (normalise.ts).
 */

import { matchLoinc } from '../../../terminology/loinc-match.js';
import type { Coverage, MergeAction, ParsedPanel, ParsedRow, ValidationFlag, Vendor } from '../../types.js';
import type { DocumentLayout } from '../pdf/pdf-text.js';
import { dropRepeatedCopies } from './copies.js';
import { takeDocumentViews } from './document-views.js';
import { type DocumentStyle, documentStyle, noTableFlag, rowDoubts, unreadRowFlag } from './doubts.js';
import type { TableHeader } from './header.js';
import { TRAILING_MARKS } from './labcorp-marks.js';
import type { LineView } from './line.js';
import { readNameTails } from './name-tails.js';
import { repairOcrRows } from './ocr-rows.js';
import { readLine } from './row-reader.js';
import { looksLikeResult, type TableLine, tableLinesOf } from './table-lines.js';
import { walkTable } from './table-walk.js';

export interface ParsedReport {
  panels: ParsedPanel[];
  /** panelCode is '' here: codes are assigned when panels are normalised. */
  mergeActions: MergeAction[];
  validationFlags: ValidationFlag[];
  coverage: Coverage;
}

export function parseReport(layout: DocumentLayout, vendor: Vendor | 'generic'): ParsedReport {
  // Susceptibility tables and titre grids first: their lines have readers of their own (own-readers.ts),
  // run already when validation counted their rows.
  const { pages, own } = takeDocumentViews(layout);
  const lines: TableLine[] = [];
  let carried: TableHeader | null = null;
  for (const views of pages) {
    const table = tableLinesOf(
      views.filter((view) => !own.read.has(view)),
      carried,
    );
    lines.push(...table.lines);
    carried = table.lastHeader;
  }
  const walked = walkTable(lines);
  const panels = inPageOrder(
    dropRepeatedCopies(walked.panels, layout, vendor, walked.strictRows),
    own.panels,
  );
  if (vendor === 'labcorp') stripUnraisedCodes(panels, layout);
  readNameTails(panels);
  const repairs = repairOcrRows(panels);
  nameUntitledPanels(panels);
  // Doubted as they stand at the end (codes stripped, OCR misreadings repaired, copies dropped), so each
  // flag names the test as the results do.
  assignRowIds(panels);
  const style = documentStyle(panels.flatMap((panel) => panel.rows));
  const doubts = panels.flatMap((panel) => panel.rows.flatMap((row) => doubtRow(row, style)));
  const readViews = new Set([...walked.readLines].map((line) => line.view));
  for (const view of own.read) readViews.add(view);
  const unreadViews = unreadRows(pages.flat(), readViews, panels);
  const unread = [...unreadViews, ...unreadTests(lines, readViews, new Set(unreadViews)), ...own.unread];
  const resultsRead = panels.reduce((n, panel) => n + panel.rows.length, 0);
  const flags = [
    ...walked.validationFlags,
    ...repairs,
    ...doubts,
    ...unread.map((view) => unreadRowFlag(view.pageNumber)),
  ];
  return {
    panels,
    mergeActions: panels.flatMap(mergesOf),
    validationFlags: panels.length === 0 ? [noTableFlag(), ...flags] : flags,
    coverage: coverageOf(resultsRead, unread.length),
  };
}

/**
 * The table's panels and the own readers' in the order printed: an own reader's panel goes before a table
 * panel of its page only when printed above it (culture reports print the antibiogram after the culture;
 * band tables come before an ordinary table below them). Each reader's panels keep their own order.
 */
function inPageOrder(panels: ParsedPanel[], own: readonly ParsedPanel[]): ParsedPanel[] {
  if (own.length === 0) return panels;
  const pending = [...own].sort((a, b) => a.pageNumber - b.pageNumber);
  const out: ParsedPanel[] = [];
  for (const panel of panels) {
    while (pending[0] && printedBefore(pending[0], panel)) out.push(pending.shift() as ParsedPanel);
    out.push(panel);
  }
  return [...out, ...pending];
}

function printedBefore(a: ParsedPanel, b: ParsedPanel): boolean {
  if (a.pageNumber !== b.pageNumber) return a.pageNumber < b.pageNumber;
  const top = (panel: ParsedPanel) => panel.rows[0]?.bbox?.y;
  const [ya, yb] = [top(a), top(b)];
  return ya !== undefined && yb !== undefined && ya < yb;
}

/**
 * Each row's id: its page, its name and which row of that name on that page it is ('p2-albumin-1').
 * Stable for the same document whatever else is read around it, and readable in a review or a log.
 */
function assignRowIds(panels: readonly ParsedPanel[]): void {
  const seen = new Map<string, number>();
  for (const row of panels.flatMap((panel) => panel.rows)) {
    const slug = row.biomarker
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40);
    const key = `p${row.pageNumber}-${slug || 'row'}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    row.id = `${key}-${n}`;
  }
}

/** A row's flags, each naming the row; its warnings become the row's own doubts. */
function doubtRow(row: ParsedRow, style: DocumentStyle): ValidationFlag[] {
  const flags = rowDoubts(row, style).map((flag) => (row.id ? { ...flag, resultId: row.id } : flag));
  row.doubts = flags.filter((f) => f.severity !== 'info').map(({ code, message }) => ({ code, message }));
  return flags;
}

/**
 * Lines any reader would take for results (a name, a number, a unit or range) that no row was read from,
 * and whose name and value no read row repeats (a summary table printed again in detail is not unread).
 */
function unreadRows(
  views: readonly LineView[],
  read: ReadonlySet<LineView>,
  panels: readonly ParsedPanel[],
): LineView[] {
  const readKeys = new Set(panels.flatMap((panel) => panel.rows.map((row) => row.resultValue ?? '')));
  return views.filter((view) => {
    if (read.has(view) || !looksLikeResult(view)) return false;
    const line = readLine(view, null);
    return !(line.value !== null && readKeys.has(line.value) && nameReadAs(line.name, panels, line.value));
  });
}

/**
 * Table lines naming a test laboratories print (a catalogue name) beside a result no reader could make
 * sense of: `BLOOD GROUP | QO`, a scan's `'O'`. Such a line is no result, but it is one seen and not read;
 * a label beside words (`Machine Name | KC 4 Delta`) names no test and is neither.
 */
function unreadTests(
  lines: readonly TableLine[],
  read: ReadonlySet<LineView>,
  counted: ReadonlySet<LineView>,
): LineView[] {
  return lines
    .filter((line) => line.doubtfulText && !read.has(line.view) && !counted.has(line.view))
    .filter((line) => isCatalogueName(line.name))
    .map((line) => line.view);
}

function isCatalogueName(name: string): boolean {
  const type = matchLoinc(name).loincMatchType;
  return type === 'exact' || type === 'biomarker_only';
}

function nameReadAs(name: string, panels: readonly ParsedPanel[], value: string): boolean {
  const key = name.toUpperCase().replace(/[^A-Z0-9]+/g, '');
  return panels.some((panel) =>
    panel.rows.some(
      (row) =>
        row.resultValue === value &&
        (row.biomarker
          .toUpperCase()
          .replace(/[^A-Z0-9]+/g, '')
          .includes(key) ||
          key.includes(row.biomarker.toUpperCase().replace(/[^A-Z0-9]+/g, ''))),
    ),
  );
}

function coverageOf(resultsRead: number, unread: number): Coverage {
  const seen = resultsRead + unread;
  return {
    resultsRead,
    resultLikeRows: seen,
    ratio: seen === 0 ? 0 : Math.round((resultsRead / seen) * 1000) / 1000,
  };
}

/** Without text items the raised code is part of the name: drop it by its shape. */
function stripUnraisedCodes(panels: ParsedPanel[], layout: DocumentLayout): void {
  if (layout.pages.some((page) => page.items.length > 0)) return;
  for (const panel of panels) {
    for (const row of panel.rows) row.biomarker = row.biomarker.replace(TRAILING_MARKS, '');
  }
}

/** What a panel of several results is called when the report prints no heading above them. */
export const UNTITLED_PANEL = 'Results';

/**
 * Results printed with no heading above them have no panel name on the page: several are not the first
 * one's panel (a CBC is not "Hemoglobin"), so they are `Results`. One alone is its own test, as a lab
 * prints a single test at the heading indent.
 */
function nameUntitledPanels(panels: ParsedPanel[]): void {
  for (const panel of panels) {
    if (panel.untitled && panel.rows.length > 1) panel.panelName = UNTITLED_PANEL;
    delete panel.untitled;
  }
}

/** One merge per later page a panel's rows continue on, counting the rows printed there. */
export function mergesOf(panel: ParsedPanel): MergeAction[] {
  const counts = new Map<number, number>();
  for (const row of panel.rows) {
    if (row.pageNumber !== panel.pageNumber)
      counts.set(row.pageNumber, (counts.get(row.pageNumber) ?? 0) + 1);
  }
  return [...counts].map(([fromPage, resultCount]) => ({
    action: 'merge_continued_panel',
    panelName: panel.panelName,
    panelCode: '',
    fromPage,
    intoPage: panel.pageNumber,
    resultCount,
  }));
}
