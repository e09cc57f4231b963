/**
 * Pattern rules: regular expressions for families of spellings that a static map cannot list one by one.
 *
 * Two kinds. Rewrite rules turn a printed unit into a canonical spelling (micro signs, 'per', 'hr', the
 * eGFR area, '(calc)' notes, trailing dots ...) that the static map is then asked about again. Family
 * rules map a whole family straight to a code built from a template (10^n per volume, 'K/uL' ...); each
 * one lists every code it can emit, so the validation test covers all of them.
 */

export interface RewriteRule {
  name: string;
  pattern: RegExp;
  replacement: string | ((match: string, ...groups: string[]) => string);
  /** Printed units this rule exists for, with the UCUM code normaliseUnit gives them. */
  examples: ReadonlyArray<readonly [printed: string, ucum: string]>;
}

export interface FamilyRule {
  name: string;
  /** Matched against the lookup key: lower case, white space removed, rewrite rules applied. */
  pattern: RegExp;
  emit(groups: readonly string[]): string | null;
  /** Every code emit() can return. */
  outputs(): string[];
  examples: ReadonlyArray<readonly [printed: string, ucum: string]>;
}

const SUPERSCRIPT_DIGITS: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
};

function plainDigits(superscripts: string): string {
  return [...superscripts].map((c) => SUPERSCRIPT_DIGITS[c] ?? c).join('');
}

/** Unit words as printed in full; the rewrite rule below matches any of them, this table says which one. */
const UNIT_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^milli ?equivalents?$/i, 'mEq'],
  [/^micro ?lit(?:er|re)s?$/i, 'uL'],
  [/^milli ?lit(?:er|re)s?$/i, 'mL'],
  [/^deci ?lit(?:er|re)s?$/i, 'dL'],
  [/^lit(?:er|re)s?$/i, 'L'],
  [/^micro ?grams?$/i, 'ug'],
  [/^milli ?grams?$/i, 'mg'],
  [/^nano ?grams?$/i, 'ng'],
  [/^pico ?grams?$/i, 'pg'],
  [/^grams?$/i, 'g'],
  [/^milli ?moles?$/i, 'mmol'],
  [/^micro ?moles?$/i, 'umol'],
  [/^nano ?moles?$/i, 'nmol'],
  [/^pico ?moles?$/i, 'pmol'],
  [/^minutes?$/i, 'min'],
];

function unitForWord(word: string): string {
  return UNIT_WORDS.find(([pattern]) => pattern.test(word))?.[1] ?? word;
}

