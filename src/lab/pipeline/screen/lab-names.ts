/**
 * How a laboratory's name is told from the text around it: a letterhead cell, a performing-site label, a
 * hospital that prints its own name for its laboratory, and a letterhead read from its picture. Text in,
 * a name (as printed, tidied of suffixes) or null out; where to look is vendor-detect.ts's business.
 */

/** Words that make a cell a laboratory name rather than a heading about laboratories. */
const LAB_WORD = /\b(laborator(y|ies)|labs?|diagnostics|pathology|diagnostic\s+cent(re|er)s?)\b/i;
/** Words of headings and labels that mention laboratories without naming one. */
const GENERIC_WORDS = new Set([
  'laboratory',
  'laboratories',
  'lab',
  'labs',
  'diagnostics',
  'diagnostic',
  'pathology',
  'pathological',
  'centre',
  'centres',
  'center',
  'centers',
  'clinical',
  'medical',
  'result',
  'results',
  'report',
  'reports',
  'final',
  'patient',
  'test',
  'tests',
  'testing',
  'the',
  'of',
  'and',
  'for',
  'a',
  'no',
  'number',
  'director',
  'summary',
  'information',
  'services',
  'investigation',
  'investigations',
  // Contact lines: "For Lab Enquiry : 020 ...", its colon lost on a scan.
  'enquiry',
  'enquiries',
  'inquiry',
  'inquiries',
  'appointment',
  'appointments',
  'contact',
  // What a letterhead says of the laboratory, not its name: "Fully Computerised Pathological Laboratory".
  'fully',
  'computerised',
  'computerized',
  'automated',
  'accredited',
  'certified',
  'nabl',
  'iso',
]);
/** Labels whose value is the laboratory that performed the tests. */
// Epic MyChart printouts name the laboratory as the "Resulting Agency" (or "Resulting Lab").
const PERFORMING_LABEL_WORDS = String.raw`performing\s+(lab(oratory)?|site|location|organi[sz]ation)|performed\s+(by|at)|testing\s+lab(oratory)?|resulting\s+(agency|lab(oratory)?)|facility`;
const PERFORMING_LABEL = new RegExp(`^(${PERFORMING_LABEL_WORDS})\\s*:\\s*`, 'i');
/** The label as a cell of its own, its value in the next: OCR often drops the colon between them. */
const PERFORMING_LABEL_CELL = new RegExp(`^(${PERFORMING_LABEL_WORDS})\\s*:?$`, 'i');
/** A hospital or another institution whose laboratory prints its reports under the institution's name. */
const INSTITUTION_WORD =
  /\b(hospitals?|institute|medical\s+college|university|medical\s+cent(er|re)|infirmary|health\s+system)\b/i;
/**
 * A street address that names a hospital nearby ("SHOP No. 18C, 19, ... HOSPITAL ROAD", "Suite 200,
 * Mercy Hospital"): a premises word or "No." before a number. Not the laboratory's name.
 */
const ADDRESS = /\b(?:shop|plot|flat|house|door|suite|floor|block)\s*(?:no\.?\s*)?#?\s*\d|\bno\.\s*\d/i;
/** A department names a part of an institution, not the laboratory: "Department of Pathology". */
const DEPARTMENT = /^(the\s+)?(dept\.?|department|division|section)\s+of\b/i;

/**
 * A doctor's post at an institution under the doctor's name on a clinic's letterhead ("Sr. Orthopaedic
 * Surgeon in Srikara Hospitals"): where the doctor works, not the laboratory that printed the report.
 */
const POST_AT = /\b(?:surgeon|consultant|physician|professor|specialist|pathologist|director)\s+(?:in|at)\b/i;

/** More words than this are a sentence or two lines of a letterhead run together, not a name. */
const MAX_NAME_WORDS = 6;

