import { beforeAll, describe, expect, it } from 'vitest';
import { buildReportModel, domainOf, type ReportModel } from '../../src/report/model/model.js';
import { formatValue } from '../../src/report/pdf/format.js';
import { renderReport } from '../../src/report/pdf/render.js';
import {
  dateSpan,
  monthTicks,
  type TimeAxis,
  type TimePoint,
  timeAxis,
} from '../../src/report/pdf/time-axis.js';
import { parseReportRequest } from '../../src/schemas/report.js';
import { fixtureJson } from './support/fixtures.js';
import { pageTexts } from './support/pdf.js';

/** About Helvetica's average width at the axis's 6.5 pt: close enough to exercise the thinning. */
const measure = (text: string) => text.length * 3.4;
const GAP = 6;

const flat = (text: string) => text.replace(/\s+/g, ' ');

function expectReadable(axis: TimeAxis, width: number) {
  const texts = axis.labels.map((l) => l.text);
  expect(new Set(texts).size, texts.join(' | ')).toBe(texts.length);
  axis.labels.forEach((l, i) => {
    expect(l.left).toBeGreaterThanOrEqual(-6 - 1e-9);
    expect(l.left + measure(l.text)).toBeLessThanOrEqual(width + 6 + 1e-9);
    const prev = axis.labels[i - 1];
    if (prev) expect(prev.left + measure(prev.text) + GAP, texts.join(' | ')).toBeLessThanOrEqual(l.left);
  });
}

const SPARSE: TimePoint[] = [
  { age: 49.0, date: '2024-11-06' },
  { age: 49.02, date: '2024-11-13' },
  { age: 49.58, date: '2025-06-04' },
];

describe('timeAxis', () => {
  it('places events in proportion to their ages, not their indexes', () => {
    const axis = timeAxis(SPARSE, 400, { measure });
    expect(axis.xOf(49.0)).toBe(0);
    expect(axis.xOf(49.58)).toBe(400);
    expect(axis.xOf(49.02)).toBeCloseTo((400 * 0.02) / 0.58, 9);
    expect(axis.marks).toHaveLength(3);
  });

  it('labels a sparse dated series by month and year, one label per month', () => {
    const axis = timeAxis(SPARSE, 400, { measure });
    expect(axis.labels.map((l) => l.text)).toEqual(['Nov 2024', 'Jun 2025']);
    expectReadable(axis, 400);
  });

  it('labels a span of a week by day, giving the year once', () => {
    const axis = timeAxis(SPARSE.slice(0, 2), 400, { measure });
    expect(axis.labels.map((l) => l.text)).toEqual(['6 Nov', '13 Nov 2024']);
  });

  it('labels by age without dates, still spaced by age, and never repeats a rounded age', () => {
    const undated = SPARSE.map((t) => ({ ...t, date: null }));
    const axis = timeAxis(undated, 400, { measure });
    expect(axis.labels.map((l) => l.text)).toEqual(['age 49.0', 'age 49.6']);
    expect(axis.xOf(49.02)).toBeCloseTo((400 * 0.02) / 0.58, 9);
  });

  it('gives events on one date one label and one mark', () => {
    const axis = timeAxis([SPARSE[0], SPARSE[0], SPARSE[2]] as TimePoint[], 300, { measure });
    expect(axis.labels.map((l) => l.text)).toEqual(['Nov 2024', 'Jun 2025']);
    expect(axis.marks).toEqual([0, 300]);
  });

  it('labels a long yearly series with round ages or years that fit', () => {
    const yearly = Array.from({ length: 20 }, (_, i) => ({ age: 40 + i, date: null }));
    for (const width of [120, 200, 476]) expectReadable(timeAxis(yearly, width, { measure }), width);
    expect(timeAxis(yearly, 476, { measure }).labels.map((l) => l.text)).toEqual(
      [40, 42, 44, 46, 48, 50, 52, 54, 56, 58].map((a) => `age ${a}`),
    );
    const dated = yearly.map((t, i) => ({ ...t, date: `${2006 + i}-03-${String(10 + i).padStart(2, '0')}` }));
    const years = timeAxis(dated, 200, { measure });
    expectReadable(years, 200);
    expect(years.labels.every((l) => /^\d{4}$/.test(l.text))).toBe(true);
    expect(years.grid).toHaveLength(years.labels.length);
  });

  it('never overlaps or repeats labels of irregular visits, dated or not, at any width', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let run = 0; run < 200; run++) {
      let day = Date.UTC(2010, 0, 1) / 86_400_000;
      const times = Array.from({ length: 2 + Math.floor(random() * 25) }, () => {
        day += Math.floor(random() ** 3 * 900);
        const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
        return { age: 40 + (day - 14_610) / 365.2425, date: run % 2 ? date : null };
      });
      const width = 80 + Math.floor(random() * 420);
      expectReadable(timeAxis(times, width, { measure }), width);
    }
  });
});

