/**
 * The words and shapes a US lab report prints as a text result, for telling a result from a misreading
 * (`Sot` for 33.1, `FEWA` for FEW) and from a cell cut short (`SEE` for `SEE NOTE:`).
 *
 * A short list kept here rather than a data file: it is not a terminology (no code system defines "the
 * words labs print as results"), it is tied to these checks, and it is small. It was gathered from the
 * result columns of the committed fixtures (fixtures/labs: urinalysis colour, clarity, dipstick and
 * microscopy words, NOT APPLICABLE), the public sample reports of the two supported laboratories
 * (SEE NOTE, SEE BELOW, TNP, DNR, QNS, PENDING, REACTIVE / NON-REACTIVE, DETECTED / NOT DETECTED) and the
 * usual blood-bank and semi-quantitative grades (ABO and Rh, 1+ to 4+, titres 1:40), `NIL` and the
 * words of a peripheral blood film (cell size and colour, platelet adequacy, the finding named), as the
 * other laboratories' genuine reports of bench/real print them. Nothing here is document text: only the
 * shapes a value is compared with.
 */

/** Result words and phrases, upper case, words apart by one space (hyphens read as spaces). */
const RESULT_WORDS: readonly string[] = [
  // Qualitative: serology, microbiology, screens.
  'NEGATIVE',
  'NEG',
  'POSITIVE',
  'POS',
  'WEAKLY POSITIVE',
  'WEAK POSITIVE',
  'LOW POSITIVE',
  'HIGH POSITIVE',
  'REACTIVE',
  'NON REACTIVE',
  'NONREACTIVE',
  'WEAKLY REACTIVE',
  'REPEATEDLY REACTIVE',
  'DETECTED',
  'NOT DETECTED',
  'NONE DETECTED',
  'UNDETECTED',
  'UNDETECTABLE',
  'NOT ISOLATED',
  'NO GROWTH',
  'PRESENT',
  'ABSENT',
  'NORMAL',
  'ABNORMAL',
  'EQUIVOCAL',
  'INDETERMINATE',
  'INCONCLUSIVE',
  'BORDERLINE',
  'IMMUNE',
  'NON IMMUNE',
  'NOT IMMUNE',
  'INVALID',
  'YES',
  'NO',
  // Categories some tests print as their result.
  'LOW',
  'HIGH',
  'AVERAGE',
  'OPTIMAL',
  'DESIRABLE',
  'ELEVATED',
  // Urinalysis: colour and clarity.
  'YELLOW',
  'PALE YELLOW',
  'LIGHT YELLOW',
  'DARK YELLOW',
  'STRAW',
  'AMBER',
  'COLORLESS',
  'ORANGE',
  'RED',
  'PINK',
  'BROWN',
  'GREEN',
  'CLEAR',
  'HAZY',
  'SLIGHTLY HAZY',
  'CLOUDY',
  'SLIGHTLY CLOUDY',
  'TURBID',
  // Semi-quantitative grades and counts in words.
  'TRACE',
  'TRACE LYSED',
  'TRACE INTACT',
  'SMALL',
  'MODERATE',
  'LARGE',
  'FEW',
  'RARE',
  'OCCASIONAL',
  'MANY',
  'NUMEROUS',
  'TNTC',
  'LOADED',
  'NONE',
  'NONE SEEN',
  'NOT SEEN',
  'NIL',
  // A blood film described in words (peripheral smear): cell size and colour, platelet adequacy, the
  // finding named.
  'NORMOCYTIC',
  'NORMOCHROMIC',
  'NORMOCYTIC NORMOCHROMIC',
  'MICROCYTIC',
  'MACROCYTIC',
  'HYPOCHROMIC',
  'MICROCYTIC HYPOCHROMIC',
  'DIMORPHIC',
  'ADEQUATE',
  'REDUCED',
  'INCREASED',
  'DECREASED',
  'WITHIN NORMAL LIMITS',
  'WNL',
  'NEUTROPHILIA',
  'LYMPHOCYTOSIS',
  'EOSINOPHILIA',
  'LEUCOCYTOSIS',
  'LEUKOCYTOSIS',
  'LEUCOPENIA',
  'LEUKOPENIA',
  'THROMBOCYTOPENIA',
  'ANISOCYTOSIS',
  'POIKILOCYTOSIS',
  // Results held elsewhere or not given.
  'SEE NOTE',
  'SEE BELOW',
  'SEE COMMENT',
  'SEE COMMENTS',
  'SEE REPORT',
  'SEE ATTACHED',
  'SEE INTERPRETATION',
  'PENDING',
  'CANCELLED',
  'CANCELED',
  'TNP',
  'DNR',
  'QNS',
  'NOT APPLICABLE',
  'N/A',
  'NA',
  'ND',
  'NR',
  'NOT GIVEN',
  'NOT REPORTED',
  'NOT PERFORMED',
  'TEST NOT PERFORMED',
  'NOT CALCULATED',
  'NOT CALC',
  'QUANTITY NOT SUFFICIENT',
  'REFERRED',
];

