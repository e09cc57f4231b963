/**
 * Blood pressure and body size are not on lab reports, yet PREVENT and the diabetes models need them. The
 * person gives them (--sbp, --dbp, --bmi or --height and --weight, or `vitals` in the profile), with a date
 * or, by default, as of the latest lab visit; they enter the request as predictors of that date.
 */
import { UsageError } from '../../errors.js';
import type { LabResult } from './lab-results.js';

export interface Vitals {
  /** Systolic blood pressure, mmHg. */
  sbp?: number;
  /** Diastolic blood pressure, mmHg. */
  dbp?: number;
  /** Body mass index, kg/m². */
  bmi?: number;
  /** Height, cm (with weight, gives the BMI). */
  height_cm?: number;
  /** Weight, kg. */
  weight_kg?: number;
  /** When they were measured, YYYY-MM-DD; absent: the date of the latest lab visit. */
  date?: string;
}

/** Plausible adult values: anything outside is a typo (a height in metres, a weight in pounds ...). */
const LIMITS: Record<
  Exclude<keyof Vitals, 'date'>,
  { min: number; max: number; flag: string; unit: string }
> = {
  sbp: { min: 60, max: 260, flag: '--sbp', unit: 'mmHg' },
  dbp: { min: 30, max: 160, flag: '--dbp', unit: 'mmHg' },
  bmi: { min: 10, max: 80, flag: '--bmi', unit: 'kg/m²' },
  height_cm: { min: 100, max: 250, flag: '--height', unit: 'cm' },
  weight_kg: { min: 25, max: 350, flag: '--weight', unit: 'kg' },
};

/** The vitals checked: each within its limits, BMI from one source, height and weight together. */
export function checkVitals(v: Vitals): Vitals {
  for (const [key, limit] of Object.entries(LIMITS) as Array<[keyof typeof LIMITS, (typeof LIMITS)['sbp']]>) {
    const value = v[key];
    if (value !== undefined && !(value >= limit.min && value <= limit.max))
      throw new UsageError(
        `${limit.flag} ${value} is outside ${limit.min}-${limit.max} ${limit.unit}: is it in another unit?`,
      );
  }
  if ((v.height_cm === undefined) !== (v.weight_kg === undefined))
    throw new UsageError('Give --height and --weight together (the BMI needs both), or --bmi.');
  if (v.bmi !== undefined && v.height_cm !== undefined)
    throw new UsageError('Give either --bmi or --height and --weight, not both.');
  if (v.sbp !== undefined && v.dbp !== undefined && v.dbp >= v.sbp)
    throw new UsageError(`--dbp ${v.dbp} is not below --sbp ${v.sbp}: are they the wrong way round?`);
  return v;
}

const SOURCE = 'vitals (flags or profile)';

/** The vitals as results of their date, in the units and LOINC codes the scoring reads. */
export function vitalsResults(v: Vitals | undefined, latestLabDate: string | null): LabResult[] {
  if (!v) return [];
  const date = v.date ?? latestLabDate;
  const bmi = v.bmi ?? (v.height_cm && v.weight_kg ? v.weight_kg / (v.height_cm / 100) ** 2 : undefined);
  const results: LabResult[] = [];
  const add = (code: string, name: string, value: number | undefined, unit: string, digits: number) => {
    if (value !== undefined)
      results.push({ source: SOURCE, date, code, name, value: String(Number(value.toFixed(digits))), unit });
  };
  add('8480-6', 'Systolic blood pressure', v.sbp, 'mm[Hg]', 0);
  add('8462-4', 'Diastolic blood pressure', v.dbp, 'mm[Hg]', 0);
  add('39156-5', 'Body mass index', bmi, 'kg/m2', 1);
  return results;
}
