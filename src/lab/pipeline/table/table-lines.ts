/**
 * The lines of a page that belong to its results table, each read into its parts. A page with a header
 * row is read from that header down to its footer; each later header (Labcorp repeats one under every
 * panel heading) resets the columns. A page without a recognisable header is read in strict mode: only
 * lines that are unmistakably result rows by their content count, so a table drawn with header words we
 * never saw degrades to fewer results, not to none.
 */
import { cellKind, GENOTYPE, QUALITATIVE, startsName } from './cell-kind.js';
import { columnRole, readHeader, type TableHeader } from './header.js';
import { inferColumns, isCandidateRow } from './infer-columns.js';
import type { LineView } from './line.js';
import { type LineRead, readLine } from './row-reader.js';

export interface TableLine extends LineRead {
  header: TableHeader | null;
  /** Read without a header: only result-like lines are kept. */
  strict: boolean;
  /** Read with columns inferred from content, not named by header words: less sure than a header. */
  inferred: boolean;
  /**
   * The line just above a table's header, alone on its line: the table's heading wherever it is set
   * ("BIOCHEMISTRY" centred over the columns, as Indian laboratories print a department), not only at
   * the heading indent.
   */
  headsTable?: boolean;
}

const PAGE_NUMBER = /^(?:page\s+)?(\d+)\s*(?:of|\/)\s*(\d+)$|\bpage\s+(\d+)\s+of\s+(\d+)\b/i;

/**
 * `Page 2 of 3`, `2/3`: a page's number, at most its document's count. `22/04` (a date cut short by a
 * redaction box, or a day and month in a cell of their own) is no page number, and must not end the table.
 */
function isPageNumber(text: string): boolean {
  const found = PAGE_NUMBER.exec(text);
  if (!found) return false;
  const [page, count] = [found[1] ?? found[3], found[2] ?? found[4]] as [string, string];
  return !/^0/.test(count) && Number(page) >= 1 && Number(page) <= Number(count);
}
/** Blocks that follow the results: the performing sites and their directors. */
const AFTER_RESULTS = /^(performing\s+(site|sites|lab|labs|laboratory|laboratories|location)\b)/i;
/** A heading just above a table header is at most this many of its font sizes above it. */
const HEADING_GAP = 2.2;

export interface PageTable {
  lines: TableLine[];
  /** The page's last header, whose columns a following page without its own header continues. */
  lastHeader: TableHeader | null;
}

/**
 * Labcorp draws interpretive information (percentile scales, risk categories) under a rule of dashes or
 * underscores printed as text, and usually closes it with another: nothing in such a box is a result,
 * even where it looks like one. A box left open ends at the next table header or at the next row marked
 * as a result (a performing-site code or a raised mark after its name), and at the end of the page.
 */
const RULE = /^[-_]{10,}$/;

/**
 * A page's table lines. Lines above the page's first header (a panel continued from the previous page,
 * before the header is repeated) and pages without any header are read in strict mode, with the columns
 * of the previous page's header when there was one.
 */
export function tableLinesOf(pageViews: readonly LineView[], carried: TableHeader | null): PageTable {
  const headers = new Map(pageViews.map((view) => [view, readHeader(view)] as const));
  const views = outsideBoxes(pageViews, headers, carried);
  if (![...headers.values()].some((header) => header !== null)) {
    const inferred = inferredTable(views);
    if (inferred) return inferred;
  }
  const out: TableLine[] = [];
  let header: TableHeader | null = null;
  let signed = false;
  for (const [i, view] of views.entries()) {
    const found = headers.get(view) ?? null;
    if (found) {
      const above = views[i - 1];
      if (above && isHeadingAbove(above, view)) {
        const title = { ...tableLine(above, found, false), headsTable: true };
        if (!header) out.push(title);
        // A second table's title, read under the first table's columns (side-by-side.ts sets it there):
        // read again in its own table's columns.
        else if (out.at(-1)?.view === above && out.at(-1)?.name === '') out[out.length - 1] = title;
      }
      header = found;
      signed = false;
      continue;
    }
    // A block of signatures (names, degrees, titles) is no table: skipped up to the next header or row.
    if (isSignatureLine(view)) signed = true;
    else if (signed && looksLikeResult(view)) signed = false;
    if (signed) continue;
    if (!header) {
      const strict = strictLine(view, carried);
      if (strict) out.push(strict);
      continue;
    }
    if (endsTable(view)) break;
    out.push(tableLine(view, header, false));
  }
  return { lines: out, lastHeader: header ?? carried };
}