/** Lookup form of a text value: upper case, hyphens and runs of spaces as one space, a closing colon off. */
export function wordKey(text: string): string {
  return text.toUpperCase().replace(/[-–]/g, ' ').replace(/\s+/g, ' ').trim().replace(/\s*:$/, '');
}

const KNOWN = new Set(RESULT_WORDS.map(wordKey));

/** ABO group and Rh type, as blood banks print them: `O POS`, `AB Rh Negative`, `A+`. */
const BLOOD_TYPE = /^(?:A|B|AB|O)\s*(?:RH\s*)?(?:POS(?:ITIVE)?|NEG(?:ATIVE)?|\+)$/;
/** The ABO group alone (`A`, `AB`), a result only of a test that names it. */
const ABO_GROUP = /^(?:A|B|AB|O)$/;
const ABO_TEST = /\bABO\b|blood\s*(?:group|type)/i;

/**
 * A text value (no digits) a laboratory prints as a result. A letter alone is a blood group only where
 * the test is one (`ABO Group`): elsewhere it is a misread (`A` for 22) or a flag read into the value.
 */
export function isResultWord(text: string, biomarker = ''): boolean {
  const key = wordKey(text);
  if (ABO_GROUP.test(key)) return ABO_TEST.test(biomarker);
  return KNOWN.has(key) || BLOOD_TYPE.test(key);
}

/** Words a qualitative reference range states, beside which a bare number is not a result. */
const EXPECTATIONS = new Set(
  [
    'NEGATIVE',
    'POSITIVE',
    'NON REACTIVE',
    'NONREACTIVE',
    'REACTIVE',
    'NOT DETECTED',
    'NONE DETECTED',
    'DETECTED',
    'NONE SEEN',
    'NONE',
    'YELLOW',
    'PALE YELLOW',
    'STRAW',
    'CLEAR',
    'ABSENT',
  ].map(wordKey),
);

/** A range that is a qualitative expectation (`Negative`, `None seen`, `Yellow`, `Negative/Trace`). */
export function isQualitativeRange(text: string): boolean {
  return text
    .split('/')
    .map(wordKey)
    .every((part, i) => EXPECTATIONS.has(part) || (i > 0 && KNOWN.has(part)));
}

/** Shortest piece of a cut word taken for a cut: one or two letters are as likely a speck (`i`, `ue`). */
const SHORTEST_CUT = 3;

/**
 * A text value that is the start of a result word or phrase, or its last words, but not one itself: `SEE`
 * of `SEE NOTE:`, `NEGATI` of `NEGATIVE`, `SEEN` of `NONE SEEN`. A cell the reader cut at its edge, or one
 * whose other half went to the next column. The end of a word is not taken (`LOW` of `YELLOW`): a cell
 * is cut where it runs into the next, at its end.
 */
export function isCutResultWord(text: string): boolean {
  const key = wordKey(text);
  if (key.replace(/[^A-Z]/g, '').length < SHORTEST_CUT || /\d/.test(key) || isResultWord(key)) return false;
  for (const word of KNOWN) {
    if (word.length > key.length && (word.startsWith(key) || word.endsWith(` ${key}`))) return true;
  }
  return false;
}
