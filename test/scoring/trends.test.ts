import { describe, expect, it } from 'vitest';
import { scoreEvent } from '../../src/scoring/score-event.js';
import { domainChanges } from '../../src/scoring/trends.js';
import { fullEvent, predictor, TEST_STATIN_CODE, testInputCodes } from './fixtures.js';

const codes = testInputCodes();

describe('domainChanges', () => {
  const e1 = scoreEvent(fullEvent('e1', 55), codes);
  const e2 = scoreEvent(fullEvent('e2', 57), codes);
  const e3 = scoreEvent(fullEvent('e3', 60), codes);

  it('gives consecutive and whole-series changes per domain, in age order', () => {
    const changes = domainChanges([e3, e1, e2]);
    const overall = changes.filter((c) => c.domain === 'overall');
    expect(overall.map((c) => [c.span, c.from_event_id, c.to_event_id, c.years])).toEqual([
      ['consecutive', 'e1', 'e2', 2],
      ['consecutive', 'e2', 'e3', 3],
      ['series', 'e1', 'e3', 5],
    ]);
    const series = overall[2];
    const first = e1.domains[0];
    const last = e3.domains[0];
    expect(series?.health_age_change).toBeCloseTo((last?.health_age ?? 0) - (first?.health_age ?? 0), 10);
    expect(series?.risk_change).toBeCloseTo((last?.risk ?? 0) - (first?.risk ?? 0), 10);
  });

  it('reports value changes for value-type domains and null where a figure is missing', () => {
    const kidney = domainChanges([e1, e2]).find((c) => c.domain === 'kidney');
    expect(kidney?.value_change).toBeLessThan(0); // same creatinine, older
    expect(kidney?.health_score_change).toBeNull();
  });

  it('never compares figures of different models', () => {
    // Without statin status PREVENT cannot run; at 38 the PCE (40-79) cannot either, so Framingham scores it.
    const event = fullEvent('young', 38);
    event.predictors = event.predictors.filter((p) => p.observation_code !== TEST_STATIN_CODE);
    const young = scoreEvent(event, codes);
    expect(young.domains.find((d) => d.domain === 'cardiovascular')?.model).toBe('framingham_cvd_10y');
    const cv = domainChanges([young, e1]).find(
      (c) => c.domain === 'cardiovascular' && c.span === 'consecutive',
    );
    expect(cv?.risk_change).toBeNull();
    expect(cv?.health_age_change).toBeNull();
  });

  it('skips events without the domain when spanning the series', () => {
    const bare = scoreEvent({
      health_event_id: 'bare',
      event_age: 58,
      predictors: [predictor('76689-9', 'female')],
    });
    const changes = domainChanges([e1, bare, e3]).filter((c) => c.domain === 'liver');
    expect(changes.filter((c) => c.span === 'consecutive').every((c) => c.value_change === null)).toBe(true);
    expect(changes.find((c) => c.span === 'series')).toMatchObject({
      from_event_id: 'e1',
      to_event_id: 'e3',
    });
  });

  it('has nothing to say about a single event', () => {
    expect(domainChanges([e1])).toEqual([]);
  });
});
