import type { PreventOutcome } from '../../scoring/models/prevent.js';
import type { EventScore } from '../../scoring/types.js';
import { formatPercent } from './format.js';

/** PREVENT's risks of one outcome for one event: 10-year, and 30-year up to age 59 (else null). */
export interface OutcomeRisk {
  outcome: PreventOutcome;
  label: string;
  risk10y: number;
  risk30y: number | null;
}

/**
 * The scoring layer's model ids of PREVENT's outcomes (its PREVENT_IDS), spelled here so that a render thread
 * does not load the equations and the unit conversions behind them; test/report/render-imports.test.ts
 * holds the two equal.
 */
export const PREVENT_MODEL_IDS: Record<PreventOutcome, string> = {
  totalCvd: 'prevent_total_cvd',
  ascvd: 'prevent_ascvd',
  heartFailure: 'prevent_heart_failure',
};

const LABELS: Record<PreventOutcome, string> = {
  totalCvd: 'total cardiovascular disease',
  ascvd: 'atherosclerotic CVD',
  heartFailure: 'heart failure',
};

/** The PREVENT outcomes computed for an event, in the order total CVD, ASCVD, heart failure. */
export function preventRisks(event: EventScore): OutcomeRisk[] {
  const risks: OutcomeRisk[] = [];
  for (const outcome of ['totalCvd', 'ascvd', 'heartFailure'] as const) {
    const output = event.models[PREVENT_MODEL_IDS[outcome]];
    if (!output) continue;
    const risk30y = output.risk_30y;
    risks.push({
      outcome,
      label: LABELS[outcome],
      risk10y: output.value,
      risk30y: typeof risk30y === 'number' ? risk30y : null,
    });
  }
  return risks;
}

/** 'total cardiovascular disease 3.1% · atherosclerotic CVD 2.0% · heart failure 1.2%' (10-year or 30-year). */
export function preventRiskLine(risks: readonly OutcomeRisk[], horizon: '10y' | '30y'): string | null {
  const parts = risks.flatMap((r) => {
    const risk = horizon === '10y' ? r.risk10y : r.risk30y;
    return risk === null ? [] : [`${r.label} ${formatPercent(risk)}`];
  });
  return parts.length > 0 ? parts.join('  ·  ') : null;
}