describe('monthTicks and dateSpan', () => {
  it('ticks on the first of each month inside the span, or of each year', () => {
    expect(monthTicks('2024-11-06', '2025-03-01', 1)).toEqual([
      '2024-12-01',
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
    ]);
    expect(monthTicks('2019-06-30', '2024-02-01', 24)).toEqual(['2020-01-01', '2022-01-01', '2024-01-01']);
  });

  it('says a span by month, or by whole dates within one month, or not at all without dates', () => {
    expect(dateSpan(SPARSE)).toEqual({ from: 'Nov 2024', to: 'Jun 2025' });
    expect(dateSpan(SPARSE.slice(0, 2))).toEqual({ from: '6 Nov 2024', to: '13 Nov 2024' });
    expect(dateSpan([{ age: 49, date: null }, SPARSE[2] as TimePoint])).toBeNull();
  });
});

/**
 * A real person's history: a full panel on 6 Nov 2024, then a creatinine a week later, and creatinine,
 * glucose and insulin seven months on. Most domains have a value at one visit only.
 */
function sparseRequest() {
  const base = fixtureJson('full-no-destination') as {
    health_events: Array<{ predictors: Array<{ observation_code: string }> }>;
  };
  const panel = base.health_events[0]?.predictors ?? [];
  const only = (...codes: string[]) =>
    panel.filter((p) => ['76689-9', '32624-9', '72166-2', '33248-6', ...codes].includes(p.observation_code));
  return {
    ...base,
    health_events: [
      { health_event_id: '2024-11-06', event_age: 49.0, predictors: panel },
      { health_event_id: '2024-11-13', event_age: 49.02, predictors: only('2160-0') },
      { health_event_id: '2025-06-04', event_age: 49.58, predictors: only('2160-0', '2345-7', '20448-7') },
    ],
  };
}

describe('trends page of a sparse dated history', () => {
  let model: ReportModel;
  let trends: string;
  let lines: string[];

  beforeAll(async () => {
    const { request, variant } = parseReportRequest(sparseRequest(), { requireDestination: false });
    model = buildReportModel(request, variant);
    const pages = await pageTexts(await renderReport(model));
    const page = pages.find((p) => p.includes('Trends over time')) ?? '';
    lines = page.split('\n').map((l) => l.trim());
    trends = flat(page);
  });

  it('says the span in dates and labels the time axis by month and year', () => {
    expect(model.events.map((e) => e.event_date)).toEqual(['2024-11-06', '2024-11-13', '2025-06-04']);
    expect(trends).toContain('3 visits from Nov 2024 to Jun 2025.');
    // The kidney chart spans all three visits: the week-apart pair shares one label.
    expect(lines).toContain('Nov 2024 Jun 2025');
    // Once in the subtitle, once on the axis; the cards say '6 Nov 2024'.
    expect(trends.match(/(?<!\d )Nov 2024/g)).toHaveLength(2);
  });

  it('prints no repeated axis label and no ages where dates are known', () => {
    expect(trends).not.toMatch(/\b((?:[A-Z][a-z]{2} )?\d{4}|(?:age )?\d+\.\d)\s+\1\b/);
    expect(trends).not.toMatch(/age 49\.0\s+age 49\.0|49\.0 49\.0/);
  });

  it('never leaves a title ending in a colon, and names value charts from the events that have the value', () => {
    for (const line of lines) expect(line, line).not.toMatch(/:$/);
    expect(trends).toContain('Kidney: eGFR (CKD-EPI 2021)');
  });

  it('shows a series measured once as a value card with its date, not as an empty chart', () => {
    // Every score has one point (6 Nov), so neither the age nor the score chart is drawn.
    expect(trends).not.toContain('Health scores by domain');
    expect(trends).not.toContain('Biological age and chronological age');
    const liver = domainOf(model.events[0] as (typeof model.events)[number], 'liver');
    expect(domainOf(model.latest, 'liver')?.value ?? null).toBeNull();
    expect(trends).toContain(`Liver · FIB-4 ${formatValue(liver?.value)} on 6 Nov 2024`);
    const homa = domainOf(model.latest, 'metabolic')?.value;
    expect(trends).toContain(`Metabolic · HOMA-IR ${formatValue(homa)} on 4 Jun 2025`);
    expect(trends).toMatch(/Biological age \(PhenoAge\) \d+\.\d years on 6 Nov 2024 · age 49\.0/);
  });
});

describe('trends page of the complete synthetic series', () => {
  it('labels ages, spaced by age, with round ages once there are too many events to name', async () => {
    const { request, variant } = parseReportRequest(fixtureJson('full-series-20'), {
      requireDestination: false,
    });
    const model = buildReportModel(request, variant);
    const page = flat(
      (await pageTexts(await renderReport(model))).find((p) => p.includes('Trends over time')) ?? '',
    );
    expect(page).toContain('20 events from age 40.0 to 59.0.');
    expect(page).toContain('Biological age and chronological age');
    expect(page).toContain('Health scores by domain');
    expect(page).toContain('age 40 age 42 age 44');
    expect(page).not.toContain('Measured once so far');
  });
});
