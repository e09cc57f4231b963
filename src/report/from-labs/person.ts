/**
 * What a report built from lab results needs to know about the person beyond the results: the date of
 * birth (for ages, by arithmetic only), sex, and the other report_metadata members, from flags and a JSON
 * profile file. A flag wins over the profile; an absent member stays unknown, never defaulted.
 */
import { readJsonFile } from '../../cli/read-json.js';
import { SchemaValidationError } from '../../schemas/errors.js';
import { type ReportProfile, reportProfileSchema } from '../../schemas/report.js';

export type Sex = 'female' | 'male';

export interface Person {
  /** YYYY-MM-DD; read for the arithmetic of ages, then dropped. */
  dob: string;
  profile: ReportProfile & { sex: Sex };
}

export function readProfile(path: string): ReportProfile {
  const parsed = reportProfileSchema.safeParse(readJsonFile(path));
  if (!parsed.success) throw new SchemaValidationError(`The profile ${path}`, parsed.error);
  return parsed.data;
}

/** Flags over the profile, member by member; undefined flags leave the profile's value. */
export function mergeProfile(profile: ReportProfile, flags: Partial<ReportProfile>): ReportProfile {
  const merged: ReportProfile = { ...profile };
  for (const [key, value] of Object.entries(flags) as Array<[keyof ReportProfile, unknown]>) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}
