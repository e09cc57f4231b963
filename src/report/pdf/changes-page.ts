import type { DomainName, DomainScore, EventScore } from '../../scoring/types.js';
import { DOMAIN_LABELS } from '../model/labels.js';
import type { ReportModel } from '../model/model.js';
import { carriedInputs, domainOf } from '../model/view.js';
import { formatAge, formatRatio, formatScore, formatSigned, formatValue, formatWhen } from './format.js';
import { addPage, type Doc, sectionTitle, spaceLeft } from './layout.js';
import { COLOR, CONTENT_WIDTH, DOMAIN_COLOR, FONT, PAGE, SIZE } from './theme.js';

interface Measure {
  label: string;
  pick: (d: DomainScore) => number | null;
  format: (v: number | null) => string;
  digits: number;
  /** Whether a rise is good news: colours the change. */
  higherIsBetter: boolean | null;
}

const SCORED: Measure[] = [
  {
    label: 'Health score',
    pick: (d) => d.health_score,
    format: formatScore,
    digits: 1,
    higherIsBetter: true,
  },
  { label: 'Health age', pick: (d) => d.health_age, format: formatAge, digits: 1, higherIsBetter: false },
  { label: 'Risk ratio', pick: (d) => d.risk_ratio, format: formatRatio, digits: 2, higherIsBetter: false },
];
const VALUE: Measure = {
  label: 'Value',
  pick: (d) => d.value,
  format: formatValue,
  digits: 2,
  higherIsBetter: null,
};

const COLS = [130, 100, 90, 90, 106] as const;
const colX = (i: number) => PAGE.margin + COLS.slice(0, i).reduce((a, b) => a + b, 0);

function changeColor(change: number | null, higherIsBetter: boolean | null): string {
  if (change === null || higherIsBetter === null || Math.abs(change) < 1e-9) return COLOR.ink;
  return change > 0 === higherIsBetter ? COLOR.good : COLOR.warn;
}

function header(doc: Doc, previousLabel: string, firstLabel: string | null): void {
  const y = doc.y;
  doc.rect(PAGE.margin, y, CONTENT_WIDTH, 18).fill(COLOR.panel);
  doc.font(FONT.bold).fontSize(SIZE.tiny).fillColor(COLOR.muted);
  const titles = ['DOMAIN', 'MEASURE', previousLabel, 'LATEST', 'CHANGE'];
  titles.forEach((t, i) => {
    doc.text(t, colX(i) + 6, y + 6, { width: (COLS[i] ?? 80) - 8, lineBreak: false });
  });
  if (firstLabel) doc.text(firstLabel, colX(4) + 56, y + 6, { lineBreak: false });
  doc.y = y + 22;
}

/** Rows for one domain: previous, latest, change since previous and (with 3+ events) since the first. */
function domainRows(doc: Doc, model: ReportModel, domain: DomainName): void {
  const latest = domainOf(model.latest, domain);
  const previous = model.previous ? domainOf(model.previous, domain) : undefined;
  const firstEvent = model.events.length > 2 ? model.events[0] : undefined;
  const first = firstEvent ? domainOf(firstEvent, domain) : undefined;
  if (!latest) return;
  const measures = latest.health_score !== null || previous?.health_score != null ? SCORED : [VALUE];
  // Scored only from values carried from before, a domain has not changed: age alone moved its numbers.
  const fresh = remeasured(model.latest, latest);
  measures.forEach((m, i) => {
    const y = doc.y;
    if (i === 0) {
      doc.rect(PAGE.margin, y, 3, 14 * measures.length).fill(DOMAIN_COLOR[domain]);
      doc
        .font(FONT.bold)
        .fontSize(SIZE.body)
        .fillColor(COLOR.ink)
        .text(DOMAIN_LABELS[domain], colX(0) + 8, y, {
          lineBreak: false,
        });
    }
    const now = m.pick(latest);
    const before = previous ? m.pick(previous) : null;
    const change = now !== null && before !== null && fresh ? now - before : null;
    doc
      .font(FONT.regular)
      .fontSize(SIZE.body)
      .fillColor(COLOR.muted)
      .text(m.label, colX(1) + 6, y, { lineBreak: false });
    doc.fillColor(COLOR.ink).text(m.format(before), colX(2) + 6, y, { lineBreak: false });
    doc.font(FONT.bold).text(m.format(now), colX(3) + 6, y, { lineBreak: false });
    doc
      .fillColor(changeColor(change, m.higherIsBetter))
      .text(formatSigned(change, m.digits), colX(4) + 6, y, { lineBreak: false });
    if (i === measures.length - 1 && !fresh && now !== null)
      doc
        .font(FONT.italic)
        .fontSize(SIZE.tiny)
        .fillColor(COLOR.muted)
        .text(`no new values since ${lastMeasured(model.latest, latest)}`, colX(4) + 6, y + 9, {
          lineBreak: false,
        });
    if (first) {
      const start = m.pick(first);
      const since = now !== null && start !== null && fresh ? now - start : null;
      doc
        .font(FONT.regular)
        .fillColor(changeColor(since, m.higherIsBetter))
        .text(formatSigned(since, m.digits), colX(4) + 56, y, { lineBreak: false });
    }
    doc.y = y + 14;
  });
  doc.y += 8;
}