export const REWRITE_RULES: readonly RewriteRule[] = [
  {
    name: 'calculation note',
    // Quest prints '(calc)' after units of derived results; it says how, not what, was measured.
    pattern:
      /\s*(?:[([]\s*(?:calc(?:ulated)?|est(?:imated)?|derived)\.?\s*[)\]]|\s+calc(?:ulated)?\.?$)\s*/gi,
    replacement: ' ',
    examples: [
      ['mg/dL (calc)', 'mg/dL'],
      ['Ratio (calc)', '{ratio}'],
      ['mL/min/1.73m2 (calc)', 'mL/min/{1.73_m2}'],
      ['g/dL [calc]', 'g/dL'],
      ['mg/dL calc', 'mg/dL'],
    ],
  },
  {
    name: 'stray punctuation',
    // Text extraction leaves footnote stars, trailing dots and commas from table layouts.
    pattern: /^[\s*"'`]+|[\s.,;:*"'`]+$/g,
    replacement: '',
    examples: [
      ['mg/dL.', 'mg/dL'],
      ['U/L,', 'U/L'],
      ['*mmol/L', 'mmol/L'],
      ['"pg/mL"', 'pg/mL'],
    ],
  },
  {
    name: 'superscript power of ten',
    pattern: /10\s*([⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g,
    replacement: (_m, digits = '') => `10^${plainDigits(digits)}`,
    examples: [
      ['×10³/µL', '10*3/uL'],
      ['×10⁹/L', '10*9/L'],
    ],
  },
  {
    name: 'superscript exponent',
    pattern: /[⁰¹²³⁴⁵⁶⁷⁸⁹]+/g,
    replacement: (m) => plainDigits(m),
    examples: [
      ['mL/min/1.73m²', 'mL/min/{1.73_m2}'],
      ['kg/m²', 'kg/m2'],
    ],
  },
  {
    name: 'micro sign',
    // U+00B5 MICRO SIGN and U+03BC GREEK SMALL LETTER MU both occur in PDFs; UCUM spells micro 'u'.
    pattern: /[µμ]/g,
    replacement: 'u',
    examples: [
      ['μmol/L', 'umol/L'],
      ['μg/dL', 'ug/dL'],
      ['μIU/mL', 'u[IU]/mL'],
    ],
  },
  {
    name: 'mc for micro',
    pattern: /(^|[^a-z])mc(?=(?:g|l|mol|iu|u|eq)(?![a-z]))/gi,
    replacement: (_m, before = '') => `${before}u`,
    examples: [
      ['mcg/24 h', 'ug/(24.h)'],
      ['mcIU/L', 'u[IU]/L'],
      ['mcU/mL', 'uU/mL'],
      ['mcEq/L', 'ueq/L'],
    ],
  },
  {
    name: 'unit words',
    pattern:
      /\b(?:milli ?equivalents?|(?:micro|milli|deci) ?lit(?:er|re)s?|lit(?:er|re)s?|(?:micro|milli|nano|pico) ?grams?|grams?|(?:milli|micro|nano|pico) ?moles?|minutes?)\b/gi,
    replacement: (m) => unitForWord(m),
    examples: [
      ['milligrams per deciliter', 'mg/dL'],
      ['thousand per microliter', '10*3/uL'],
      ['mmol/liter', 'mmol/L'],
      ['milliequivalents per liter', 'meq/L'],
      ['mL/minute', 'mL/min'],
    ],
  },
  {
    name: 'per',
    pattern: /(?:^|\s+)per\s+/gi,
    replacement: '/',
    examples: [
      ['cells per uL', '{cells}/uL'],
      ['mg per dL', 'mg/dL'],
      ['per HPF', '/[HPF]'],
      ['mL/min per 1.73 m2', 'mL/min/{1.73_m2}'],
    ],
  },
  {
    name: 'hour',
    pattern: /(?<=^|[/\d\s-])(?:hrs?|hours?)\b/gi,
    replacement: 'h',
    examples: [
      ['mm / hrs', 'mm/h'],
      ['ng/mL/hour', 'ng/mL/h'],
      ['mm/hour', 'mm/h'],
      ['mg/24hrs', 'mg/(24.h)'],
      ['mL/24 hours', 'mL/(24.h)'],
    ],
  },
  {
    name: 'twenty-four hours',
    pattern: /\/\s*24\s*-?\s*h\b/gi,
    replacement: '/24 h',
    examples: [
      ['g/24-h', 'g/(24.h)'],
      ['mmol/24-hr', 'mmol/(24.h)'],
    ],
  },
  {
    name: 'body surface area',
    // eGFR is printed per 1.73 m2 of body surface area in a dozen ways; UCUM writes it as an annotation.
    pattern:
      /\/\s*1\.73\s*(?:m\s*\^?\s*2|sq\.?\s*m(?:et(?:er|re)s?)?|square\s*m(?:et(?:er|re)s?)?|m\s*sq)?\.?\s*$/gi,
    replacement: '/1.73m2',
    examples: [
      ['mL/min/1.73 sq m', 'mL/min/{1.73_m2}'],
      ['ml/min/1.73m^2', 'mL/min/{1.73_m2}'],
      ['mL/min/1.73 square meters', 'mL/min/{1.73_m2}'],
    ],
  },
  {
    name: 'cubic millimetre',
    pattern: /\b(?:cu\.?\s*mm|cumm|cmm|mm\s*\^\s*3)\b/gi,
    replacement: 'mm3',
    examples: [
      ['cells/cu. mm', '{cells}/mm3'],
      ['/mm^3', '/mm3'],
    ],
  },
  {
    name: 'creatinine normalised',
    pattern: /(\/\s*[mu]?(?:g|mol))\s*(?:of\s+)?(?:creat(?:inine)?|cre|cr|crt)\.?$/gi,
    replacement: (_m, head = '') => `${head} creat`,
    examples: [
      ['mg/g CRE', 'mg/g{creat}'],
      ['mg/g Creat.', 'mg/g{creat}'],
      ['mg/g of creatinine', 'mg/g{creat}'],
      ['ug/mg CRT', 'ug/mg{creat}'],
    ],
  },
  {
    name: 'hemoglobin',
    pattern: /\b(?:hemoglobin|haemoglobin|hgb\.?)$/gi,
    replacement: 'Hgb',
    examples: [
      ['% of total hemoglobin', '%'],
      ['U/g hemoglobin', 'U/g{Hb}'],
    ],
  },
];

/** Volume denominators of counts, printed (as a lookup key) -> UCUM; mm3 and uL are the same volume. */
const COUNT_VOLUMES: Readonly<Record<string, string>> = { ul: 'uL', mm3: 'uL', ml: 'mL', l: 'L', nl: 'nL' };
const COUNT_VOLUME = '(ul|mm3|ml|l|nl)';

export const FAMILY_RULES: readonly FamilyRule[] = [
  {
    name: 'power of ten per volume',
    // '103/uL' is what text extraction makes of a superscript 10³, so a bare '10' + digits counts too.
    // 'x10³ cells/µL': the word names what is counted, as the annotation-free code already means.
    pattern: new RegExp(
      `^(?:x|×|\\*)?10(?:e|\\^|\\*\\*|\\*)?\\(?([1-9][0-9]?)\\)?(?:cells)?/${COUNT_VOLUME}$`,
    ),
    emit: ([exp = '', vol = '']) => {
      const volume = COUNT_VOLUMES[vol];
      return volume ? `10*${exp}/${volume}` : null;
    },
    outputs: () =>
      Array.from({ length: 99 }, (_, i) => i + 1).flatMap((exp) =>
        [...new Set(Object.values(COUNT_VOLUMES))].map((vol) => `10*${exp}/${vol}`),
      ),
    examples: [
      ['x10^3/uL', '10*3/uL'],
      ['x 10E3/µL', '10*3/uL'],
      ['x10(3)/mm3', '10*3/uL'],
      ['X10E6/MM3', '10*6/uL'],
      ['10e9/L', '10*9/L'],
      ['x10*12/L', '10*12/L'],
      ['x103/uL', '10*3/uL'],
      ['10**6/uL', '10*6/uL'],
      ['x10^3 cells/uL', '10*3/uL'],
    ],
  },
  {
    name: 'thousands and millions per volume',
    // A lakh is 10^5 in Indian numbering: platelets in lakhs/cumm (1.5-4.5 lakhs is 150-450 x10^3/uL).
    pattern: new RegExp(
      `^(k|thou|thous|thousand|thousands|lakh|lakhs|lac|lacs|m|mil|mill|million|millions)/${COUNT_VOLUME}$`,
    ),
    emit: ([word = '', vol = '']) => {
      const volume = COUNT_VOLUMES[vol];
      if (!volume) return null;
      return `10*${countExponent(word)}/${volume}`;
    },
    outputs: () =>
      [3, 5, 6].flatMap((exp) => [...new Set(Object.values(COUNT_VOLUMES))].map((vol) => `10*${exp}/${vol}`)),
    examples: [
      ['K/mm3', '10*3/uL'],
      ['thou/uL', '10*3/uL'],
      ['Mil/uL', '10*6/uL'],
      ['million/mm3', '10*6/uL'],
      ['Lakhs/mm3', '10*5/uL'],
    ],
  },
  {
    name: 'per microscope field',
    pattern: /^(?:#|no\.?)?\/(h|l)pf$/,
    emit: ([field = '']) => `/[${field.toUpperCase()}PF]`,
    outputs: () => ['/[HPF]', '/[LPF]'],
    examples: [
      ['#/HPF', '/[HPF]'],
      ['No./HPF', '/[HPF]'],
      ['#/lpf', '/[LPF]'],
    ],
  },
];

function countExponent(word: string): number {
  if (word.startsWith('k') || word.startsWith('t')) return 3;
  return word.startsWith('la') ? 5 : 6;
}

/** Apply every rewrite rule in order. */
export function rewritePrinted(printed: string): string {
  let text = printed.normalize('NFC');
  for (const rule of REWRITE_RULES) {
    rule.pattern.lastIndex = 0;
    text =
      typeof rule.replacement === 'string'
        ? text.replace(rule.pattern, rule.replacement)
        : text.replace(rule.pattern, rule.replacement);
  }
  return text.trim();
}

/** The code of the first family rule matching a lookup key, or undefined. */
export function matchFamily(key: string): string | undefined {
  for (const rule of FAMILY_RULES) {
    const match = rule.pattern.exec(key);
    if (!match) continue;
    const code = rule.emit(match.slice(1).map((g) => g ?? ''));
    if (code) return code;
  }
  return undefined;
}