/** The page without its rules and what they box in. */
function outsideBoxes(
  views: readonly LineView[],
  headers: ReadonlyMap<LineView, TableHeader | null>,
  carried: TableHeader | null,
): LineView[] {
  const out: LineView[] = [];
  let header = carried;
  let inBox = false;
  let dropped: LineView | null = null;
  for (const view of views) {
    if (view.cells.length === 1 && RULE.test(view.cells[0]?.text.trim() ?? '')) {
      inBox = !inBox;
      continue;
    }
    const found = headers.get(view) ?? null;
    if (inBox && !found && !isMarkedRow(view, header)) {
      dropped = view;
      continue;
    }
    // A box left open ends at the next table header, and the panel heading just above that header
    // belongs to the new table, not to the box.
    if (inBox && found && dropped && isHeadingAbove(dropped, view)) out.push(dropped);
    inBox = false;
    dropped = null;
    header = found ?? header;
    out.push(view);
  }
  return out;
}

/**
 * A page whose header words we do not know: columns inferred from the rows' content, read from just under
 * the line that heads them (or from the first row) to the page's footer.
 */
function inferredTable(views: readonly LineView[]): PageTable | null {
  const header = inferColumns(views);
  if (!header) return null;
  const first = views.findIndex(isCandidateRow);
  if (first < 0) return null;
  let start = first;
  for (let i = first - 1; i >= 0; i--) {
    if (isHeaderLike(views[i] as LineView)) {
      start = i + 1;
      break;
    }
  }
  if (start === first && first > 0 && isHeadingAbove(views[first - 1] as LineView, views[first] as LineView))
    start = first - 1;
  const lines: TableLine[] = [];
  let signed = false;
  for (const view of views.slice(start)) {
    if (endsTable(view)) break;
    if (isSignatureLine(view)) signed = true;
    else if (signed && looksLikeResult(view)) signed = false;
    if (!signed) lines.push(tableLine(view, header, false, true));
  }
  return { lines, lastHeader: header };
}

/** Column labels: three or more cells of words, none a result word or a `Label: value` pair. */
function isHeaderLike(view: LineView): boolean {
  return (
    view.cells.length >= 3 &&
    view.cells.every((cell) => cellKind(cell.text) === 'text' && !QUALITATIVE.test(cell.text.trim()))
  );
}

function isColumnWord(text: string): boolean {
  const role = columnRole(text);
  return role !== null && role !== 'name';
}

/** A row that carries the marks of a result: a value, and a site code or a raised mark after its name. */
function isMarkedRow(view: LineView, header: TableHeader | null): boolean {
  if (!header) return false;
  const line = readLine(view, header);
  return line.name !== '' && line.value !== null && (line.labCode || view.raised.length > 0);
}

function tableLine(view: LineView, header: TableHeader | null, strict: boolean, inferred = false): TableLine {
  return { ...readLine(view, header), header, strict, inferred };
}

/** Outside a header's table, only what is unmistakably a result row or a continued panel's heading. */
function strictLine(view: LineView, carried: TableHeader | null): TableLine | null {
  if (looksLikeResult(view)) return tableLine(view, carried, true);
  if (carried && view.cells.length === 1 && CONTINUED_HEADING.test(view.cells[0]?.text ?? ''))
    return tableLine(view, carried, true);
  return null;
}

/**
 * The cells of the block where the laboratory's doctors sign a report (Indian and hospital layouts print it
 * as a grid under the results): a doctor's name, a list of degrees, or a title.
 */
