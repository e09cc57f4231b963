import { defaultInputCodes, type InputCodes } from '../../src/scoring/input-codes.js';
import type { HealthEventInput, PredictorInput } from '../../src/scoring/types.js';

/**
 * Test-only observation codes for the inputs that have no verified LOINC code (BP treatment, parental
 * history of diabetes, statin therapy). They are deliberately not LOINC-shaped so they can never be mistaken
 * for real codes.
 */
export const TEST_BP_TREATMENT_CODE = 'TEST-BP-TREATED';
export const TEST_PARENTAL_DIABETES_CODE = 'TEST-PARENT-DM';
export const TEST_STATIN_CODE = 'TEST-STATIN';

export function testInputCodes(): InputCodes {
  const codes = defaultInputCodes();
  return {
    ...codes,
    categorical: {
      ...codes.categorical,
      bp_treatment: { ...codes.categorical.bp_treatment, codes: [TEST_BP_TREATMENT_CODE] },
      parental_diabetes: { ...codes.categorical.parental_diabetes, codes: [TEST_PARENTAL_DIABETES_CODE] },
      statin: { ...codes.categorical.statin, codes: [TEST_STATIN_CODE] },
    },
  };
}

let counter = 0;
export function predictor(observation_code: string, value: string, unit = ''): PredictorInput {
  counter += 1;
  return { id: `p-${counter}`, observation_code, value, unit };
}

/** A 55-year-old white woman with a full panel, values in the units US labs print. */
export function fullEvent(id = 'e1', age = 55): HealthEventInput {
  return {
    health_event_id: id,
    event_age: age,
    predictors: [
      predictor('76689-9', 'female'),
      predictor('32624-9', 'White'),
      predictor('72166-2', 'LA18978-9'),
      predictor('33248-6', 'No'),
      predictor(TEST_BP_TREATMENT_CODE, 'no'),
      predictor(TEST_PARENTAL_DIABETES_CODE, 'no'),
      predictor(TEST_STATIN_CODE, 'no'),
      predictor('2093-3', '213', 'mg/dL'),
      predictor('2085-9', '50', 'mg/dL'),
      predictor('2571-8', '120', 'mg/dL'),
      predictor('8480-6', '120', 'mmHg'),
      predictor('8462-4', '78', 'mmHg'),
      predictor('2345-7', '92', 'mg/dL'),
      predictor('20448-7', '6.5', 'uIU/mL'),
      predictor('2160-0', '0.9', 'mg/dL'),
      predictor('1751-7', '4.5', 'g/dL'),
      predictor('30522-7', '1.0', 'mg/L'),
      predictor('736-9', '30', '%'),
      predictor('787-2', '90', 'fL'),
      predictor('788-0', '13', '%'),
      predictor('6768-6', '70', 'IU/L'),
      predictor('6690-2', '6.0', 'x10E3/uL'),
      predictor('1742-6', '25', 'U/L'),
      predictor('1920-8', '22', 'U/L'),
      predictor('777-3', '250', 'x10E3/uL'),
      predictor('39156-5', '24', 'kg/m2'),
    ],
  };
}
