import type { DomainName } from '../../scoring/types.js';

export const DOMAIN_LABELS: Record<DomainName, string> = {
  overall: 'Overall',
  cardiovascular: 'Cardiovascular',
  metabolic: 'Metabolic',
  kidney: 'Kidney',
  liver: 'Liver',
};

const SHORT_MODEL_NAMES: Record<string, string> = {
  phenoage: 'PhenoAge',
  prevent_total_cvd: 'PREVENT (total CVD)',
  prevent_ascvd: 'PREVENT (ASCVD)',
  prevent_heart_failure: 'PREVENT (heart failure)',
  pce_ascvd_10y: 'Pooled Cohort Equations',
  framingham_cvd_10y: 'Framingham CVD',
  san_antonio_diabetes_7_5y: 'San Antonio diabetes',
  framingham_diabetes_8y: 'Framingham diabetes',
  homa_ir: 'HOMA-IR',
  egfr_ckd_epi_2021: 'eGFR (CKD-EPI 2021)',
  egfr_ckd_epi_2021_cr_cys: 'eGFR (CKD-EPI 2021, cys C)',
  fib4: 'FIB-4',
};

export function modelLabel(model: string | null): string {
  return model ? (SHORT_MODEL_NAMES[model] ?? model) : '';
}

export { inputLabel } from '../../scoring/input-labels.js';
