import type { ValueNote } from '../model/excluded.js';
import { DOMAIN_LABELS, inputLabel } from '../model/labels.js';
import { HEALTH_SCORE_METHOD } from '../model/methods.js';
import type { ReportModel } from '../model/model.js';
import { carriedInputs, missingLabel } from '../model/view.js';
import { formatDate, formatWhen } from './format.js';
import { addPage, type Doc, NOT_ADVICE, sectionTitle, spaceLeft } from './layout.js';
import { COLOR, CONTENT_WIDTH, FONT, PAGE, SIZE } from './theme.js';

function paragraph(
  doc: Doc,
  text: string,
  opts: { size?: number; color?: string; font?: string } = {},
): void {
  doc
    .font(opts.font ?? FONT.regular)
    .fontSize(opts.size ?? SIZE.body)
    .fillColor(opts.color ?? COLOR.ink)
    .text(text, PAGE.margin, doc.y, { width: CONTENT_WIDTH });
}

/** Domains of the latest event that could not be scored, and what they were missing. */
function coverage(model: ReportModel): string[] {
  return model.latest.domains
    .filter((d) => d.model === null)
    .map((d) =>
      // A chosen model that could not run says why in its reason (a value outside its range), not a gap.
      d.chosen_model
        ? `${DOMAIN_LABELS[d.domain]}: not computed. ${d.model_reason}`
        : `${DOMAIN_LABELS[d.domain]}: not computed; missing ${d.inputs_missing.map((input) => missingLabel(model, input)).join(', ') || 'inputs'}.`,
    );
}

/**
 * A citation as a reader needs it: up to its DOI. The coefficient files go on with notes for maintainers
 * (which public implementation settled a constant, file paths) that mean nothing on a patient's page.
 */
export function readerCitation(citation: string): string {
  const doi = /^(.*?\bdoi:\s*\S+?)\.(\s|$)/i.exec(citation);
  return doi ? `${doi[1]}.` : citation;
}

/** One heading and a bullet per line, on a new page when the space left would split it badly. */
function bulletList(doc: Doc, model: ReportModel, title: string, intro: string, lines: string[]): void {
  if (lines.length === 0) return;
  if (spaceLeft(doc) < 60) addPage(doc, model, 'Methods (continued)');
  paragraph(doc, title, { font: FONT.bold, size: SIZE.subheading });
  paragraph(doc, intro, { size: SIZE.small, color: COLOR.muted });
  if (fitsTwoColumns(doc, lines)) twoColumns(doc, lines);
  else
    for (const line of lines) {
      if (spaceLeft(doc) < 14) addPage(doc, model, 'Methods (continued)');
      paragraph(doc, `•  ${line}`, { size: SIZE.small });
    }
  doc.moveDown(0.7);
}

const COLUMN_GAP = 16;
const COLUMN_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2;
/** Fewer lines than this read better as one list. */
const MIN_COLUMN_LINES = 6;

/**
 * A long list of short lines ("Albumin: measured 6 Nov 2024." for every test of an earlier visit) takes
 * half the height side by side; a real two-visit history's list otherwise pushed the report's last
 * section and its notice onto a page of their own.
 */
function fitsTwoColumns(doc: Doc, lines: readonly string[]): boolean {
  if (lines.length < MIN_COLUMN_LINES) return false;
  doc.font(FONT.regular).fontSize(SIZE.small);
  if (lines.some((line) => doc.widthOfString(`•  ${line}`) > COLUMN_WIDTH)) return false;
  return Math.ceil(lines.length / 2) * doc.currentLineHeight(true) <= spaceLeft(doc);
}

function twoColumns(doc: Doc, lines: readonly string[]): void {
  const half = Math.ceil(lines.length / 2);
  const top = doc.y;
  let bottom = top;
  [lines.slice(0, half), lines.slice(half)].forEach((column, c) => {
    doc.y = top;
    for (const line of column)
      doc.text(`•  ${line}`, PAGE.margin + c * (COLUMN_WIDTH + COLUMN_GAP), doc.y, { width: COLUMN_WIDTH });
    bottom = Math.max(bottom, doc.y);
  });
  doc.x = PAGE.margin;
  doc.y = bottom;
}

const noteLine = (v: ValueNote) =>
  `${v.name}, ${formatWhen(v.date, v.event_age)}: ${v.value}${v.unit ? ` ${v.unit}` : ''} (${v.why}).`;

/** Values carried from earlier visits into the latest, values left out of the scores, doubted values used. */
function valueLists(doc: Doc, model: ReportModel): void {
  const carried = model.latest.domains.flatMap((d) => carriedInputs(model.latest, d.inputs_used));
  const unique = [...new Map(carried.map((c) => [c.input, c])).values()];
  bulletList(
    doc,
    model,
    'Values from earlier visits',
    `Your latest visit did not measure these; the most recent value from the ${model.lookback_months} months before it was used.`,
    unique.map((c) => `${inputLabel(c.input)}: measured ${formatWhen(c.date, c.age)}.`),
  );
  bulletList(
    doc,
    model,
    'Values left out of the scores',
    'Measured, but not used: a value that may have been misread, two different values on one date, or a unit that does not convert. Check them against the lab report; --use-doubtful scores doubted values.',
    model.excluded.map(noteLine),
  );
  bulletList(
    doc,
    model,
    'Doubted values used on request',
    'These may have been misread, and were scored because the report was asked to (--use-doubtful).',
    model.doubtful_used.map(noteLine),
  );
}

