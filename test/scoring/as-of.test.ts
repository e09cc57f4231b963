import { describe, expect, it } from 'vitest';
import { monthsBefore, withinLookback } from '../../src/scoring/as-of.js';
import { scoreRequest } from '../../src/scoring/score-request.js';
import type { HealthEventInput, PredictorInput, ScoreRequestInput } from '../../src/scoring/types.js';

const p = (observation_code: string, value: string, unit: string, extra: Partial<PredictorInput> = {}) => ({
  observation_code,
  value,
  unit,
  ...extra,
});

/** Every PhenoAge input, as a rich visit measures them. */
const PHENO = [
  p('1751-7', '4.6', 'g/dL'),
  p('2160-0', '0.98', 'mg/dL'),
  p('2345-7', '97', 'mg/dL'),
  p('30522-7', '0.6', 'mg/L'),
  p('736-9', '31.5', '%'),
  p('787-2', '88.1', 'fL'),
  p('788-0', '12.9', '%'),
  p('6768-6', '61', 'U/L'),
  p('6690-2', '5.6', '10*3/uL'),
];
const event = (id: string, age: number, predictors: PredictorInput[]): HealthEventInput => ({
  health_event_id: id,
  event_age: age,
  predictors,
});
const request = (events: HealthEventInput[], lookback?: number | null): ScoreRequestInput => ({
  uid_ext: '',
  report_metadata: { sex: 'male', ...(lookback === undefined ? {} : { lookback_months: lookback }) },
  health_events: events,
});
const overall = (r: ReturnType<typeof scoreRequest>, i: number) =>
  r.events[i]?.domains.find((d) => d.domain === 'overall');

describe('the as-of snapshot with a lookback', () => {
  const rich = event('2024-11-06', 49, PHENO);
  const sparse = event('2025-06-04', 49.58, [p('2093-3', '176', 'mg/dL')]);

  it('scores a sparse latest visit from the values of a visit inside the window, each with its date', () => {
    const scored = scoreRequest(request([rich, sparse], 12));
    const latest = scored.events[1];
    expect(overall(scored, 1)?.model).toBe('phenoage');
    expect(latest?.input_sources.albumin).toEqual({
      source: 'predictor',
      observation_code: '1751-7',
      carried_from: { health_event_id: '2024-11-06', event_age: 49, event_date: '2024-11-06' },
    });
    // The value measured at the latest visit is its own.
    expect(latest?.input_sources.total_cholesterol).toEqual({
      source: 'predictor',
      observation_code: '2093-3',
    });
    // Carried values are scored at the latest visit's age: PhenoAge moves with age alone.
    expect(overall(scored, 1)?.value).not.toBe(overall(scored, 0)?.value);
  });

  it('never uses a value older than the window, and without a window keeps SPEC behaviour', () => {
    expect(overall(scoreRequest(request([rich, sparse], 6)), 1)?.model).toBeNull();
    expect(overall(scoreRequest(request([rich, sparse], 0)), 1)?.model).toBeNull();
    const spec = scoreRequest(request([rich, sparse]));
    expect(overall(spec, 1)?.model).toBeNull();
    expect(spec.events[1]?.input_sources.albumin).toBeUndefined();
  });

  it('takes the most recent earlier value, never a later one, and never one carried before', () => {
    const newer = event('2025-01-10', 49.18, [p('1751-7', '4.1', 'g/dL')]);
    const scored = scoreRequest(request([rich, newer, sparse], 12));
    expect(scored.events[2]?.input_sources.albumin).toMatchObject({
      carried_from: { event_date: '2025-01-10' },
    });
    // The rich visit never takes the later albumin.
    expect(scored.events[0]?.input_sources.albumin).toEqual({
      source: 'predictor',
      observation_code: '1751-7',
    });
    // 2025-01-10 is 10 months after 2024-03-01: an event at 2024-03-01 has nothing to give a window of 6.
    const early = event('2024-03-01', 48.32, PHENO);
    const later = event('2025-01-10', 49.18, [p('2093-3', '190', 'mg/dL')]);
    expect(scoreRequest(request([early, later], 6)).events[1]?.input_sources.albumin).toBeUndefined();
  });

  it('compares calendar months when both events have dates, ages otherwise', () => {
    expect(monthsBefore('2025-06-04', 12)).toBe('2024-06-04');
    expect(monthsBefore('2025-03-31', 1)).toBe('2025-02-28');
    expect(monthsBefore('2024-01-15', 13)).toBe('2022-12-15');
    const at = event('2025-06-04', 50, []);
    expect(withinLookback(event('2024-06-04', 49, []), at, 12)).toBe(true);
    expect(withinLookback(event('2024-06-03', 49, []), at, 12)).toBe(false);
    expect(withinLookback(event('a', 49.0, []), event('b', 50.0, []), 12)).toBe(true);
    expect(withinLookback(event('a', 48.9, []), event('b', 50.0, []), 12)).toBe(false);
    expect(withinLookback(event('a', 50.5, []), event('b', 50.0, []), 12)).toBe(false);
  });
});

describe('doubted values', () => {
  const doubted = PHENO.map((x) =>
    x.observation_code === '1751-7'
      ? {
          ...x,
          value: '45',
          doubts: [{ code: 'ocr_suspect_decimal', message: 'ALBUMIN may have lost its decimal point' }],
        }
      : x,
  );

  it('are left out of the scores by default, and used and marked on request', () => {
    const plain = scoreRequest(request([event('e', 50, doubted)]));
    expect(overall(plain, 0)?.model).toBeNull();
    expect(overall(plain, 0)?.inputs_missing).toContain('albumin');
    const asked: ScoreRequestInput = {
      ...request([event('e', 50, doubted)]),
      report_metadata: { sex: 'male', use_doubtful: true },
    };
    const used = scoreRequest(asked);
    expect(overall(used, 0)?.model).toBe('phenoage');
    expect(used.events[0]?.input_sources.albumin).toMatchObject({ doubtful: true });
  });

  it('a doubted value stays out while a trusted one inside the window stands in for it', () => {
    const scored = scoreRequest(
      request([event('2024-11-06', 49, PHENO), event('2025-02-01', 49.24, doubted)], 12),
    );
    expect(scored.events[1]?.input_sources.albumin).toMatchObject({
      carried_from: { event_date: '2024-11-06' },
    });
  });

  it('two conflicting readings are never used, even on request', () => {
    const conflict = [{ code: 'conflict', message: 'two values' }];
    const events = [
      event('e', 50, [
        ...PHENO.filter((x) => x.observation_code !== '1751-7'),
        p('1751-7', '4.2', 'g/dL', { doubts: conflict }),
        p('1751-7', '4.6', 'g/dL', { doubts: conflict }),
      ]),
    ];
    const asked = { ...request(events), report_metadata: { sex: 'male' as const, use_doubtful: true } };
    expect(overall(scoreRequest(asked), 0)?.model).toBeNull();
  });
});