/** The biomarkers that moved most since the previous event, by relative change. */
function biomarkerMoves(doc: Doc, model: ReportModel): void {
  const moves = model.biomarkers
    .filter((r) => r.latest !== null && r.previous !== null && r.previous !== 0)
    .map((r) => ({
      row: r,
      rel: ((r.latest as number) - (r.previous as number)) / Math.abs(r.previous as number),
    }))
    .filter((m) => Math.abs(m.rel) >= 0.005)
    .sort((a, b) => Math.abs(b.rel) - Math.abs(a.rel) || a.row.label.localeCompare(b.row.label))
    .slice(0, 8);
  doc
    .moveDown(0.4)
    .font(FONT.bold)
    .fontSize(SIZE.subheading)
    .fillColor(COLOR.ink)
    .text('Biomarkers that moved most', PAGE.margin);
  doc.moveDown(0.3);
  if (moves.length === 0) {
    const compared = model.biomarkers.some((r) => r.latest !== null && r.previous !== null);
    doc
      .font(FONT.regular)
      .fontSize(SIZE.body)
      .fillColor(COLOR.muted)
      .text(
        compared
          ? 'No biomarker changed by more than 0.5%.'
          : 'Not enough visits to compare: no biomarker was measured at two of them.',
      );
    return;
  }
  for (const { row, rel } of moves) {
    if (spaceLeft(doc) < 14) break;
    const y = doc.y;
    doc
      .font(FONT.regular)
      .fontSize(SIZE.body)
      .fillColor(COLOR.ink)
      .text(row.label, PAGE.margin + 8, y, { lineBreak: false });
    doc
      .fillColor(COLOR.muted)
      .text(`${formatValue(row.previous)} to ${formatValue(row.latest)}`, colX(2) + 6, y, {
        lineBreak: false,
      });
    doc
      .font(FONT.bold)
      .fillColor(COLOR.ink)
      .text(`${formatSigned(rel * 100, 1)}%`, colX(4) + 6, y, { lineBreak: false });
    doc.y = y + 14;
  }
}

/** Whether any lab value a domain used at an event was measured at that event rather than carried to it. */
function remeasured(event: EventScore, domain: DomainScore): boolean {
  return domain.inputs_used.some((input) => {
    const source = event.input_sources[input];
    return source?.source === 'predictor' && !source.carried_from;
  });
}

/** When the newest value a domain used at an event was measured (all of them carried from before). */
function lastMeasured(event: EventScore, domain: DomainScore): string {
  const carried = carriedInputs(event, domain.inputs_used).sort(
    (a, b) => (b.age ?? 0) - (a.age ?? 0) || String(b.date).localeCompare(String(a.date)),
  );
  const newest = carried[0];
  return newest ? formatWhen(newest.date, newest.age) : 'the previous visit';
}

/** An event for a reader: '4 Jun 2025', or 'age 49.6' when the request gives no dates. */
const when = (event: EventScore): string => formatWhen(event.event_date, event.event_age);

/** What changed since the previous event, domain by domain, then the biomarkers behind it. */
export function drawChangesPage(doc: Doc, model: ReportModel): void {
  addPage(doc, model, 'What changed');
  if (!model.previous) {
    sectionTitle(
      doc,
      'What changed',
      'This is your first event: changes appear here once there is a previous one.',
    );
    return;
  }
  const years = model.latest.event_age - model.previous.event_age;
  sectionTitle(
    doc,
    'What changed since your previous event',
    [
      `From ${when(model.previous)} to ${when(model.latest)} (${formatAge(years)} years).`,
      ...(model.events.length > 2
        ? [`The last column compares with your first event, ${when(model.events[0] as EventScore)}.`]
        : []),
      ...(model.lookback_months > 0
        ? [
            `Each visit is scored with values measured up to ${model.lookback_months} months before it where it lacks its own.`,
          ]
        : []),
    ].join(' '),
  );
  header(doc, 'PREVIOUS', model.events.length > 2 ? 'SINCE FIRST' : null);
  for (const domain of model.latest.domains) domainRows(doc, model, domain.domain);
  biomarkerMoves(doc, model);
}
