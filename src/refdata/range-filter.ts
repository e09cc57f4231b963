/**
 * The words people use for the lab-range filters, mapped to what the data holds: `gender_name` is FEMALE or
 * MALE, `vendor_name` the vendor's full name ("Quest Diagnostics", "Labcorp"), compared without case.
 */

/** FEMALE or MALE for F, M, female, male in any case; null for anything else. */
export function rangeSex(value: string): 'FEMALE' | 'MALE' | null {
  const word = value.trim().toLowerCase();
  if (word === 'f' || word === 'female') return 'FEMALE';
  if (word === 'm' || word === 'male') return 'MALE';
  return null;
}

export const SEX_WORDS = 'F, M, female or male (any case)';

/** Short and older names of the vendors the data holds, lower case, to the name stored (lower case). */
const VENDOR_ALIASES: Record<string, string> = {
  quest: 'quest diagnostics',
  questdiagnostics: 'quest diagnostics',
  'quest diagnostics incorporated': 'quest diagnostics',
  'lab corp': 'labcorp',
  'laboratory corporation of america': 'labcorp',
};

/** The stored vendor name (lower case) for a name or alias: `Quest` and `LabCorp` find their ranges. */
export function rangeVendor(value: string): string {
  const word = value.trim().toLowerCase().replace(/\s+/g, ' ');
  return VENDOR_ALIASES[word] ?? VENDOR_ALIASES[word.replace(/ /g, '')] ?? word;
}
