/**
 * Inputs in readers' words. The report model's sentences (model_reason) and the PDF name inputs the way a
 * person reads them, never by the identifiers of the code ('total_cholesterol', 'systolicBp').
 */
import { CATEGORICAL_INPUTS, defaultInputCodes, NUMERIC_INPUTS } from './input-codes.js';

/**
 * Labels in input-codes.json carry qualifiers for model authors ("(serum/plasma; the models assume
 * fasting)"); readers get the name alone, except where the qualifier is a specimen other than blood: urine
 * albumin is not the albumin a liver panel measures, and a report listing both as "Albumin" reads wrong.
 */
const withoutQualifier = (label: string) =>
  /\((?:urine|csf|stool|saliva)\)$/i.test(label) ? label : label.replace(/\s*\(.*\)\s*$/, '');

/** A model input's name for readers: 'bp_treatment' -> 'On blood-pressure-lowering treatment'. */
export function inputLabel(name: string): string {
  if (name === 'age') return 'Age';
  const codes = defaultInputCodes();
  if ((NUMERIC_INPUTS as readonly string[]).includes(name))
    return withoutQualifier(codes.numeric[name as (typeof NUMERIC_INPUTS)[number]].label);
  if ((CATEGORICAL_INPUTS as readonly string[]).includes(name)) {
    // 'On statin therapy' states an answer; as the name of something missing it reads 'Statin therapy'.
    const label = withoutQualifier(codes.categorical[name as (typeof CATEGORICAL_INPUTS)[number]].label);
    return label.replace(/^On (\w)/, (_, c: string) => c.toUpperCase());
  }
  return name.replaceAll('_', ' ');
}

/** The names models use for their own parameters (models/*.ts), where they differ from the input names. */
const MODEL_PARAMETERS: Record<string, string> = {
  hdl: 'hdl_cholesterol',
  systolicBp: 'systolic_bp',
  diastolicBp: 'diastolic_bp',
  totalCholesterol: 'total_cholesterol',
  fastingGlucose: 'glucose',
  cystatinC: 'cystatin_c',
  lymphocytePercent: 'lymphocyte_percent',
  alkalinePhosphatase: 'alkaline_phosphatase',
  sdiDecile: 'sdi_decile',
};

/** A model parameter ('systolicBp', 'egfr') in words: the input's label, or the parameter spelt out. */
export function parameterLabel(name: string): string {
  if (name === 'egfr') return 'eGFR';
  if (name === 'hba1c') return 'HbA1c';
  if (name === 'uacr') return 'UACR';
  const input = MODEL_PARAMETERS[name] ?? name;
  const label = inputLabel(input);
  return label === input ? input.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : label;
}

/** A label inside a sentence: 'Creatinine' -> 'creatinine', while 'HDL cholesterol', 'eGFR' and 'HbA1c' stay. */
export function inSentence(label: string): string {
  // A word with a capital inside (HbA1c) keeps its spelling.
  return /^[A-Z][a-z]/.test(label) && !/^[A-Z][a-z]*[A-Z]/.test(label)
    ? label[0]?.toLowerCase() + label.slice(1)
    : label;
}