/** Methods and sources: every model cited, how scores are derived, what was missing, and the notice. */
export function drawMethodsPage(doc: Doc, model: ReportModel): void {
  addPage(doc, model, 'Methods');
  sectionTitle(
    doc,
    'Methods and sources',
    'Every number in this report comes from a published model, cited below.',
  );
  for (const method of model.methods) {
    if (spaceLeft(doc) < 60) addPage(doc, model, 'Methods (continued)');
    paragraph(doc, method.name, { font: FONT.bold, size: SIZE.subheading });
    paragraph(doc, method.what, { size: SIZE.small, color: COLOR.muted });
    doc.moveDown(0.15);
    paragraph(doc, readerCitation(method.citation), { size: SIZE.tiny });
    doc.moveDown(0.7);
  }
  if (spaceLeft(doc) < 110) addPage(doc, model, 'Methods (continued)');
  paragraph(doc, 'The model behind each domain (latest event)', { font: FONT.bold, size: SIZE.subheading });
  for (const domain of model.latest.domains) {
    if (spaceLeft(doc) < 24) addPage(doc, model, 'Methods (continued)');
    doc
      .font(FONT.bold)
      .fontSize(SIZE.small)
      .fillColor(COLOR.ink)
      .text(`${DOMAIN_LABELS[domain.domain]}: `, PAGE.margin, doc.y, {
        width: CONTENT_WIDTH,
        continued: true,
      })
      .font(FONT.regular)
      .text(domain.model_reason);
    doc.moveDown(0.15);
  }
  doc.moveDown(0.55);
  if (spaceLeft(doc) < 120) addPage(doc, model, 'Methods (continued)');
  paragraph(doc, 'Health score, health age and risk ratio', { font: FONT.bold, size: SIZE.subheading });
  paragraph(doc, HEALTH_SCORE_METHOD, { size: SIZE.small });
  doc.moveDown(0.7);
  const sources = [...new Set(model.biomarkers.flatMap((r) => (r.optimal ? [r.optimal.source] : [])))];
  if (sources.length > 0) {
    if (spaceLeft(doc) < 80) addPage(doc, model, 'Methods (continued)');
    paragraph(doc, 'Optimal ranges and percentiles', { font: FONT.bold, size: SIZE.subheading });
    paragraph(
      doc,
      'Percentiles compare your latest value with people of your sex and year of age in the US National Health and Nutrition Examination Survey (NHANES). Optimal ranges:',
      { size: SIZE.small },
    );
    for (const source of sources) {
      if (spaceLeft(doc) < 24) addPage(doc, model, 'Methods (continued)');
      paragraph(doc, `•  ${source}`, { size: SIZE.tiny });
    }
    doc.moveDown(0.7);
  }
  valueLists(doc, model);
  const gaps = coverage(model);
  if (gaps.length > 0) {
    paragraph(doc, 'What could not be computed', { font: FONT.bold, size: SIZE.subheading });
    for (const line of gaps) paragraph(doc, line, { size: SIZE.small });
    paragraph(doc, 'Missing inputs lower coverage; they are never filled in with assumed values.', {
      size: SIZE.small,
      color: COLOR.muted,
    });
    doc.moveDown(0.7);
  }
  drawClosing(doc, model);
}

const CLOSING = `${NOT_ADVICE} Population models describe groups of people; they cannot say what will happen to one person.`;
/** The boxed notice's height with the line under it, and one tiny line's. */
const BOXED_HEIGHT = 80;
const LINE_HEIGHT = 10;

/**
 * The closing notice and the scoring line. Page 1 and every footer already carry the notice, so where the
 * box does not fit it becomes a line beside the scoring version, rather than a page of its own (which a real
 * two-visit history's report got: the box alone on page 6).
 */
export function drawClosing(doc: Doc, model: ReportModel): void {
  const version = `Scoring version ${model.scoring_version}  ·  report date ${formatDate(model.asof)}  ·  reference ${model.request_event_id}`;
  if (spaceLeft(doc) < BOXED_HEIGHT && spaceLeft(doc) >= LINE_HEIGHT) {
    paragraph(doc, `Not medical advice: see page 1.  ·  ${version}`, { size: SIZE.tiny, color: COLOR.faint });
    return;
  }
  if (spaceLeft(doc) < BOXED_HEIGHT) addPage(doc, model, 'Methods (continued)');
  const y = doc.y;
  doc.roundedRect(PAGE.margin, y, CONTENT_WIDTH, 56, 6).fill(COLOR.warnLight);
  doc
    .font(FONT.bold)
    .fontSize(SIZE.body)
    .fillColor(COLOR.ink)
    .text('Not medical advice', PAGE.margin + 12, y + 10, { width: CONTENT_WIDTH - 24 });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.small)
    .text(CLOSING, { width: CONTENT_WIDTH - 24 });
  doc.y = y + 66;
  paragraph(doc, version, { size: SIZE.tiny, color: COLOR.faint });
}
