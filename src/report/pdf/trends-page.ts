import type { DomainName, EventScore } from '../../scoring/types.js';
import { DOMAIN_LABELS, modelLabel } from '../model/labels.js';
import type { ReportModel } from '../model/model.js';
import { domainOf } from '../model/view.js';
import {
  type ChartSeries,
  drawLineChart,
  drawValueCards,
  type LineChartSpec,
  pointCount,
  type ValueCard,
  valueCardsHeight,
  worthAChart,
} from './charts.js';
import { displayUnit, formatAge, formatDate, formatScore, formatValue } from './format.js';
import { addPage, type Doc, sectionTitle, spaceLeft } from './layout.js';
import { COLOR, CONTENT_WIDTH, DOMAIN_COLOR, FONT, PAGE, SIZE } from './theme.js';
import { dateSpan, type TimePoint } from './time-axis.js';

const DOMAINS: DomainName[] = ['overall', 'cardiovascular', 'metabolic', 'kidney', 'liver'];
const CHART_GAP = 15;
const CARDS_HEADING = 28;

/** A series as this page knows it: how its one value reads on a card when it has no second one. */
interface TrendSeries extends ChartSeries {
  card: { title: string; unit: string; format: (v: number) => string; withAge?: boolean };
}

interface ChartPlan {
  spec: LineChartSpec & { series: TrendSeries[] };
  height: number;
}

const timesOf = (model: ReportModel): TimePoint[] =>
  model.events.map((e) => ({ age: e.event_age, date: e.event_date }));

function when(event: EventScore, withAge = false): string {
  if (!event.event_date) return `at age ${formatAge(event.event_age)}`;
  const on = `on ${formatDate(event.event_date)}`;
  return withAge ? `${on} · age ${formatAge(event.event_age)}` : on;
}

/** The value of an unscored domain (eGFR, FIB-4, HOMA-IR); a scored domain's value is its risk, charted as a score. */
function measuredValue(event: EventScore, domain: DomainName): number | null {
  const d = domainOf(event, domain);
  return d && d.health_score === null ? d.value : null;
}

/**
 * The model behind a domain's values, from the latest event that has one: the latest event of the series
 * may not have measured it at all.
 */
function latestWith(model: ReportModel, has: (e: EventScore) => boolean): EventScore | undefined {
  return [...model.events].reverse().find(has);
}

function ageSeries(model: ReportModel): TrendSeries[] {
  return [
    {
      name: 'Biological age (PhenoAge)',
      color: DOMAIN_COLOR.overall,
      values: model.events.map((e) => domainOf(e, 'overall')?.health_age ?? null),
      card: { title: 'Biological age (PhenoAge)', unit: 'years', format: formatAge, withAge: true },
    },
    {
      name: 'Chronological age',
      color: COLOR.faint,
      values: model.events.map((e) => e.event_age),
      dashed: true,
      reference: true,
      card: { title: 'Chronological age', unit: 'years', format: formatAge },
    },
  ];
}

function scoreSeries(model: ReportModel): TrendSeries[] {
  return DOMAINS.map((d) => {
    const values = model.events.map((e) => domainOf(e, d)?.health_score ?? null);
    const source = latestWith(model, (e) => (domainOf(e, d)?.health_score ?? null) !== null);
    const label = modelLabel(source ? (domainOf(source, d)?.model ?? null) : null);
    const title = label ? `${DOMAIN_LABELS[d]} · ${label}` : DOMAIN_LABELS[d];
    return {
      name: DOMAIN_LABELS[d],
      color: DOMAIN_COLOR[d],
      values,
      card: { title, unit: 'score', format: formatScore },
    };
  }).filter((s) => pointCount(s) > 0);
}

/** Domains measured as a value with no score (eGFR, FIB-4, HOMA-IR): a small chart each. */
function valuePlans(model: ReportModel): ChartPlan[] {
  return DOMAINS.flatMap((d) => {
    const values = model.events.map((e) => measuredValue(e, d));
    const source = latestWith(model, (e) => measuredValue(e, d) !== null);
    if (!source) return [];
    const scored = domainOf(source, d);
    const label = modelLabel(scored?.model ?? null);
    const unit = displayUnit(scored?.unit);
    const series: TrendSeries = {
      name: '',
      color: DOMAIN_COLOR[d],
      values,
      card: { title: label ? `${DOMAIN_LABELS[d]} · ${label}` : DOMAIN_LABELS[d], unit, format: formatValue },
    };
    const title = label ? `${DOMAIN_LABELS[d]}: ${label}` : DOMAIN_LABELS[d];
    return [{ spec: { title, yLabel: unit, times: timesOf(model), series: [series] }, height: 160 }];
  });
}

