import type { ReportModel } from '../model/model.js';
import { missingLabel } from '../model/view.js';
import { drawAgeHero } from './age-hero.js';
import { preventRiskLine, preventRisks } from './cardiovascular-risks.js';
import { domainNote, drawDomainCard } from './cards.js';
import { formatAge, formatDate, formatMonth, formatWhen } from './format.js';
import { type Box, type Doc, NOT_ADVICE } from './layout.js';
import { COLOR, CONTENT_WIDTH, FONT, PAGE, SIZE } from './theme.js';

/** The cover band: title, what the report covers, the date. Returns the y below it. */
export function drawTitleBand(
  doc: Doc,
  model: ReportModel,
  title: string,
  subtitle: string,
  height: number,
): number {
  doc.rect(0, 0, PAGE.width, height).fill(COLOR.brand);
  doc
    .font(FONT.bold)
    .fontSize(SIZE.title)
    .fillColor(COLOR.white)
    .text(title, PAGE.margin, height / 2 - 22, { width: CONTENT_WIDTH, lineBreak: false });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.body)
    .fillColor('#c9d6ea')
    .text(subtitle, PAGE.margin, height / 2 + 8, { width: CONTENT_WIDTH, lineBreak: false });
  doc.fontSize(SIZE.tiny).text(`Scoring ${model.scoring_version}`, PAGE.margin, height / 2 - 18, {
    width: CONTENT_WIDTH,
    align: 'right',
    lineBreak: false,
  });
  return height;
}

/** The legend card filling the sixth slot of the grid: how to read a score and a ratio. */
function drawReadingGuide(doc: Doc, box: Box): void {
  doc.roundedRect(box.x, box.y, box.w, box.h, 6).fill(COLOR.panel);
  const x = box.x + 12;
  const w = box.w - 24;
  doc
    .font(FONT.bold)
    .fontSize(SIZE.subheading)
    .fillColor(COLOR.ink)
    .text('Reading your scores', x, box.y + 12, {
      width: w,
    });
  const bands: Array<[string, string]> = [
    [COLOR.good, '80-100  good'],
    [COLOR.warn, '50-80  fair'],
    [COLOR.bad, 'below 50  needs attention'],
  ];
  let y = box.y + 34;
  for (const [color, text] of bands) {
    doc.circle(x + 4, y + 3.5, 3.5).fill(color);
    doc
      .font(FONT.regular)
      .fontSize(SIZE.small)
      .fillColor(COLOR.ink)
      .text(text, x + 14, y, { width: w - 14 });
    y += 13;
  }
  doc
    .font(FONT.regular)
    .fontSize(SIZE.tiny)
    .fillColor(COLOR.muted)
    .text(
      'Risk ratio 1.00x (score 80) = the risk of a person your age and sex with optimal values. Health age = the age at which that person would have your risk.',
      x,
      y + 4,
      { width: w },
    );
}

/**
 * PREVENT's risk of each outcome at the latest event (the cardiovascular card shows total CVD), or why the
 * cardiovascular domain used another model or none. Returns the y below it.
 */
function drawCardiovascularRisks(doc: Doc, model: ReportModel, y: number): number {
  const risks = preventRisks(model.latest);
  const tenYear = preventRiskLine(risks, '10y');
  const thirtyYear = preventRiskLine(risks, '30y');
  const cv = model.latest.domains.find((d) => d.domain === 'cardiovascular');
  const text = tenYear
    ? [`10-year risk: ${tenYear}.`, ...(thirtyYear ? [`30-year risk: ${thirtyYear}.`] : [])].join('\n')
    : (cv?.model_reason ?? 'PREVENT could not be computed.');
  const width = CONTENT_WIDTH - 24;
  doc.font(FONT.regular).fontSize(SIZE.small);
  const height = 26 + doc.heightOfString(text, { width });
  doc.roundedRect(PAGE.margin, y, CONTENT_WIDTH, height, 6).fill(COLOR.panel);
  doc
    .font(FONT.bold)
    .fontSize(SIZE.small)
    .fillColor(COLOR.ink)
    .text('Cardiovascular risk by outcome (AHA PREVENT equations)', PAGE.margin + 12, y + 8, {
      width,
      lineBreak: false,
    });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.small)
    .fillColor(COLOR.ink)
    .text(text, PAGE.margin + 12, y + 20, { width });
  return y + height;
}

