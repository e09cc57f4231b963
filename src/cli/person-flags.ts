/**
 * The flags that describe the person when a report is built from lab results (`report from-labs`, and
 * `report generate` given a FHIR Bundle): date of birth, sex, the scoring members of report_metadata, and a
 * JSON profile holding any of them. Yes/no members are --smoker / --no-smoker; left out, they stay unknown.
 */
import { Flags } from '@oclif/core';
import { UsageError } from '../errors.js';
import { checkDob } from '../lab/job.js';
import { mergeProfile, type Person, readProfile, type Sex } from '../report/from-labs/person.js';
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
  });
  const sex = profile.sex;
  if (sex !== 'female' && sex !== 'male')
    throw new UsageError('Give the sex assigned at birth with --sex female|male (or "sex" in --profile).', [
      `assay ${command} --dob 1970-01-31 --sex female`,
    ]);
  return { dob, profile: { ...profile, sex } };
}