/** Single measurements of series that get no chart: each becomes a card. */
function cardsOf(model: ReportModel, series: TrendSeries[]): ValueCard[] {
  return series.flatMap((s) => {
    const i = s.values.findIndex((v) => v !== null);
    const event = model.events[i];
    const v = s.values[i];
    if (s.reference || pointCount(s) !== 1 || !event || v == null) return [];
    const { title, unit, format, withAge } = s.card;
    return [{ title, value: format(v), unit, when: when(event, withAge), color: s.color }];
  });
}

function subtitle(model: ReportModel): string {
  const n = model.events.length;
  const first = model.events[0];
  if (n === 1 && first) {
    return first.event_date
      ? `One visit so far, on ${formatDate(first.event_date)}.`
      : `One event so far, at age ${formatAge(first.event_age)}.`;
  }
  const span = dateSpan(timesOf(model));
  if (span) return `${n} visits from ${span.from} to ${span.to}.`;
  return `${n} events from age ${formatAge(first?.event_age)} to ${formatAge(model.chronological_age)}.`;
}

function drawCardsSection(doc: Doc, y: number, cards: ValueCard[]): number {
  doc
    .font(FONT.bold)
    .fontSize(SIZE.subheading)
    .fillColor(COLOR.ink)
    .text('Measured once so far', PAGE.margin, y);
  doc
    .font(FONT.regular)
    .fontSize(SIZE.small)
    .fillColor(COLOR.muted)
    .text('Each becomes a trend line once it is measured a second time.', PAGE.margin, y + 14);
  return (
    CARDS_HEADING + drawValueCards(doc, { x: PAGE.margin, y: y + CARDS_HEADING, w: CONTENT_WIDTH }, cards)
  );
}

/** Chart heights shrink together when single measurements need room below them. */
function fitHeights(rows: ChartPlan[][], cards: ValueCard[], room: number): number {
  const cardsHeight = cards.length > 0 ? CARDS_HEADING + valueCardsHeight(cards.length, CONTENT_WIDTH) : 0;
  const chartsHeight = rows.reduce((sum, row) => sum + Math.max(...row.map((p) => p.height)) + CHART_GAP, 0);
  return chartsHeight > 0 ? Math.min(1, Math.max(0.6, (room - cardsHeight) / chartsHeight)) : 1;
}

function drawChartRow(doc: Doc, y: number, row: ChartPlan[], scale: number): number {
  const gap = 14;
  const w = (CONTENT_WIDTH - gap * (row.length - 1)) / row.length;
  row.forEach((plan, i) => {
    drawLineChart(doc, { x: PAGE.margin + i * (w + gap), y, w, h: plan.height * scale }, plan.spec);
  });
  return Math.max(...row.map((p) => p.height * scale)) + CHART_GAP;
}

/**
 * Trend charts over the events: biological vs chronological age, health scores, and the value models. A
 * chart is drawn only where some series has two measurements; single measurements become value cards.
 */
export function drawTrendsPage(doc: Doc, model: ReportModel): void {
  addPage(doc, model, 'Trends');
  sectionTitle(doc, 'Trends over time', subtitle(model));
  const times = timesOf(model);
  const plans: ChartPlan[] = [
    {
      spec: {
        title: 'Biological age and chronological age',
        yLabel: 'years',
        times,
        series: ageSeries(model),
      },
      height: 190,
    },
    {
      spec: {
        title: 'Health scores by domain',
        yLabel: 'score',
        times,
        yDomain: [0, 100],
        series: scoreSeries(model),
      },
      height: 190,
    },
  ];
  const values = valuePlans(model);
  const charted = (p: ChartPlan) => worthAChart(p.spec.series);
  const rows = [...plans.filter(charted).map((p) => [p]), values.filter(charted)].filter((r) => r.length > 0);
  const cards = [...plans, ...values]
    .filter((p) => !charted(p))
    .flatMap((p) => cardsOf(model, p.spec.series));

  let y = doc.y;
  const scale = fitHeights(rows, cards, spaceLeft(doc));
  for (const row of rows) y += drawChartRow(doc, y, row, scale);
  if (cards.length > 0) y += drawCardsSection(doc, y, cards);
  if (rows.length === 0 && cards.length === 0) {
    doc
      .font(FONT.italic)
      .fontSize(SIZE.body)
      .fillColor(COLOR.muted)
      .text('No results to chart yet.', PAGE.margin, y);
    y = doc.y;
  }
  doc.y = y;
  doc.x = PAGE.margin;
}
