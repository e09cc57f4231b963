import { Gather } from '../gather.js';
import type { ModelSpec } from '../spec.js';
import { positive } from './checks.js';
import { coefficients } from './coefficients.js';

/**
 * HOMA-IR, Matthews DR et al. Diabetologia 1985;28(7):412-419: fasting glucose (mg/dL) x fasting insulin
 * (uU/mL) / 405, the mg/dL form of glucose (mmol/L) x insulin / 22.5.
 */
export const HOMA_IR_ID = 'homa_ir';

export interface HomaIrInputs {
  /** Fasting plasma glucose, mg/dL. */
  glucoseMgDl: number;
  /** Fasting insulin, uU/mL (= uIU/mL = mIU/L). */
  insulinMicroUPerMl: number;
}

export interface HomaIrResult {
  value: number;
  unit: '1';
}

export function homaIr(inputs: HomaIrInputs): HomaIrResult {
  const { divisorMgPerDl } = coefficients<{ divisorMgPerDl: number }>('homa-ir');
  const glucose = positive(HOMA_IR_ID, 'glucose', inputs.glucoseMgDl);
  const insulin = positive(HOMA_IR_ID, 'insulin', inputs.insulinMicroUPerMl);
  return { value: (glucose * insulin) / divisorMgPerDl, unit: '1' };
}

export const HOMA_IR: ModelSpec<HomaIrInputs, HomaIrResult> = {
  id: HOMA_IR_ID,
  name: 'HOMA-IR',
  citation: 'Matthews DR et al. Diabetologia 1985;28(7):412-419',
  inputs: [
    { input: 'glucose', unit: 'mg/dL' },
    { input: 'insulin', unit: 'u[IU]/mL' },
  ],
  ranges: () => [],
  gather: (ev) => {
    const g = new Gather(ev);
    return g.done({ glucoseMgDl: g.num('glucose'), insulinMicroUPerMl: g.num('insulin') });
  },
  compute: homaIr,
  output: (r) => ({ value: r.value, unit: r.unit }),
};
