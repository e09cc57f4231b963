import { describe, expect, it } from 'vitest';
import { ScoringRequestError } from '../../src/scoring/errors.js';
import { SCORING_VERSION, scoreRequest } from '../../src/scoring/score-request.js';
import { fullEvent, testInputCodes } from './fixtures.js';

describe('scoreRequest', () => {
  it('scores a full report request into the report model', () => {
    const report = scoreRequest(
      { uid_ext: 'user-1', health_events: [fullEvent('a', 55), fullEvent('b', 58)] },
      { inputCodes: testInputCodes() },
    );
    expect(report.uid_ext).toBe('user-1');
    expect(report.scoring_version).toBe(SCORING_VERSION);
    expect(report.events.map((e) => e.health_event_id)).toEqual(['a', 'b']);
    const [first] = report.events;
    expect(Object.keys(first?.models ?? {}).sort()).toEqual([
      'egfr_ckd_epi_2021',
      'fib4',
      'framingham_cvd_10y',
      'framingham_diabetes_8y',
      'heart_age',
      'homa_ir',
      'pce_ascvd_10y',
      'phenoage',
      'prevent_ascvd',
      'prevent_heart_failure',
      'prevent_total_cvd',
      'san_antonio_diabetes_7_5y',
    ]);
    expect(first?.domains.map((d) => d.domain)).toEqual([
      'overall',
      'cardiovascular',
      'metabolic',
      'kidney',
      'liver',
    ]);
    for (const d of first?.domains ?? []) {
      if (d.risk !== null) expect(d.risk).toBeGreaterThan(0);
      if (d.risk !== null) expect(d.risk).toBeLessThan(1);
    }
    expect(report.changes.length).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report); // plain JSON, nothing lost
  });

  it('scores a condensed request (one health_event)', () => {
    const report = scoreRequest({ uid_ext: 'u', health_event: fullEvent('only', 50) });
    expect(report.events).toHaveLength(1);
    expect(report.changes).toEqual([]);
  });

  it('rejects a request without events', () => {
    expect(() => scoreRequest({ uid_ext: 'u', health_events: [] })).toThrow(ScoringRequestError);
  });
});
