/**
 * OCR fallback for PDFs without a text layer (scans): each page's image, cleaned of specks and enlarged
 * if coarse (ocr-images.ts, ocr-clean.ts), read by tesseract within a budget (ocr-page.ts), words with
 * positions from its hOCR (ocr-hocr.ts), and the same DocumentLayout the text layer gives, so every later
 * stage (the table reader included) works unchanged; rows read so are put right against the catalogues
 * afterwards (ocr-rows.ts). Both tools are optional system packages; without them a scan fails with
 * `no_text_layer` and a message that says what to install.
 *
 * The page images hold everything the document prints, PHI included, so they live in a private temporary
 * folder that is removed whatever happens.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { AssayError, EXIT } from '../../../errors.js';
import { buildLines, round, type TextItem } from '../pdf/layout.js';
import type { DocumentLayout, PageLayout } from '../pdf/pdf-text.js';
import { QUALITATIVE } from '../table/cell-kind.js';
import { withoutColonMark } from './colon-mark.js';
import { alignDriftingColumns, pageDrifts } from './drift.js';
import { type Box, type HocrChar, type HocrLine, type HocrPage, type HocrWord, parseHocr } from './hocr.js';
import { planPageImages, RASTER_DPI, type WrittenImage, writePageImage } from './images.js';
import { median } from './median.js';
import { withNarrowFoursAsOnes } from './narrow-four.js';
import { mayLieOnItsSide, uprightTurn, writeTurned } from './orientation.js';
import { OcrTimeoutError, ocrPage } from './page.js';
import { repairOcrWord } from './repair.js';
import { withSpacedDashes } from './spaced-dash.js';
import { withSplitRangesJoined } from './split-ranges.js';

export class NoTextLayerError extends AssayError {
  constructor(detail = 'OCR is not available on this machine', what = 'has no text layer (a scan)') {
    super('no_text_layer', `The PDF ${what} and ${detail}.`, {
      exitCode: EXIT.jobFailed,
      suggestions: [
        'Install poppler-utils (pdftoppm) and tesseract-ocr so scans can be OCRed, then submit it again.',
      ],
    });
  }
}

/** Words tesseract is less sure of than this (0-100) are dropped as noise. */
const MIN_CONFIDENCE = 30;

let available: Promise<boolean> | undefined;

/** Whether pdftoppm and tesseract both run here; asked once per process. */
export function ocrAvailable(): Promise<boolean> {
  available ??= Promise.all([runs('pdftoppm', ['-v']), runs('tesseract', ['--version'])]).then(
    ([a, b]) => a && b,
  );
  return available;
}

async function runs(command: string, args: string[]): Promise<boolean> {
  try {
    await execa(command, args, { timeout: 10_000, stdio: 'ignore' });
    return true;
  } catch (error) {
    // pdftoppm -v exits non-zero on some poppler versions; only a missing binary means "not available".
    return (error as { code?: string }).code !== 'ENOENT';
  }
}

/** What is wrong with the text layer, for the error a failed OCR gives. */
export type OcrReason = 'no_text_layer' | 'unreadable_text';

const WHAT: Record<OcrReason, string> = {
  no_text_layer: 'has no text layer (a scan)',
  unreadable_text: 'has a text layer that cannot be read (fonts without a character map)',
};

export interface OcrOptions {
  signal?: AbortSignal;
  reason?: OcrReason;
  /** Called as each page is read, for progress on long scans. */
  onPage?: (done: number, total: number) => void;
}

/**
 * Reads every page's image, as many pages at a time as the machine has cores (each tesseract runs one
 * thread), and builds the layout the text layer would have given.
 */
