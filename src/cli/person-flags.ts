/**
 * The flags that describe the person when a report is built from lab results (`report from-labs`, and
 * `report generate` given a FHIR Bundle): date of birth, sex, the scoring members of report_metadata, and a
 * JSON profile holding any of them. Yes/no members are --smoker / --no-smoker; left out, they stay unknown.
 */
import { Flags } from '@oclif/core';
import { UsageError } from '../errors.js';
import { checkDob } from '../lab/job/kind.js';
import { mergeProfile, type Person, readProfile, type Sex } from '../report/from-labs/person.js';
import { checkVitals, type Vitals } from '../report/from-labs/vitals.js';
import type { ReportProfile } from '../schemas/report.js';

const yesNo = (description: string) => Flags.boolean({ description, allowNo: true });

const DOB_DESCRIPTION =
  'Date of birth, YYYY-MM-DD: event ages are computed from it and it is then dropped (never stored, ' +
  'printed or written).';

/** `report generate` asks for --dob only when a FHIR Bundle is among its inputs; from-labs always. */
export const requiredDob = Flags.string({
  description: DOB_DESCRIPTION,
  helpValue: 'YYYY-MM-DD',
  required: true,
});

export const personFlags = {
  dob: Flags.string({ description: `${DOB_DESCRIPTION} Needed for a FHIR Bundle.`, helpValue: 'YYYY-MM-DD' }),
  sex: Flags.string({
    description: 'Sex assigned at birth (needed here or as "sex" in --profile).',
    options: ['female', 'male'],
  }),
  profile: Flags.string({
    description:
      'JSON file with other facts for the report: smoker, bp_treated, diabetes, parental_diabetes, statin ' +
      '(true/false), race (white, african_american, other), sex, and configuration (where the report goes). ' +
      'A flag wins over the file.',
  }),
  smoker: yesNo('Current smoker (--no-smoker: not a current smoker).'),
  'bp-treated': yesNo('On blood-pressure-lowering treatment (--no-bp-treated: not).'),
  diabetes: yesNo('Diagnosed diabetes (--no-diabetes: none).'),
  'parental-diabetes': yesNo('A parent with diabetes (--no-parental-diabetes: neither parent).'),
  statin: yesNo('On statin therapy (--no-statin: not).'),
  race: Flags.string({
    description: 'Race, for the Pooled Cohort Equations only.',
    options: ['white', 'african_american', 'other'],
  }),
  sbp: Flags.integer({
    description: 'Systolic blood pressure in mmHg (PREVENT, the diabetes models), as of --vitals-date.',
    helpValue: 'MMHG',
  }),
  dbp: Flags.integer({ description: 'Diastolic blood pressure in mmHg.', helpValue: 'MMHG' }),
  bmi: Flags.string({
    description: 'Body mass index in kg/m² (or give --height and --weight).',
    helpValue: 'KG/M2',
  }),
  height: Flags.string({ description: 'Height in cm, with --weight: the BMI is computed.', helpValue: 'CM' }),
  weight: Flags.string({ description: 'Weight in kg, with --height.', helpValue: 'KG' }),
  'vitals-date': Flags.string({
    description: 'When the vitals were measured, YYYY-MM-DD (default: the date of the latest lab visit).',
    helpValue: 'YYYY-MM-DD',
  }),
  lookback: Flags.integer({
    description:
      'Months a visit may reach back for a value it lacks (most recent first; each shown with its date). ' +
      'Default 12 for reports built from lab results; 0 turns it off.',
    helpValue: 'MONTHS',
    min: 0,
    max: 240,
  }),
  'use-doubtful': Flags.boolean({
    description:
      'Score values extraction doubts (an OCR misreading ...) too, marked wherever they appear. By default ' +
      'they are left out of the scores and listed.',
    allowNo: true,
  }),
};

export interface PersonFlagValues {
  dob?: string;
  sex?: string;
  profile?: string;
  smoker?: boolean;
  'bp-treated'?: boolean;
  diabetes?: boolean;
  'parental-diabetes'?: boolean;
  statin?: boolean;
  race?: string;
  sbp?: number;
  dbp?: number;
  bmi?: string;
  height?: string;
  weight?: string;
  'vitals-date'?: string;
  lookback?: number;
  'use-doubtful'?: boolean;
}

/** The person the flags describe; a usage error names what is missing. */
export function personFrom(flags: PersonFlagValues, command: string): Person {
  if (flags.dob === undefined)
    throw new UsageError('Give the date of birth with --dob YYYY-MM-DD: event ages are computed from it.', [
      `assay ${command} --dob 1970-01-31 --sex female`,
    ]);
  const dob = checkDob(flags.dob);
  const profile = mergeProfile(flags.profile ? readProfile(flags.profile) : {}, {
    sex: flags.sex as Sex | undefined,
    smoker: flags.smoker,
    bp_treated: flags['bp-treated'],
    diabetes: flags.diabetes,
    parental_diabetes: flags['parental-diabetes'],
    statin: flags.statin,
    race: flags.race as ReportProfile['race'],
    lookback_months: flags.lookback,
    use_doubtful: flags['use-doubtful'],
  });
  const vitals = vitalsFrom(flags, profile.vitals);
  if (vitals) profile.vitals = vitals;
  const sex = profile.sex;
  if (sex !== 'female' && sex !== 'male')
    throw new UsageError('Give the sex assigned at birth with --sex female|male (or "sex" in --profile).', [
      `assay ${command} --dob 1970-01-31 --sex female`,
    ]);
  return { dob, profile: { ...profile, sex } };
}

/** Vitals from flags over the profile's, member by member; numbers checked for a unit mistake. */
function vitalsFrom(flags: PersonFlagValues, fromProfile: Vitals | undefined): Vitals | undefined {
  const given: Vitals = {
    sbp: flags.sbp,
    dbp: flags.dbp,
    bmi: decimal(flags.bmi, '--bmi'),
    height_cm: decimal(flags.height, '--height'),
    weight_kg: decimal(flags.weight, '--weight'),
    date: flags['vitals-date'] === undefined ? undefined : checkDay(flags['vitals-date'], '--vitals-date'),
  };
  const merged: Vitals = { ...fromProfile };
  for (const [key, value] of Object.entries(given) as Array<[keyof Vitals, Vitals[keyof Vitals]]>)
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  // A BMI given by flag replaces a profile's height and weight, and the other way round.
  if (given.bmi !== undefined) {
    delete merged.height_cm;
    delete merged.weight_kg;
  }
  if (given.height_cm !== undefined) delete merged.bmi;
  return Object.values(merged).some((v) => v !== undefined) ? checkVitals(merged) : undefined;
}

function decimal(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(n))
    throw new UsageError(`${flag} expects a number, such as ${flag} 26.4; got "${text}".`);
  return n;
}

function checkDay(text: string, flag: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)))
    throw new UsageError(`${flag} expects a date YYYY-MM-DD; got "${text}".`);
  return text;
}