const SIGNATORY = /^Dr\.?\s*[A-Z][a-z]/;
const DEGREES = /^(?:MD|MBBS|DNB|DM|PhD|DCP|DPB|DCH|FRCPath|MNAMS|FCAP|DMLT|MSc|M\.Sc)\b(?![-/])/;
const TITLE =
  /\b(?:consultant|pathologist|biochemist|microbiologist|haematologist|hematologist|technical\s+(?:director|lead|head)|(?:lab(?:oratory)?|medical)\s+director|head\s+of\s+(?:the\s+)?department|hod|(?:senior|junior)\s+resident|authori[sz]ed\s+signatory)\b/i;

function isSignatureCell(text: string): boolean {
  const t = text.trim();
  return SIGNATORY.test(t) || DEGREES.test(t) || TITLE.test(t);
}

/**
 * A line of a signature block: two of its cells signatures, or one cell alone that is degrees or a title
 * ("MD, Pathology", "Consultant Pathologist"). A doctor's name alone is not enough: a lone cell is no row.
 */
export function isSignatureLine(view: Pick<LineView, 'cells'>): boolean {
  const signed = view.cells.filter((cell) => isSignatureCell(cell.text));
  if (signed.length >= 2) return true;
  const [only] = view.cells;
  return (
    view.cells.length === 1 && only !== undefined && (DEGREES.test(only.text.trim()) || TITLE.test(only.text))
  );
}

const CONTINUED_HEADING = /\((cont\.?|continued)\)\s*$/i;
/** What a spreadsheet takes for the start of a formula, before a name. */
const FORMULA_OPENING = /^[=+\-@]+\s*/;

function endsTable(view: LineView): boolean {
  const first = view.cells[0]?.text.trim() ?? '';
  if (AFTER_RESULTS.test(first)) return true;
  return view.cells.some((cell) => isPageNumber(cell.text.trim()));
}

function isHeadingAbove(previous: LineView, headerLine: LineView): boolean {
  if (previous.cells.length !== 1) return false;
  // A heading set larger than the header (Labcorp: 12 pt over 8 pt) stands further above it: the gap
  // scales with the larger of the two.
  const size = Math.max(headerLine.font ?? 0, previous.font ?? 0) || 10;
  return headerLine.y - previous.y <= HEADING_GAP * size;
}

/**
 * What any reader would take for a result row, whatever the layout: a test name, then a number of its
 * own, then a unit or a reference range in a cell of its own, or a genotype. Interpretive text ("Males: 0.3-13.4
 * ng/mL"), band tables ("Moderate 1000 - 1299") and labels ("Age: 40") do not qualify.
 */
export function looksLikeResult(view: Pick<LineView, 'cells'>): boolean {
  const [first, ...rest] = view.cells;
  if (!first || rest.length === 0) return false;
  // A name behind a formula's opening ("=HYPERLINK(...)", "@SUM(...)", "-cmd|calc") is never read as a
  // test (no name starts so), but the line still looks like a result: it is flagged and counted unread.
  const name = first.text.trim().replace(FORMULA_OPENING, '');
  if (!startsName(name) || (name.match(/[A-Za-z]/g) ?? []).length < 2) return false;
  // "In Range  17.0 g/dL" on a dashboard printout: a column word, not a test.
  if (cellKind(name) !== 'text' || isColumnWord(name)) return false;
  if (rest.some((cell) => isPageNumber(cell.text.trim()))) return false;
  // A genotype beside a name is a result with no unit or range to show it (`Myopathy  T/T`).
  if (rest.some((cell) => GENOTYPE.test(cell.text.trim()))) return true;
  const kinds = rest.map((cell) => cellKind(cell.text));
  if (kinds.includes('valueUnit')) return true;
  const valueAt = kinds.findIndex((kind) => kind === 'number' || kind === 'valueFlag');
  if (valueAt < 0) return false;
  // Labs print the range before the result as often as after it.
  return kinds.some(
    (kind, i) =>
      i !== valueAt && (kind === 'unit' || kind === 'rangeUnit' || kind === 'interval' || kind === 'bounded'),
  );
}
