/**
 * Health score: a 0-100 reading of a domain's risk ratio (risk / risk of the optimal profile at the same
 * age and sex). The mapping is a design choice of this project, not a published model, so it is kept
 * simple, smooth and strictly decreasing: a Hill curve of order 1
 *
 *   health_score = 100 / (1 + risk_ratio / 4)
 *
 * ratio 0.5 -> 88.9, 1 (optimal) -> 80, 2 -> 66.7, 4 -> 50, 8 -> 33.3, 16 -> 20. Its steepest slope is 25
 * points per e-fold of the ratio (at ratio 4), so a lab value that moves a model's log-odds by d moves the
 * score by at most 25 d points: the steepest published lab term the domains use, fasting glucose in the San
 * Antonio model (0.079 per mg/dL, below 126 mg/dL), moves it by less than 5 points for a 2% change
 * (test/scoring/smoothness.test.ts). Order 2 (the mapping before scoring 2025.2) was twice as steep, and let
 * a 2% glucose change move the metabolic score by up to 9 points. Scores are rounded to one decimal, so only
 * ratios below about 0.002 or above about 8,000 read as 100 or 0.
 */
export const HEALTH_SCORE_MIDPOINT_RATIO = 4;
export const HEALTH_SCORE_STEEPNESS = 1;

/** Score 0-100 (one decimal) of a risk ratio; ratios must be positive and finite. */
export function healthScore(riskRatio: number): number {
  if (!(Number.isFinite(riskRatio) && riskRatio > 0)) {
    throw new RangeError(`risk ratio must be a positive finite number, got ${riskRatio}`);
  }
  const score = 100 / (1 + (riskRatio / HEALTH_SCORE_MIDPOINT_RATIO) ** HEALTH_SCORE_STEEPNESS);
  return Math.round(score * 10) / 10;
}