function drawNotice(doc: Doc, y: number): void {
  doc.roundedRect(PAGE.margin, y, CONTENT_WIDTH, 38, 6).fill(COLOR.warnLight);
  doc
    .font(FONT.bold)
    .fontSize(SIZE.small)
    .fillColor(COLOR.ink)
    .text('Important', PAGE.margin + 12, y + 8, { lineBreak: false });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.small)
    .fillColor(COLOR.ink)
    .text(NOT_ADVICE, PAGE.margin + 12, y + 19, { width: CONTENT_WIDTH - 24 });
}

/** '3 visits, Nov 2024 to Jun 2025' when events have dates, else '3 health events'. */
export function eventsSpan(model: ReportModel): string {
  const n = model.events.length;
  const first = model.events[0]?.event_date;
  const last = model.latest.event_date;
  if (!first || !last) return `${n} health event${n === 1 ? '' : 's'}`;
  const month = (d: string) => formatMonth(`${d}T00:00:00Z`);
  if (n === 1) return `1 visit, ${formatWhen(last, null)}`;
  return month(first) === month(last)
    ? `${n} visits in ${month(last)}`
    : `${n} visits, ${month(first)} to ${month(last)}`;
}

/** What the domain scores stand for: the latest visit, and how far back a missing value may be taken. */
export function asOfLine(model: ReportModel): string {
  const when = formatWhen(model.latest.event_date, null);
  const at = when ? `As of your latest visit (${when}).` : 'At your latest event.';
  return model.lookback_months > 0
    ? `${at} A value it lacks is taken from up to ${model.lookback_months} months before, with its date.`
    : at;
}

/** Page 1 of the full report: biological age, then one card per health domain. */
export function drawSummaryPage(doc: Doc, model: ReportModel): void {
  doc.addPage();
  const subtitle = `${eventsSpan(model)}  ·  latest at age ${formatAge(model.chronological_age)}  ·  as of ${formatDate(model.asof)}`;
  const below = drawTitleBand(doc, model, 'Your Health Report', subtitle, 120);
  drawAgeHero(doc, { x: PAGE.margin, y: below + 22, w: CONTENT_WIDTH, h: 112 }, model);

  const gridTop = below + 160;
  doc
    .font(FONT.bold)
    .fontSize(SIZE.heading)
    .fillColor(COLOR.ink)
    .text('Your health domains', PAGE.margin, gridTop, { lineBreak: false });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.small)
    .fillColor(COLOR.muted)
    .text(`${asOfLine(model)} Scores run from 0 to 100; higher is better.`, PAGE.margin, gridTop + 19, {
      width: CONTENT_WIDTH,
      lineBreak: false,
      ellipsis: true,
    });
  const gap = 12;
  const w = (CONTENT_WIDTH - 2 * gap) / 3;
  const h = 146;
  const slot = (i: number): Box => ({
    x: PAGE.margin + (i % 3) * (w + gap),
    y: gridTop + 38 + Math.floor(i / 3) * (h + gap),
    w,
    h,
  });
  model.latest.domains.forEach((domain, i) => {
    drawDomainCard(doc, slot(i), domain, {
      note: domainNote(model.latest, domain),
      missing: (input) => missingLabel(model, input),
    });
  });
  drawReadingGuide(doc, slot(model.latest.domains.length));
  const risksBottom = drawCardiovascularRisks(doc, model, gridTop + 38 + 2 * (h + gap));
  drawNotice(doc, risksBottom + 8);
}