export async function ocrLayout(
  pdf: Uint8Array,
  pageCount: number,
  opts: OcrOptions = {},
): Promise<DocumentLayout> {
  const { signal, reason = 'no_text_layer' } = opts;
  if (!(await ocrAvailable())) throw new NoTextLayerError(undefined, WHAT[reason]);
  const dir = await mkdtemp(join(tmpdir(), 'assay-ocr-'));
  try {
    await writeFile(join(dir, 'input.pdf'), pdf, { mode: 0o600 });
    const images = await planPageImages(dir, pageCount, signal);
    let done = 0;
    const pages = await mapLimited(images, availableParallelism(), async (image) => {
      const written = await writePageImage(dir, image, signal);
      const page = await readPage(dir, written, image.pageNumber, signal);
      opts.onPage?.(++done, images.length);
      return page;
    });
    return { pages, hasTextLayer: pages.some((page) => page.items.length > 0) };
  } catch (error) {
    if (error instanceof NoTextLayerError || error instanceof OcrTimeoutError) throw error;
    signal?.throwIfAborted();
    // Tool output can quote the document; only say which step failed.
    throw new NoTextLayerError('OCR of it failed', WHAT[reason]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The page read row by row as it lies; where few of its words read surely, turned upright if tesseract can
 * tell which way is up (orientation.ts), and read again. The turned reading has no dark fills marked
 * (their boxes were found on the page as it lay).
 */
async function uprightRows(
  dir: string,
  written: WrittenImage,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<{ rows: HocrPage; image: WrittenImage }> {
  const rows = parseHocr(await ocrPage(dir, written.file, pageNumber, written.dpi, signal));
  if (!mayLieOnItsSide(rows)) return { rows, image: written };
  const turn = await uprightTurn(dir, written.file, signal);
  const file = turn === 0 ? null : await writeTurned(dir, written.file, turn);
  if (!file) return { rows, image: written };
  const image = { file, dpi: written.dpi };
  return { rows: parseHocr(await ocrPage(dir, file, pageNumber, image.dpi, signal)), image };
}

/**
 * The page read row by row; where its columns drift apart (a phone photo held at an angle: drift.ts), read
 * again as blocks and each column put back on the names' rows. Only such pages pay for the second reading,
 * and the first stands where no column can be put back.
 */
async function readPage(
  dir: string,
  written: WrittenImage,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<PageLayout> {
  const { rows, image } = await uprightRows(dir, written, pageNumber, signal);
  const page = pageFromHocr(rows, pageNumber, image.dpi, image.turned);
  if (!pageDrifts(rows)) return page;
  const blocks = await ocrPage(dir, image.file, pageNumber, image.dpi, signal, undefined, 'blocks');
  const read = pageFromHocr(blocks, pageNumber, image.dpi, image.turned);
  const aligned = alignDriftingColumns(read.items);
  return aligned ? { ...read, items: aligned, lines: buildLines(aligned).map(withSplitRangesJoined) } : page;
}

/** Maps with at most `limit` calls in flight, keeping the input order in the result. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

/**
 * A page of tesseract's hOCR (ocr-hocr.ts) as text items in PDF points, the baseline of each at its
 * line's, straightened. A word's confidence is its least sure character's. Small marks raised above a
 * line's baseline are split from the word they are glued to and kept as raised items, as the text layer
 * keeps Labcorp's footnote marks apart from the names they follow.
 */
export function pageFromHocr(
  hocr: string | HocrPage,
  pageNumber: number,
  dpi = RASTER_DPI,
  turned: readonly Box[] = [],
): PageLayout {
  const scale = 72 / dpi;
  const parsed = withSpacedDashes(typeof hocr === 'string' ? parseHocr(hocr) : hocr);
  const body = median(parsed.lines.filter((l) => l.words.length >= 2).map((l) => l.size));
  const words: OcrWord[] = [];
  // Values set after colons ("Name : 16900"), the layout narrow fours were measured in (narrow-four.ts).
  const colonLayout = parsed.lines.reduce((n, line) => n + valuesAfterColons(line), 0) >= COLON_LAYOUT;
  parsed.lines.forEach((line, n) => {
    const size = body !== null && Math.abs(line.size - body) <= SAME_SIZE * body ? body : line.size;
    const printed = median(line.words.filter((w) => w.chars.length >= 2).map(heightOf));
    line.words.forEach((word, at) => {
      if (at < line.words.length - 1 && isPenMark(word, line.words[at - 1], printed)) return;
      const afterName = continuesName(line.words[at - 1], word, line);
      const apart = standsApart(line.words[at - 1], word, line);
      for (const split of splitRaised(word, line, afterName, apart).flatMap((p) =>
        splitFlagLetter(p, line),
      )) {
        const colonless = split.raised ? null : withoutColonMark(split.chars, colonLayout);
        const ones = split.raised || !colonLayout ? null : withNarrowFoursAsOnes(colonless ?? split.chars);
        const part = ones || colonless ? { ...split, chars: ones ?? colonless ?? split.chars } : split;
        const read = withoutRules(withPowers(part, line).trim());
        const box = boxOf(part.chars);
        const least = Math.min(...part.chars.map((c) => c.conf));
        const conf = turned.some((fill) => holds(fill, box)) ? Math.min(least, TURNED_CONFIDENCE) : least;
        const rangeDash = isRangeDash(read, line.words[at - 1], line.words[at + 1], line.size);
        const text = rangeDash && read === '=' ? '-' : read;
        if (text === '' || conf < MIN_CONFIDENCE || (!part.raised && isSpeck(text) && !rangeDash)) continue;
        const [left, top] = [box.left, box.top];
        const [w, h] = [box.right - box.left, box.bottom - box.top];
        words.push({
          text,
          line: String(n),
          left,
          top,
          w,
          h,
          conf,
          size,
          raised: part.raised,
          colonDropped: !!colonless || !!ones,
          inName: afterName,
        });
      }
    });
  });
  const straight = straighten(words, parsed.width, parsed.height);
  const items: TextItem[] = words.map((word, i) => {
    // A name's own word is as printed: "Vitamin D3" is no "Vitamin 03", "O2 Saturation" no "02".
    const repair =
      word.raised || word.inName ? { text: word.text, repaired: false } : repairOcrWord(word.text);
    return {
      str: repair.text,
      confidence: Math.round(word.conf),
      ...(repair.repaired || word.colonDropped ? { repaired: true } : {}),
      ...(word.raised ? { raised: true } : {}),
      x: round((straight.x[i] ?? word.left) * scale),
      y: round((straight.baseline[i] ?? word.top + word.h) * scale),
      width: round(word.w * scale),
      height: round(word.h * scale),
      fontSize: round((word.raised ? word.h / RAISED_HEIGHT : word.size) * scale),
    };
  });
  return {
    pageNumber,
    width: round(parsed.width * scale),
    height: round(parsed.height * scale),
    items,
    lines: buildLines(items).map(withSplitRangesJoined),
  };
}

/**
 * Light print turned dark on light (dark-fills.ts) reads less surely than print on paper: on a Boston
 * Heart report printed as a noisy scan, about half the values read from its filled cells were wrong
 * (`101` as `109`, `0.4` as `94`). A word read there counts as read with low confidence, so its row is
 * doubted (under the 80 a value needs to be trusted without a look), never dropped (30).
 */
const TURNED_CONFIDENCE = 60;

/** Whether the word's centre lies in the box. */
function holds(box: Box, word: Box): boolean {
  const [x, y] = [(word.left + word.right) / 2, (word.top + word.bottom) / 2];
  return x >= box.left && x < box.right && y >= box.top && y < box.bottom;
}

/** Lines whose font size is within this fraction of the page's body size are set in it. */
const SAME_SIZE = 0.12;
/** A raised mark is smaller than this fraction of its line's font size ... */
const RAISED_HEIGHT = 0.62;
/** ... and its bottom sits at least this fraction of the font size above the baseline. */
const RAISED_LIFT = 0.12;
/** Dashes, comparators and the like sit above the baseline by nature; they are no marks. */
const NEVER_RAISED = /^[-\u2010-\u2015=~+.,<>\u2264\u2265]$/u;

interface Part {
  chars: HocrChar[];
  raised: boolean;
}

/**
 * A word as printed and the raised mark at its end, if it has one. A mark is split from a name (two
 * letters or more, no digit: "Glucose" + "01"), never from a number or unit ("1.73m2"); a word raised
 * whole is a mark on its own; raised quotes and specks at either end of any word are dropped.
 */
function splitRaised(word: HocrWord, line: HocrLine, afterName: boolean, apart = false): Part[] {
  const raised = word.chars.map((c) => isRaisedChar(c, line));
  // "4." for a mark "01": a full stop or dash sits high or low by nature, so it decides nothing.
  const whole = word.chars.every((c, i) => raised[i] || NEVER_RAISED.test(c.text));
  // A word of letters, or a number, a column's width from the word before it marks nothing: it is a cell
  // of its own (a result set high where the line's baseline bends, or where a tick drawn beside the value
  // swells the line), not a footnote mark, which is glued to what it marks.
  const text = word.chars.map((c) => c.text).join('');
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const cellWord = (letters >= 2 && letters === word.chars.length) || CELL_NUMBER.test(text);
  if (whole && apart && cellWord) return [{ chars: word.chars, raised: false }];
  if (whole && raised.some(Boolean)) return [{ chars: word.chars, raised: true }];
  let end = word.chars.length;
  while (end > 0 && raised[end - 1]) end--;
  let start = 0;
  while (start < end && raised[start] && !isAlnum(word.chars[start] as HocrChar)) start++;
  const kept = word.chars.slice(start, end);
  const tail = word.chars.slice(end);
  const parts: Part[] = [{ chars: kept, raised: false }];
  if (tail.length === 0) return parts;
  const keptText = kept.map((c) => c.text).join('');
  // "Ni" + a high "l": a result word whose ascender sits above a skewed baseline, not a marked name.
  const wholeText = word.chars.map((c) => c.text).join('');
  if (start === 0 && QUALITATIVE.test(wholeText) && !QUALITATIVE.test(keptText))
    return [{ chars: word.chars, raised: false }];
  const isName = (keptText.match(/\p{L}/gu) ?? []).length >= 2 && !/[\d/]/.test(keptText);
  // "Beta-amyloid 42" + "5%": a name's number, a word apart from the name, carries marks as the name would.
  const isNameNumber = afterName && /^\d{1,3}$/.test(keptText);
  if (isName || isNameNumber) parts.push({ chars: tail, raised: true });
  else if (tail.some(isAlnum)) parts[0] = { chars: word.chars.slice(start), raised: false };
  return parts;
}

/** A number of two digits or more, or with a decimal point: a lone digit apart may be a pen's speck. */
const CELL_NUMBER = /^(?:\d{2,}|\d+[.,]\d+)$/;

/** Words of one name are at most this many font sizes apart. */
const NAME_GAP = 0.6;

/** The word follows a word of letters at a space's distance: it is part of the same name. */
function continuesName(previous: HocrWord | undefined, word: HocrWord, line: HocrLine): boolean {
  const last = previous?.chars.at(-1);
  const first = word.chars[0];
  if (!previous || !last || !first || !/\p{L}{2}/u.test(previous.chars.map((c) => c.text).join('')))
    return false;
  return /\p{L}/u.test(last.text) && first.box.left - last.box.right <= NAME_GAP * line.size;
}

/** Cells of a table row are at least this many font sizes apart. */
const CELL_GAP = 3;

/** The word stands a cell's distance from the one before it on its line. */
function standsApart(previous: HocrWord | undefined, word: HocrWord, line: HocrLine): boolean {
  const last = previous?.chars.at(-1);
  const first = word.chars[0];
  if (!last || !first) return false;
  return first.box.left - last.box.right >= CELL_GAP * line.size;
}

/** A space is at least this fraction of the font size; letters of a word sit closer. */
const SPACE_GAP = 0.22;
/** Quest's flags, printed a space after the value in the out-of-range column. */
const FLAG_LETTER = /^[HLA]$/;
const NUMBER_LIKE = /^[<>]?[\d.,+-]*\d[\d.,+-]*$/;

/**
 * A value and its flag read as one word ("120H", "HAZYA", "1+A"): tesseract drops the space when the
 * flag sits close. Split where a space's gap separates a last H, L or A from a number or a word result;
 * "NORMAL" keeps its L, set at a letter's distance.
 */
function splitFlagLetter(part: Part, line: HocrLine): Part[] {
  const { chars } = part;
  const last = chars.at(-1);
  const before = chars.at(-2);
  if (part.raised || !last || !before || !FLAG_LETTER.test(last.text)) return [part];
  if (last.box.left - before.box.right < SPACE_GAP * line.size) return [part];
  const value = chars
    .slice(0, -1)
    .map((c) => c.text)
    .join('');
  if (!NUMBER_LIKE.test(value) && !QUALITATIVE.test(value)) return [part];
  return [
    { chars: chars.slice(0, -1), raised: false },
    { chars: [last], raised: false },
  ];
}

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** A power of ten opening a unit: `x10`, `×10` or `10`, then the exponent, then the rest of the unit. */
const POWER_UNIT = /^([x×X]?10)(\d{1,2})(?=[/\p{L}]|$)/u;

/**
 * A part's text, with the exponent of a power of ten printed raised (`x10³/µl`, `x10⁹/L`) written as the
 * superscript it is: read as plain digits, `x10³` would say `x103`, a thousand times more.
 */
function withPowers(part: Part, line: HocrLine): string {
  const text = part.chars.map((c) => c.text).join('');
  const power = part.raised || part.chars.some((c) => c.text.length !== 1) ? null : POWER_UNIT.exec(text);
  if (!power) return text;
  const [base = '', exponent = ''] = [power[1], power[2]];
  const digits = part.chars.slice(base.length, base.length + exponent.length);
  const baseRaised = part.chars.slice(0, base.length).some((c) => isRaisedChar(c, line));
  if (baseRaised || !digits.every((c) => isRaisedChar(c, line))) return text;
  const raised = [...exponent].map((d) => SUPERSCRIPTS[Number(d)] ?? d).join('');
  return base + raised + text.slice(base.length + exponent.length);
}

function isRaisedChar(c: HocrChar, line: HocrLine): boolean {
  if (NEVER_RAISED.test(c.text)) return false;
  const lift = line.baselineAt((c.box.left + c.box.right) / 2) - c.box.bottom;
  return c.box.bottom - c.box.top < RAISED_HEIGHT * line.size && lift > RAISED_LIFT * line.size;
}

const isAlnum = (c: HocrChar): boolean => /[\p{L}\p{Nd}]/u.test(c.text);

function boxOf(chars: readonly HocrChar[]): Box {
  return {
    left: Math.min(...chars.map((c) => c.box.left)),
    top: Math.min(...chars.map((c) => c.box.top)),
    right: Math.max(...chars.map((c) => c.box.right)),
    bottom: Math.max(...chars.map((c) => c.box.bottom)),
  };
}

/** Underscores at either end of a word, with any dashes among them. */
const RULE_ENDS = /^[-_]*_[-_]*|[-_]*_[-_]*$/g;

/**
 * An underline or a rule under a word is read as underscores glued to it ("R-__"); no result, name or unit
 * ends in one. Left on, they spoil the word for every later reader (a patient's name no longer reads as
 * one, so the PHI stage takes the line under it for the name, and redacts the table's header).
 */
function withoutRules(text: string): string {
  return /[\p{L}\p{Nd}]/u.test(text) ? text.replace(RULE_ENDS, '') : text;
}

/**
 * Marks with no letter or digit (`.`, `-`, `_`, `:`, `©`, `°`) are what noise on a scan reads as; as
 * cells of their own they push values into the wrong columns. A lone `%` or `<` is kept: it is a unit or
 * a comparator.
 */
const heightOf = (word: HocrWord): number => word.box.bottom - word.box.top;

/** A word this many times as tall as its line's printed words was drawn, not printed. */
const PEN_TALL = 1.8;

/**
 * A tick or stroke drawn by hand beside a value (a doctor's check mark on a phone photo) reads as a letter
 * or three (`WA`), often with high confidence; it stands out by its height, twice the print's or more. Left
 * in, it sat between the value and its unit and made the row a table of bands. Only a word right after a
 * number with another word after it is asked: tall letters elsewhere (a logo, a stamp) are left to the
 * readers that place the page's columns, which they steer.
 */
function isPenMark(word: HocrWord, previous: HocrWord | undefined, printed: number | null): boolean {
  if (printed === null || heightOf(word) < PEN_TALL * printed) return false;
  if (!previous || !NUMBER_LIKE.test(previous.chars.map((c) => c.text).join(''))) return false;
  return /^\p{L}{1,3}$/u.test(word.chars.map((c) => c.text).join(''));
}

function isSpeck(text: string): boolean {
  return !/[\p{L}\p{Nd}%<>+]/u.test(text);
}

/** The bounds either side of a range's dash are at most this many font sizes apart. */
const RANGE_DASH_GAP = 2.5;
const BOUND_WORD = /^[<>]?[\dOoIl|S§]*\d[\dOoIl|S§.,]*$/;

/**
 * `20 - 500`: the dash of a range printed with spaces is a word of its own, which would be dropped as a
 * speck, leaving two numbers where one range was printed. A dash kept is one between two numbers (as read,
 * or with digits OCR confuses), close to both; it reads as a hyphen. A typewriter's dash on a phone photo
 * can read as `=`: nothing else puts an equals sign between two bounds.
 */
function isRangeDash(
  text: string,
  before: HocrWord | undefined,
  after: HocrWord | undefined,
  size: number,
): boolean {
  if (!/^[-\u2010-\u2015~=]$/u.test(text) || !before || !after) return false;
  const word = (w: HocrWord): string => w.chars.map((c) => c.text).join('');
  return (
    BOUND_WORD.test(word(before)) &&
    BOUND_WORD.test(word(after)) &&
    after.box.left - before.box.right <= RANGE_DASH_GAP * size
  );
}

interface OcrWord {
  text: string;
  /** The line tesseract read the word on. */
  line: string;
  left: number;
  top: number;
  w: number;
  h: number;
  conf: number;
  /** The line's font size, in pixels. */
  size: number;
  raised: boolean;
  /** A colon read into the front of the number was dropped (colon-mark.ts), or a one read as a four put back (narrow-four.ts). */
  colonDropped: boolean;
  /** The word follows a word of letters at a space's distance: a later word of a name. */
  inName: boolean;
}

/** A word that is a colon alone (tesseract boxes the colon before a value apart from it). */
function isColonWord(word: HocrWord): boolean {
  return /^[:;]+$/.test(word.chars.map((c) => c.text).join(''));
}

/** Values after a colon standing alone that make a page a "Name : value" layout. */
const COLON_LAYOUT = 3;

/** How many of the line's numbers follow a colon standing alone (a scan's specks are no such colons). */
function valuesAfterColons(line: HocrLine): number {
  return line.words.filter(
    (word, i) => i > 0 && isColonWord(line.words[i - 1] as HocrWord) && /^\d/.test(word.chars[0]?.text ?? ''),
  ).length;
}

/** Lines shorter than this (pixels) say little about the page's slope. */
const MIN_SLOPE_SPAN = 200;

/**
 * Word positions on a page turned straight: one baseline per line tesseract read, and left edges that do
 * not drift down the page. A scan printed a degree askew drifts a table row by more than a line's height
 * across the page, so grouping words by their own y would split the row (tesseract follows the slant
 * itself), and moves a column's left edge by several points from the top of the page to the bottom, so
 * indents would say nothing. The page's slope (the median of its long lines' slopes) is taken out, and
 * every word of a line gets the line's median baseline.
 */
function straighten(
  words: readonly OcrWord[],
  pageWidth: number,
  pageHeight: number,
): { x: number[]; baseline: number[] } {
  const byLine = new Map<string, number[]>();
  words.forEach((word, i) => {
    byLine.set(word.line, [...(byLine.get(word.line) ?? []), i]);
  });
  const slopes: number[] = [];
  for (const members of byLine.values()) {
    const slope = fittedSlope(members.map((i) => words[i] as OcrWord).filter((w) => !w.raised));
    if (slope !== null) slopes.push(slope);
  }
  const slope = median(slopes) ?? 0;
  const [cx, cy] = [pageWidth / 2, pageHeight / 2];
  const straight = words.map((word) => word.top + word.h - slope * (word.left + word.w / 2 - cx));
  const baseline = new Array<number>(words.length);
  for (const members of byLine.values()) {
    // A raised mark's bottom is above the line's baseline: the line's own words say where that is.
    const printed = members.filter((i) => !(words[i] as OcrWord).raised);
    const line = median((printed.length > 0 ? printed : members).map((i) => straight[i] as number)) ?? 0;
    for (const i of members) baseline[i] = line;
  }
  const x = words.map((word) => word.left + slope * (word.top + word.h / 2 - cy));
  return { x, baseline };
}

/** Least-squares slope of word centres along one line, or null for a short line. */
function fittedSlope(line: readonly OcrWord[]): number | null {
  if (line.length < 3) return null;
  const xs = line.map((w) => w.left + w.w / 2);
  const ys = line.map((w) => w.top + w.h / 2);
  if (Math.max(...xs) - Math.min(...xs) < MIN_SLOPE_SPAN) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] ?? 0) - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? null : num / den;
}
