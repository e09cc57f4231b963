import type { NumericInput } from '../../scoring/input-codes.js';
import { coefficients } from '../../scoring/models/coefficients.js';

/**
 * Where a value is considered optimal. One-sided bounds are common (HDL: at least 50). `source` names where
 * the bound comes from, printed under the biomarker table.
 */
export interface OptimalRange {
  low: number | null;
  high: number | null;
  source: string;
}

export type OptimalRangeSource = (input: NumericInput) => OptimalRange | null;

interface PceOptimalProfile {
  totalCholesterol: number;
  hdl: number;
  systolicBp: number;
}

/**
 * The optimal risk-factor profile of the Pooled Cohort Equations (Goff 2013), the only optimal values the
 * scoring layer publishes. Other biomarkers get no range rather than an invented one; population statistics
 * (SPEC.md C3 optimal_min/optimal_max) can replace this source once reference data is available.
 */
export const scoringOptimalRanges: OptimalRangeSource = (input) => {
  const profile = coefficients<{ optimalProfile: PceOptimalProfile }>('pce').optimalProfile;
  const source = 'Goff 2013 optimal risk-factor profile';
  switch (input) {
    case 'total_cholesterol':
      return { low: null, high: profile.totalCholesterol, source };
    case 'hdl_cholesterol':
      return { low: profile.hdl, high: null, source };
    case 'systolic_bp':
      return { low: null, high: profile.systolicBp, source };
    default:
      return null;
  }
};