/**
 * A letterhead cell that names a laboratory: a lab word plus at least one word of its own, no label, no
 * digit (a form code `AHK LAB RPT-01`, an ID). A name followed by its address after a comma (`Asiri
 * Laboratories, Kandy, 907, Peradeniya Road`) is the name.
 */
export function labNameIn(text: string): string | null {
  const whole = respaced(text.trim());
  const [head = '', ...address] = whole.split(',');
  const trimmed = address.some((part) => /\d/.test(part)) && LAB_WORD.test(head) ? head.trim() : whole;
  if (/\d/.test(trimmed) || trimmed.split(/\s+/).length > MAX_NAME_WORDS) return null;
  if (trimmed.includes(':') || /\b(no|#)\.?$/i.test(trimmed) || !LAB_WORD.test(trimmed)) return null;
  if (DEPARTMENT.test(trimmed) || POST_AT.test(trimmed)) return null;
  return isProperName(trimmed) ? tidyName(trimmed) : null;
}

/** A letterhead cell that names a hospital or another institution, no label. */
export function institutionIn(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.includes(':') || DEPARTMENT.test(trimmed) || !INSTITUTION_WORD.test(trimmed)) return null;
  if (ADDRESS.test(trimmed) || POST_AT.test(trimmed)) return null;
  return isProperName(trimmed.replace(INSTITUTION_WORD, '')) ? tidyName(trimmed) : null;
}

/** "Performing Lab: Riverbend Pathology, 12 Main St" names Riverbend Pathology. */
export function performingLabIn(text: string): string | null {
  const label = PERFORMING_LABEL.exec(text.trim());
  return label ? performingValue(text.trim().slice(label[0].length)) : null;
}

/** The same, read from a line's cells: a label cell (with or without its colon) and the value after it. */
export function performingLabInCells(cells: readonly string[]): string | null {
  for (let i = 0; i + 1 < cells.length; i++) {
    if (PERFORMING_LABEL_CELL.test(cells[i]?.trim() ?? '')) {
      const named = performingValue(cells[i + 1] ?? '');
      if (named) return named;
    }
  }
  return null;
}

function performingValue(text: string): string | null {
  const value = text.split(/\s{2,}|,/)[0]?.trim() ?? '';
  return value !== '' && (LAB_WORD.test(value) || INSTITUTION_WORD.test(value)) && isProperName(value)
    ? tidyName(value)
    : null;
}

/**
 * The laboratory a letterhead names, from its lines as OCR read them off the picture, top down. A name set
 * in display type over a line of what the business is ("ZINIS" over "LABS & DIAGNOSTIC CENTRES", "AIG"
 * over "HOSPITALS") is one name. Only lines of words can name it: a digit, colon, comma or slash makes an
 * address, a telephone number or a label.
 */
export function labNameInLetterhead(lines: readonly string[]): string | null {
  const words = lines
    .map((line) => wordsOf(respaced(line)))
    .filter((line) => line !== '' && /^[A-Za-z&.' -]+$/.test(line));
  for (const line of words) {
    const named = labNameIn(line);
    if (named) return named;
  }
  for (let i = 1; i < words.length; i++) {
    const [above, line] = [words[i - 1] as string, words[i] as string];
    if (isBrandWord(above) && isBusinessLine(line)) return tidyName(`${above} ${line}`);
  }
  for (const line of words) {
    const named = institutionIn(line);
    if (named) return named;
  }
  return null;
}

/**
 * A line read off a picture without what OCR makes of the logo beside it: marks and lower-case scraps
 * before the first capitalised word and after the last ("a All India Institute ...").
 */
function wordsOf(line: string): string {
  const tokens = line.trim().split(/\s+/);
  const capitalised = (token: string) => /^[A-Z][A-Za-z'.&-]*$/.test(token);
  const first = tokens.findIndex(capitalised);
  if (first === -1) return '';
  let last = tokens.length - 1;
  while (!capitalised(tokens[last] as string)) last--;
  return tokens.slice(first, last + 1).join(' ');
}

/**
 * A name set in spaced capitals as OCR gives it back: letters glued into one word
 * ("PARTHPATHOLOGYLABORATORY") are split before the words that say what a business is, and a letter
 * split from the rest of such a word ("C ENTRE") is joined to it. Only those words are used, so a name's
 * own words are never split or joined; scraps of one or two small letters around the name (a logo, a
 * hole punch) are dropped.
 */
function respaced(text: string): string {
  const tokens = text.split(/\s+/).filter((token) => token !== '');
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const [token, next] = [tokens[i] as string, tokens[i + 1]];
    if (
      /^[A-Z]$/.test(token) &&
      next &&
      /^[A-Z]+$/.test(next) &&
      BUSINESS_WORDS.has(`${token}${next}`.toLowerCase())
    ) {
      out.push(`${token}${next}`);
      i++;
    } else out.push(...unglued(token));
  }
  while (out.length > 1 && /^[a-z]{1,2}$/.test(out[0] as string)) out.shift();
  while (out.length > 1 && /^[a-z]{1,2}$/.test(out.at(-1) as string)) out.pop();
  return out.join(' ');
}

/** Words a business's name ends in, which OCR glues to the name before them. */
const BUSINESS_WORDS = new Set([
  'laboratory',
  'laboratories',
  'pathology',
  'diagnostics',
  'diagnostic',
  'centre',
  'center',
  'hospital',
  'clinic',
  'labs',
]);

function unglued(token: string): string[] {
  if (!/^[A-Z]{8,}$/.test(token)) return [token];
  for (const word of BUSINESS_WORDS) {
    const upper = word.toUpperCase();
    if (token.endsWith(upper) && token.length - upper.length >= 3)
      return [...unglued(token.slice(0, -upper.length)), upper];
  }
  return [token];
}

/** One word of three letters or more, none of them generic: a name printed large on its own. */
function isBrandWord(line: string): boolean {
  return /^[A-Za-z][A-Za-z'-]{2,}$/.test(line) && isProperName(line);
}

/** Only words that say what a business is ("LABS & DIAGNOSTIC CENTRES", "HOSPITALS"): no name of its own. */
function isBusinessLine(line: string): boolean {
  return (
    /^[A-Za-z&,.' -]+$/.test(line) &&
    (LAB_WORD.test(line) || INSTITUTION_WORD.test(line) || /\bdiagnostic\b/i.test(line)) &&
    !isProperName(line.replace(INSTITUTION_WORD, '')) &&
    !/\b(report|results?|tests?|patient|final|summary|information)\b/i.test(line)
  );
}

/**
 * A name has a word of its own: three letters or more, not generic. Scraps of one or two letters are what
 * OCR splits off words ("Fo r Lab Enquiry"), not names.
 */
export function isProperName(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z][a-z'.&-]*/g) ?? [];
  return words.some((word) => {
    const bare = word.replace(/[.]+$/, '');
    return bare.replace(/[^a-z]/g, '').length >= 3 && !isGeneric(bare);
  });
}

/** A generic word, or one cut short at a page or picture edge ("LABORATORY INVESTIGATION REPOR"). */
function isGeneric(word: string): boolean {
  if (GENERIC_WORDS.has(word)) return true;
  if (word.length < 4) return false;
  for (const generic of GENERIC_WORDS) if (generic.startsWith(word)) return true;
  return false;
}

/**
 * "Cedar Valley Medical Laboratory, Inc." and "... - Final Report" both name "Cedar Valley Medical Laboratory";
 * "... Center, Dept. of Pathology" names the center.
 */
export function tidyName(text: string): string {
  return (
    text
      .replace(/\s+-\s+.*$/, '')
      // "University Medical Center, Dept. of Pathology": the laboratory is the institution.
      .replace(/,\s*(dept\.?|department|division)\s+of\s+.*$/i, '')
      .replace(/,?\s+(inc|llc|ltd|corp)\.?$/i, '')
      .trim()
  );
}
